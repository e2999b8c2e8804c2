"""torch.nn.modules.sparse: where PyTorch defines Embedding."""
from ..embedding import Embedding  # noqa: F401
