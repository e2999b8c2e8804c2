"""Random tensors from one seeded generator. The numbers differ from PyTorch's (its
generator is not numpy's); the distributions and the seeding are the same idea."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype
from .creation import _sizes
from .tensor import Tensor

_state = {"generator": np.random.default_rng(0)}


def _generator() -> np.random.Generator:
    return _state["generator"]


def manual_seed(seed: int) -> None:
    _state["generator"] = np.random.default_rng(seed)


def rand(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Uniform on [0, 1)."""
    d = (dtype or _dtype.get_default_dtype()).numpy
    return Tensor(_generator().random(_sizes(size)).astype(d), requires_grad=requires_grad)


def randn(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Standard normal."""
    d = (dtype or _dtype.get_default_dtype()).numpy
    return Tensor(_generator().standard_normal(_sizes(size)).astype(d),
                  requires_grad=requires_grad)


def randint(low: int, high: int | None = None, size: Any = (), dtype: _dtype.dtype | None = None
            ) -> Tensor:
    if high is None:
        low, high = 0, low
    d = (dtype or _dtype.int64).numpy
    return Tensor(_generator().integers(low, high, _sizes((size,))).astype(d))


def randperm(n: int) -> Tensor:
    return Tensor(_generator().permutation(n).astype(np.int64))
