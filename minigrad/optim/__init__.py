"""minigrad.optim: torch.optim's SGD, Adam and RMSprop, on the same Optimizer base."""
from .adam import Adam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer", "RMSprop"]

from ..compat.subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.optim", __name__)
