"""torch.var_mean and torch.std_mean: one node (VarMeanBackward0, StdMeanBackward0) with two
outputs, the spread and the mean, both accumulated in double precision and rounded once, as
PyTorch's CPU kernel does; the gradient of each output is var's (or std's) formula plus
mean's, as PyTorch's var_mean_backward adds them."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from .operands import result_like
from .pointwise import DivScalar
from .reduction import _restore
from .statistics import Std, Var, spread_arguments


class VarMean(Function):
    """(var, mean) in one node, as PyTorch's var_mean: each output's gradient flows back as
    var's and mean's would, added. StdMean is the same with std."""
    node_name = "VarMeanBackward0"
    spread = Var  # the op of the first output, read through ctx._forward_cls (StdMean: Std)

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        spread = ctx._forward_cls.spread.forward(ctx, a, dims, correction, keepdim)
        kept = tuple(range(a.ndim)) if dims is None else dims
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the mean of nothing: nan
            mean = np.mean(a._data.astype(np.float64), axis=kept, keepdims=keepdim)
        return spread, result_like(np.asarray(mean).astype(a._data.dtype), a)

    @staticmethod
    def backward(ctx, grad_spread, grad_mean):
        a = ctx.saved_tensors[0]
        count = int(np.prod([a.shape[d] for d in ctx.dims], dtype=np.int64))
        dims = None if ctx.whole else ctx.dims
        of_mean = DivScalar.apply(_restore(grad_mean, a.shape, dims, ctx.keepdim).expand(a.shape),
                                  count)
        return ctx._forward_cls.spread.backward(ctx, grad_spread)[0] + of_mean, None, None, None


class StdMean(VarMean):
    node_name = "StdMeanBackward0"
    spread = Std


def moments(name: str, a: Tensor, dim: Any = None, unbiased: Any = True, keepdim: bool = False,
            *, correction: Any = None) -> tuple[Tensor, Tensor]:
    """`torch.var_mean(x, ...)` or `torch.std_mean(x, ...)`: (spread, mean)."""
    dims, correction = spread_arguments(a, name, name, dim, unbiased, correction)
    cls = StdMean if name == "std_mean" else VarMean
    return cls.apply(a, dims, correction, keepdim)
