"""torch.nn.modules.adaptive: where PyTorch defines AdaptiveLogSoftmaxWithLoss."""
from ..adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401
