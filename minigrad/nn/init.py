"""torch.nn.init: filling a layer's weights in place, without recording it, from PyTorch's
generator with PyTorch's formulas (so a seeded initialisation gives PyTorch's numbers)."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _grad_mode, random
from ..ops.selection import where as _where
from ..tensor import Tensor

__all__ = ["calculate_gain", "constant_", "dirac_", "eye_", "kaiming_normal_",
           "kaiming_uniform_", "normal_", "ones_", "orthogonal_", "sparse_", "trunc_normal_",
           "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]

LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
          "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The factor that keeps activations' variance steady through `nonlinearity`."""
    if nonlinearity in LINEAR:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with _grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    with _grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """Values of N(mean, std²) inside [a, b], drawn as PyTorch 2.13 draws them (so the same
    seed gives the same values): when [a, b] holds more than 30% of the distribution, normal
    draws, every one outside redrawn from a fresh draw of the whole tensor until none is;
    else uniform draws on [a, b], each kept with probability pdf(x)/pdf(mode) (a uniform's log
    below the log density), the rejected ones drawn again."""
    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", UserWarning, stacklevel=2)
    with _grad_mode.no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            lo, hi = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()  # in its dtype
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                redrawn = tensor.new_empty(tensor.shape).normal_(mean, std, generator=generator)
                result = _where(mask, redrawn, result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
        candidates, accept = tensor.new_empty(tensor.shape), tensor.new_empty(tensor.shape)

        def log_density(x: Tensor) -> Tensor:  # in place, as PyTorch's
            return x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        pending = accept.uniform_(generator=generator).log_().gt(log_density(candidates))
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = _where(pending, candidates, result)
                log_density(candidates)
                pending = _where(pending, accept.uniform_(generator=generator).log_().gt(
                    candidates), pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    with _grad_mode.no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    with _grad_mode.no_grad():
        return tensor.zero_()


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with _grad_mode.no_grad():
        tensor.zero_()
        for i in range(min(tensor.shape)):
            tensor[i, i] = 1
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Uniform in ±gain·sqrt(6 / (fan_in + fan_out)) (Glorot and Bengio, 2010)."""
    fan_in, fan_out = _fans(tensor)
    bound = math.sqrt(3.0) * (gain * math.sqrt(2.0 / float(fan_in + fan_out)))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return None
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """Uniform in ±gain·sqrt(3 / fan) (He et al., 2015)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    return tensor if std is None else normal_(tensor, 0, std, generator)


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """A convolution's weight that passes each input channel through (per group of channels):
    a 1 at the centre of the kernel of output channel d for input channel d, 0 elsewhere."""
    if tensor.dim() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with _grad_mode.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.shape[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix (the dimensions after the first flattened), times gain: the
    Q of the QR factorisation of a standard normal draw, its columns' signs made those of R's
    diagonal, as PyTorch makes it. numpy factorises float32 in double precision and LAPACK's
    single precision is PyTorch's: the last bits of Q may differ."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator).numpy()
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = (q * np.sign(np.diag(r))).astype(flattened.dtype)
    if rows < cols:
        q = q.T
    with _grad_mode.no_grad():
        tensor.copy_(tensor.new_tensor(q).view_as(tensor))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """Normal values with a fraction `sparsity` of each column set to 0 (Martens, 2010): the
    rows to zero are the first of a random permutation, one permutation per column."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with _grad_mode.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = random.randperm(rows)
            tensor[row_indices[:num_zeros], col_idx] = 0
    return tensor


from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.init", __name__)
