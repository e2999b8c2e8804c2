"""torch.utils.hooks: `RemovableHandle`, what every `register_hook` returns. It is defined
below Tensor and the graph, which both hand these out (minigrad/_handles.py)."""
from .._handles import RemovableHandle

__all__ = ["RemovableHandle"]
