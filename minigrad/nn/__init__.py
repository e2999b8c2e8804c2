"""minigrad.nn: torch.nn's building blocks for models: Module, Parameter, layers, losses."""
from . import functional
from .layers import CrossEntropyLoss, LeakyReLU, Linear, MSELoss, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .parameter import Parameter

__all__ = [
           "CrossEntropyLoss",
           "LeakyReLU",
           "Linear",
           "MSELoss",
           "Module",
           "Parameter",
           "ReLU",
           "Sequential",
           "Sigmoid",
           "Tanh",
           "functional",
]
