"""minigrad.nn: torch.nn's building blocks for models: Module, Parameter, layers, losses."""
from . import functional, init, utils
from .activations import ELU, GELU, Hardtanh, ReLU6, Softplus
from .containers import Identity, ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d, Conv3d
from .conv_transpose import ConvTranspose1d, ConvTranspose2d
from .dropout import Dropout, Dropout1d, Dropout2d
from .embedding import Embedding
from .layers import CrossEntropyLoss, LeakyReLU, Linear, MSELoss, ReLU, Sigmoid, Tanh
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyConv1d, LazyConv2d, LazyLinear,
                   UninitializedParameter)
from .module import Module
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d,
                            LayerNorm)
from .parameter import Parameter
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .tutorial_layers import (BCELoss, BCEWithLogitsLoss, Flatten, HuberLoss, KLDivLoss, L1Loss,
                             LogSoftmax, NLLLoss, SmoothL1Loss, Softmax)

__all__ = [
           "AdaptiveAvgPool2d",
           "AvgPool2d",
           "BCELoss",
           "BCEWithLogitsLoss",
           "BatchNorm1d",
           "BatchNorm2d",
           "BatchNorm3d",
           "Conv1d",
           "Conv2d",
           "Conv3d",
           "ConvTranspose1d",
           "ConvTranspose2d",
           "CrossEntropyLoss",
           "Dropout",
           "Dropout1d",
           "Dropout2d",
           "ELU",
           "Embedding",
           "Flatten",
           "GELU",
           "GRU",
           "GRUCell",
           "Hardtanh",
           "HuberLoss",
           "Identity",
           "InstanceNorm1d",
           "InstanceNorm2d",
           "KLDivLoss",
           "L1Loss",
           "LSTM",
           "LSTMCell",
           "LayerNorm",
           "LazyBatchNorm1d",
           "LazyBatchNorm2d",
           "LazyConv1d",
           "LazyConv2d",
           "LazyLinear",
           "LeakyReLU",
           "LogSoftmax",
           "Linear",
           "MSELoss",
           "MaxPool2d",
           "Module",
           "ModuleDict",
           "ModuleList",
           "NLLLoss",
           "Parameter",
           "RNN",
           "RNNCell",
           "RNNBase",
           "ReLU",
           "ReLU6",
           "Sequential",
           "Sigmoid",
           "SmoothL1Loss",
           "Softmax",
           "Softplus",
           "Tanh",
           "UninitializedParameter",
           "functional",
           "init",
           "utils",
]

from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn", __name__)
