"""torch.nn.modules.module: where PyTorch defines Module."""
from ..module import Module  # noqa: F401
