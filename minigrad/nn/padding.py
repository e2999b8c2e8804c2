"""The padding layers of torch.nn: a border reflected from the input (ReflectionPad1d/2d/3d),
its edge repeated (ReplicationPad...), or a constant (ConstantPad..., ZeroPad...). Each is
F.pad with its mode; `padding` is one number for every side, or a tuple (last dimension's left
and right first), and prints as the tuple, as PyTorch's do."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from . import functional as F
from .module import Module


def _sides(padding: Any, count: int) -> tuple:
    """PyTorch's _ntuple: a sequence as a tuple, a number repeated `count` times."""
    if isinstance(padding, (list, tuple)):
        return tuple(padding)
    return (padding,) * count


class _CopiedBorderPad(Module):
    mode = ""
    dims = 0

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _sides(padding, 2 * self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_CopiedBorderPad):
    mode, dims = "reflect", 1


class ReflectionPad2d(_CopiedBorderPad):
    mode, dims = "reflect", 2


class ReflectionPad3d(_CopiedBorderPad):
    mode, dims = "reflect", 3


class ReplicationPad1d(_CopiedBorderPad):
    mode, dims = "replicate", 1


class ReplicationPad2d(_CopiedBorderPad):
    mode, dims = "replicate", 2


class ReplicationPad3d(_CopiedBorderPad):
    mode, dims = "replicate", 3


class _ConstantPad(Module):
    dims = 0

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__()
        self.padding, self.value = _sides(padding, 2 * self.dims), value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPad):
    dims = 1


class ConstantPad2d(_ConstantPad):
    dims = 2


class ConstantPad3d(_ConstantPad):
    dims = 3


class _ZeroPad(_ConstantPad):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad):
    dims = 1


class ZeroPad2d(_ZeroPad):
    dims = 2


class ZeroPad3d(_ZeroPad):
    dims = 3
