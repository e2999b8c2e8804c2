"""torch.nn.modules.conv: where PyTorch defines Conv1d, Conv2d, Conv3d and the like."""
from ..conv import Conv1d, Conv2d, Conv3d  # noqa: F401
from ..conv_transpose import ConvTranspose1d, ConvTranspose2d  # noqa: F401
from ..lazy import LazyConv1d, LazyConv2d  # noqa: F401
