"""`torch.functional`, the module PyTorch keeps einsum, meshgrid, norm, split and unique in, which
the introyt "Building Models" tutorial imports as `import torch.functional as F`
(tests/corpus/waiting/pytorch_introyt_models.py): it imports, is reachable as an attribute, its
functions are torch's own, and a name it lacks raises AttributeError. Skipped without PyTorch."""
from __future__ import annotations

import importlib

import minigrad as mg


def _module(lib) -> list:
    F = importlib.import_module(f"{lib.__name__}.functional")
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
    seen = [F is lib.functional, F.einsum("ij,jk->ik", x, x).tolist(),
            [t.tolist() for t in F.meshgrid(lib.arange(2), lib.arange(3), indexing="ij")],
            F.norm(x).item(), [t.tolist() for t in F.split(x, 1)], F.unique(x - x).tolist()]
    try:
        F.max_pool2d
    except AttributeError:
        seen.append("AttributeError")
    return seen


def test_torch_functional_as_torch(torch):
    assert _module(mg) == _module(torch)
