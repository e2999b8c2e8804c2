"""torch.nn.modules.container: where PyTorch defines ModuleDict, ModuleList, ParameterDict,
ParameterList and Sequential."""
from ..containers import (ModuleDict, ModuleList, ParameterDict, ParameterList,  # noqa: F401
                          Sequential)
