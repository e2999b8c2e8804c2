"""A view made with grad mode off (under no_grad, or in inference mode for a view of a normal
tensor). It requires grad whenever its base does, yet no gradient reaches it or through it.
PyTorch refuses what would be ambiguous: changing it in place with grad mode on (was that
change meant to be recorded? _inplace.check_inplace), and, once the memory it shares has
changed in place (its base, another view, itself, with grad mode on or off), giving its
grad_fn at all while its base requires grad: the tensor prints `grad_fn=<Invalid>`, and
everything that reads grad_fn (is_leaf, register_hook, a recorded operation) raises.

Only these views read their grad_fn through a check (as custom_view.py's do): a tensor becomes
a NoGradView when it is made (function._mark_no_grad_view); every other tensor keeps grad_fn a
plain attribute. What PyTorch answers without reading grad_fn (`.grad`, requires_grad,
retain_grad) reads the attribute itself."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..tensor import Tensor
from .custom_view import repr_with_invalid_grad_fn

_GRAD_FN = Tensor.grad_fn  # the attribute itself, which the property below stands in front of


def no_grad_view_words(view: Tensor) -> tuple[str, str, str]:
    """How PyTorch's errors about a view made under no_grad (or inference mode, for a view of a
    normal tensor) name the mode it was made in, the mode of the change, and the block."""
    if view._made_in_no_grad == "inference":
        return "inference mode", "in normal mode", "inference_mode"
    return "no_grad mode", "with grad mode enabled", "no_grad"


def no_grad_view_advice(block: str) -> str:
    """PyTorch's advice that ends both of its errors about views made under no_grad: this
    module's, and _inplace's for changing such a view in place."""
    return ("Given that this use case is ambiguous and error-prone, it is forbidden. You can "
            "clarify your code by moving both the view and the inplace either both inside the "
            f"{block} block (if you don't want the inplace to be tracked) or both outside (if you "
            "want the inplace to be tracked).")


def check_no_grad_view_unchanged(view: Tensor) -> None:
    """Refuse, as PyTorch does, to give the history of a view made under no_grad whose values
    have changed in place since it was made, once its base requires grad."""
    made = view._version_when_made
    if made is not None and view._version != made and view._base.requires_grad:
        made_in, now, block = no_grad_view_words(view)
        raise RuntimeError(f"A view was created in {made_in} and its base or another view of its "
                           f"base has been modified inplace {now}. {no_grad_view_advice(block)}")


class NoGradView(Tensor):
    __slots__ = ()  # the same layout as Tensor's: an existing tensor can take this class

    @property
    def grad_fn(self) -> Any:
        check_no_grad_view_unchanged(self)
        return _GRAD_FN.__get__(self)

    @grad_fn.setter
    def grad_fn(self, node: Any) -> None:
        _GRAD_FN.__set__(self, node)

    def _own_node(self) -> Any:
        return _GRAD_FN.__get__(self)

    @property
    def requires_grad(self) -> bool:
        return (self._requires_grad or _GRAD_FN.__get__(self) is not None
                or (self._base.requires_grad and not self._is_inference))

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        with _unchecked(self):
            Tensor.requires_grad.__set__(self, value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        with _unchecked(self):
            return Tensor.requires_grad_(self, requires_grad)

    @property
    def grad(self) -> Tensor | None:
        with _unchecked(self):
            return Tensor.grad.__get__(self)

    grad = grad.setter(Tensor.grad.fset).deleter(Tensor.grad.fdel)

    def retain_grad(self) -> None:
        with _unchecked(self):
            Tensor.retain_grad(self)

    __repr__ = __str__ = repr_with_invalid_grad_fn

    def __format__(self, spec: str) -> str:  # (Tensor's reads a number from a plain one only)
        with _unchecked(self):
            return format(self, spec)


@contextmanager
def _unchecked(view: NoGradView) -> Iterator[None]:
    """Read `view` as the plain Tensor it is, where PyTorch reads no grad_fn's check."""
    view.__class__ = Tensor
    try:
        yield
    finally:
        view.__class__ = NoGradView


def make_no_grad_view(view: Tensor) -> None:
    """`view`, made with grad mode off of a tensor that requires grad, reads its grad_fn
    through the check (a custom Function's view keeps its own: custom_view.py). Most views
    made with grad mode off are of tensors that do not (a backward pass's gradients): they
    stay plain, for the paths that take a plain Tensor only. (So one whose base comes to
    require grad later is not refused, where PyTorch refuses it.)"""
    if type(view) is Tensor and view._base.requires_grad:
        view.__class__ = NoGradView


# Named as the tensor it is (type(view).__name__ is "Tensor"), as custom_view.py's class is.
NoGradView.__name__ = NoGradView.__qualname__ = "Tensor"
