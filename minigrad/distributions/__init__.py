"""minigrad.distributions: torch.distributions' Normal, Categorical, Multinomial, Binomial and
Poisson, drawn with minigrad's generator (seed for seed PyTorch's draws), with PyTorch's checks
and messages."""
from . import binomial, categorical, constraints, multinomial, normal, poisson
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial
from .normal import Normal
from .poisson import Poisson

__all__ = ["Binomial", "Categorical", "Distribution", "Multinomial", "Normal", "Poisson",
           "binomial", "categorical", "constraints", "multinomial", "normal", "poisson"]

from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.distributions", __name__)
