"""The layers the public tutorials use besides those in layers.py: Flatten, Softmax, LogSoftmax,
BCEWithLogitsLoss, BCELoss, L1Loss and NLLLoss, as in torch.nn."""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from ._loss_arguments import legacy_reduction as _legacy_reduction
from .module import Module


class Flatten(Module):
    """Flattens dimensions start_dim..end_dim into one; by default all but the batch one."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Softmax(Module):
    """exp(x) / sum(exp(x)) along `dim` (see `functional.softmax`)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along `dim` (see `functional.log_softmax`); NLLLoss's usual input."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class BCEWithLogitsLoss(Module):
    """Binary cross-entropy on logits (see `functional.binary_cross_entropy_with_logits`)."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.reduction = _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class BCELoss(Module):
    """Binary cross-entropy on probabilities (see `functional.binary_cross_entropy`)."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.reduction = _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class L1Loss(Module):
    """The mean absolute error between input and target (see `functional.l1_loss`)."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(Module):
    """|input - target|, quadratic below beta (see `functional.smooth_l1_loss`)."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__()
        self.reduction, self.beta = _legacy_reduction(size_average, reduce, reduction), beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(Module):
    """Quadratic below delta, linear above (see `functional.huber_loss`)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__()
        self.reduction, self.delta = reduction, delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(Module):
    """KL divergence of input's log-probabilities from target's (see `functional.kl_div`)."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__()
        self.reduction = _legacy_reduction(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class NLLLoss(Module):
    """The negative log-likelihood of log-probabilities (see `functional.nll_loss`)."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CosineEmbeddingLoss(Module):
    """Pulls pairs marked 1 together and pushes pairs marked -1 apart, by their cosine (see
    `functional.cosine_embedding_loss`)."""

    def __init__(self, margin: float = 0.0, size_average: bool | None = None,
                 reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.margin, self.reduction = margin, _legacy_reduction(size_average, reduce, reduction)

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class CosineSimilarity(Module):
    """The cosine of the angle between x1 and x2 along dim (see
    `functional.cosine_similarity`)."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
