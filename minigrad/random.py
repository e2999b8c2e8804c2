"""Random tensors, with PyTorch's numbers: `torch.manual_seed(0); torch.randn(3)` gives here
what it gives in PyTorch (fidelity/generator.py draws them as PyTorch does). Each function takes
`generator=`, a `torch.Generator` of its own; without one, the default generator is used, which
starts from PyTorch's default seed, so even an unseeded program draws PyTorch's numbers."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _device, _dtype
from ._device import check as _check_device
from .creation import _sizes
from .fidelity.generator import MersenneTwister
from .tensor import Tensor, tensor_of


class Generator(MersenneTwister):
    """A source of random numbers with its own seed, as `torch.Generator()`.

    On the CPU only; its state is a uint8 tensor (fidelity/generator.py draws the numbers)."""

    def __init__(self, device: Any = "cpu") -> None:
        if _device.device(device).type != "cpu":
            raise RuntimeError(f"minigrad is a subset of PyTorch: it has only the CPU generator, "
                               f"not one on '{device}'")
        super().__init__()

    @property
    def device(self) -> Any:
        return _device.device("cpu")

    def get_state(self) -> Tensor:
        return tensor_of(super().get_state())

    def set_state(self, new_state: Tensor) -> Generator:
        return super().set_state(new_state._data)


default_generator = Generator()


def _pick(generator: Generator | None) -> Generator:
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a torch.Generator, not {type(generator).__name__}")
    return generator


def manual_seed(seed: int) -> Generator:
    """Seeds the default generator and returns it, as PyTorch does."""
    return default_generator.manual_seed(seed)


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def _floating(dtype: _dtype.dtype | None, name: str) -> Any:
    d = dtype or _dtype.get_default_dtype()
    if not d.is_floating_point:
        raise RuntimeError(f'"{name}" not implemented for \'{d.scalar_name}\'')
    return d.numpy


def _made(values: np.ndarray, device: Any, requires_grad: bool) -> Tensor:
    _check_device(device)
    return tensor_of(values, requires_grad=requires_grad)


def rand(*sizes: Any, size: Any = None, generator: Generator | None = None,
         dtype: _dtype.dtype | None = None,
         device: Any = None, requires_grad: bool = False) -> Tensor:
    """Uniform on [0, 1)."""
    d = _floating(dtype, "check_uniform_bounds")
    return _made(_pick(generator).uniform(_sizes(sizes, size), 0.0, 1.0, d), device,
                 requires_grad)


def randn(*sizes: Any, size: Any = None, generator: Generator | None = None,
          dtype: _dtype.dtype | None = None,
          device: Any = None, requires_grad: bool = False) -> Tensor:
    """Standard normal."""
    d = _floating(dtype, "normal_kernel_cpu")
    return _made(_pick(generator).normal(_sizes(sizes, size), 0.0, 1.0, d), device,
                 requires_grad)


def rand_like(input: Tensor, dtype: _dtype.dtype | None = None,  # noqa: A002
              requires_grad: bool = False) -> Tensor:
    return rand(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input: Tensor, dtype: _dtype.dtype | None = None,  # noqa: A002
               requires_grad: bool = False) -> Tensor:
    return randn(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint(low: int = 0, high: int | None = None, size: Any = None, *,
            generator: Generator | None = None, dtype: _dtype.dtype | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    if size is None and isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing 1 required positional arguments: \"size\"")
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    shape = _sizes((size,))
    values = _pick(generator).integers(int(np.prod(shape, dtype=np.int64)), low, high)
    d = (dtype or _dtype.int64).numpy
    return _made(values.reshape(shape).astype(d), device, requires_grad)


def randperm(n: int, *, generator: Generator | None = None, dtype: _dtype.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """The numbers 0 to n - 1 in a random order (PyTorch's shuffle: Generator.permutation)."""
    d = (dtype or _dtype.int64).numpy
    return _made(_pick(generator).permutation(n).astype(d), device, requires_grad)


def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Generator | None = None,
           dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """`normal(mean, std)` with a tensor for either or both (one number per element), or
    `normal(mean, std, size)` with two numbers. PyTorch draws N(0, std) then adds a tensor
    mean, or N(0, 1) then multiplies by a tensor std and adds the mean; so does minigrad."""
    source = _pick(generator)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments: give a "
                            "tensor mean or std, or a size")
        d = _floating(dtype, "normal_kernel_cpu")
        return _made(source.normal(_sizes((size,)), float(mean), float(std), d), device,
                     requires_grad)
    like = mean if isinstance(mean, Tensor) else std
    shape = np.broadcast_shapes(*(t.shape for t in (mean, std) if isinstance(t, Tensor)))
    d = like._data.dtype
    if isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        values = source.normal(shape, 0.0, float(std), d) + mean._data
    else:
        values = source.normal(shape, 0.0, 1.0, d) * std._data
        values = values + (mean._data if isinstance(mean, Tensor) else d.type(mean))
    return _made(np.asarray(values, dtype=d), device, requires_grad)


def _normal_values(t: Tensor, mean: float, std: float, generator: Generator | None) -> np.ndarray:
    """What `t.normal_(mean, std)` writes into t."""
    return _pick(generator).normal(t.shape, mean, std, t._data.dtype)


def _uniform_values(t: Tensor, low: float, high: float, generator: Generator | None
                    ) -> np.ndarray:
    """What `t.uniform_(low, high)` writes into t."""
    return _pick(generator).uniform(t.shape, low, high, t._data.dtype)
