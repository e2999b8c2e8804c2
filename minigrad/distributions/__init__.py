"""minigrad.distributions: torch.distributions' Normal, Categorical and Multinomial, drawn with
minigrad's generator (seed for seed PyTorch's draws), with PyTorch's checks and messages."""
from . import categorical, constraints, multinomial, normal
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial
from .normal import Normal

__all__ = ["Categorical", "Distribution", "Multinomial", "Normal", "categorical", "constraints",
           "multinomial", "normal"]

from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.distributions", __name__)
