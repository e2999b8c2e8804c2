"""torch.nn.modules.dropout: where PyTorch defines Dropout, Dropout1d, Dropout2d."""
from ..dropout import Dropout, Dropout1d, Dropout2d  # noqa: F401
