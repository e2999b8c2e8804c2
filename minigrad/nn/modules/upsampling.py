"""torch.nn.modules.upsampling: where PyTorch defines Upsample."""
from .._upsample import Upsample  # noqa: F401
