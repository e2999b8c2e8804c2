"""minigrad.nn: torch.nn's building blocks for models: Module, Parameter, layers, losses."""
from . import functional
from .conv import Conv1d, Conv2d
from .layers import CrossEntropyLoss, LeakyReLU, Linear, MSELoss, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .parameter import Parameter
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .tutorial_layers import BCELoss, BCEWithLogitsLoss, Flatten, L1Loss, Softmax

__all__ = [
           "AdaptiveAvgPool2d",
           "AvgPool2d",
           "BCELoss",
           "BCEWithLogitsLoss",
           "Conv1d",
           "Conv2d",
           "CrossEntropyLoss",
           "Flatten",
           "L1Loss",
           "LeakyReLU",
           "Linear",
           "MSELoss",
           "MaxPool2d",
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
