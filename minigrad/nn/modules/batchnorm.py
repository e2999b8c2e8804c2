"""torch.nn.modules.batchnorm: where PyTorch defines BatchNorm1d, BatchNorm2d, BatchNorm3d and the like."""
from ..lazy import LazyBatchNorm1d, LazyBatchNorm2d  # noqa: F401
from ..normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d  # noqa: F401
