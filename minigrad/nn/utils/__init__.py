"""minigrad.nn.utils: clipping gradients, as torch.nn.utils."""
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm"]

from ...compat.subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.utils", __name__)
