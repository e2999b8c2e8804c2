"""torch.nn.modules.pixelshuffle: where PyTorch defines PixelShuffle and PixelUnshuffle."""
from ..pixelshuffle import PixelShuffle, PixelUnshuffle  # noqa: F401
