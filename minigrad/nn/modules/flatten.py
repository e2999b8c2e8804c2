"""torch.nn.modules.flatten: where PyTorch defines Flatten."""
from ..tutorial_layers import Flatten  # noqa: F401
