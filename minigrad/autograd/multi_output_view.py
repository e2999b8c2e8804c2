"""One of several views one node made (unbind's rows, split's and chunk's pieces), or a view of
one. Its gradient is a slice of what its node's backward stacks or concatenates, which
autograd cannot rewrite around an in-place change the way it reads an ordinary view again
(AsStridedBackward0). So PyTorch refuses twice: changing such a view in place with grad mode on
(_inplace.check_inplace), and, once the memory it shares has changed in place some other way
(its base, another view, a detached alias, even under no_grad), giving its grad_fn at all; the
tensor prints `grad_fn=<Invalid>`.

Only these views read their grad_fn through a check: a view with a history becomes a
MultiOutputView when it joins the graph (function.track_view); every other tensor keeps grad_fn
a plain attribute."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from .custom_view import repr_with_invalid_grad_fn
from .graph import changed_multi_output_view_error

_GRAD_FN = Tensor.grad_fn  # the attribute itself, which the property below stands in front of


class MultiOutputView(Tensor):
    __slots__ = ()  # the same layout as Tensor's: an existing tensor can take this class
    _grad_fn_version = 0  # the version of its memory when it joined the graph

    def _own_node(self) -> Any:
        return _GRAD_FN.__get__(self)

    @property
    def grad_fn(self) -> Any:
        node = _GRAD_FN.__get__(self)
        if node is not None and self._version != self._grad_fn_version:
            raise changed_multi_output_view_error(self)
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


# Named as the tensor it is (type(view).__name__ is "Tensor"), as custom_view.py's class is.
MultiOutputView.__name__ = MultiOutputView.__qualname__ = "Tensor"


def make_multi_output_view(view: Tensor) -> None:
    """`view`, joining the graph, reads its grad_fn through the check from now on."""
    if type(view) is Tensor:  # (a custom Function's view keeps its own class and check)
        view.__class__ = MultiOutputView
        view._grad_fn_version = view._version
