"""minigrad.optim: torch.optim's SGD and Adam, on the same Optimizer base."""
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer"]
