"""minigrad.nn.utils: clipping gradients, padding sequences and skipping a module's
initialisation, as torch.nn.utils."""
from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm
from .init import skip_init

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "rnn", "skip_init"]

from ..._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.utils", __name__)
