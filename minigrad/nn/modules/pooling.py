"""torch.nn.modules.pooling: where PyTorch defines AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d and the like."""
from ..pooling import (  # noqa: F401
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
    AvgPool2d, MaxPool2d)
