"""torch.functional: the module where PyTorch keeps some of torch's tensor functions (einsum,
meshgrid, norm, split, unique, ...), the ones minigrad has here under the same names. Learners
meet it by mistake as `import torch.functional as F`, meaning torch.nn.functional (the
introyt "Building Models" tutorial does): the import works, as in PyTorch, and a name it lacks
says so."""
from __future__ import annotations

from . import einsum, meshgrid, norm, split, unique
from ._subset import module_getattr as _module_getattr

__all__ = ["einsum", "meshgrid", "norm", "split", "unique"]

__getattr__ = _module_getattr("torch.functional", __name__)
