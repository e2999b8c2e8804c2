"""torch.nn.modules.normalization: where PyTorch defines LayerNorm."""
from ..normalization import LayerNorm  # noqa: F401
