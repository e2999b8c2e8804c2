"""minigrad.nn: torch.nn's building blocks for models: Module, Parameter, layers, losses."""
from . import functional
from .layers import CrossEntropyLoss, LeakyReLU, Linear, MSELoss, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .parameter import Parameter
from .tutorial_layers import BCELoss, BCEWithLogitsLoss, Flatten, L1Loss, Softmax

__all__ = [
           "BCELoss",
           "BCEWithLogitsLoss",
           "CrossEntropyLoss",
           "Flatten",
           "L1Loss",
           "LeakyReLU",
           "Linear",
           "MSELoss",
           "Module",
           "Parameter",
           "ReLU",
           "Sequential",
           "Sigmoid",
           "Softmax",
           "Tanh",
           "functional",
]

from ..compat.subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn", __name__)
