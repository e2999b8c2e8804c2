"""minigrad.nn.utils: clipping gradients and padding sequences, as torch.nn.utils."""
from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "rnn"]

from ..._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.utils", __name__)
