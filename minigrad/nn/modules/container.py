"""torch.nn.modules.container: where PyTorch defines ModuleDict, ModuleList, Sequential."""
from ..containers import ModuleDict, ModuleList, Sequential  # noqa: F401
