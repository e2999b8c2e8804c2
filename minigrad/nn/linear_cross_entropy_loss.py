"""LinearCrossEntropyLoss (new in PyTorch 2.13): a Linear layer and cross_entropy of its logits
in one module (functional.linear_cross_entropy, PyTorch's reference path)."""
from __future__ import annotations

import math

from ..tensor import Tensor
from .functional import linear_cross_entropy
from .layers import Linear
from .margin_losses import _WeightedLoss


class LinearCrossEntropyLoss(_WeightedLoss):
    """A Linear layer (`self.linear`, of in_features -> num_classes x out_features) and
    cross_entropy of its logits."""

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device: object = None, dtype: object = None,
                 reduction: str = "mean", weight: Tensor | None = None,
                 ignore_index: int | None = None, label_smoothing: float = 0.0,
                 options: None = None) -> None:
        if weight is not None and weight.shape != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError("expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        super().__init__(weight=weight, reduction=reduction)
        self.num_classes, self.out_features = num_classes, out_features
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing
        self.linear = Linear(in_features, math.prod(out_features, start=num_classes), bias=bias,
                             device=device, dtype=dtype)
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        linear_weight = self.linear.weight.reshape(
            (self.num_classes, *self.out_features, self.linear.in_features))
        linear_bias = (None if self.linear.bias is None
                       else self.linear.bias.reshape((self.num_classes, *self.out_features)))
        return linear_cross_entropy(input, linear_weight, target, linear_bias=linear_bias,
                                    weight=self.weight, reduction=self.reduction,
                                    ignore_index=self.ignore_index,
                                    label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self) -> str:
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes},"
                f" out_features={self.out_features}, bias={self.linear.bias is not None},"
                f" reduction={self.reduction}, ignore_index={self.ignore_index},"
                f" label_smoothing={self.label_smoothing}, options={self.options}")
