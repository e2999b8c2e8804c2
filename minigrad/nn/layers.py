"""The layers: Linear, the activations and the two losses, as in torch.nn."""
from __future__ import annotations

from typing import Any

from .. import _grad_mode
from ..creation import empty
from ..fidelity.formulas import default_init_bounds
from ..tensor import Tensor
from . import functional as F
from ._loss_arguments import legacy_reduction as _legacy_reduction
from .module import Module
from .parameter import Parameter


def default_init(weight: Parameter, bias: Parameter | None, fan_in: int) -> None:
    """PyTorch's default for Linear and Conv: kaiming_uniform_(a=sqrt(5)) for the weight, which
    comes down to uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), and the same range for the bias.
    The bounds are PyTorch's to the last bit (fidelity.formulas), and so is the generator."""
    weight_bound, bias_bound = default_init_bounds(fan_in)
    with _grad_mode.no_grad():  # initialising is not part of any graph
        weight.uniform_(-weight_bound, weight_bound)
        if bias is not None:
            bias.uniform_(-bias_bound, bias_bound)


class Linear(Module):
    """y = x @ weight.T + bias, with weight of shape (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        default_init(self.weight, self.bias, self.in_features)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class ReLU(Module):
    """max(0, x), element-wise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x, element-wise."""

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class PReLU(Module):
    """x where x > 0, else a * x, with the slope a learned: one for all channels, or
    num_parameters of them (one per channel, dimension 1), each starting at `init`."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(empty(num_parameters, dtype=dtype).fill_(init))

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class MSELoss(Module):
    """The mean squared error between input and target (see `functional.mse_loss`)."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(Module):
    """log_softmax then negative log-likelihood (see `functional.cross_entropy`)."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = _legacy_reduction(size_average, reduce, reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)
