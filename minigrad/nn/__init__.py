"""minigrad.nn: torch.nn's building blocks for models: Module, Parameter, layers, losses."""
from . import functional, init, modules, utils
from .adaptive import AdaptiveLogSoftmaxWithLoss
from .activations import ELU, GELU, Hardtanh, LogSigmoid, ReLU6, SiLU, Softplus
from .containers import (Identity, ModuleDict, ModuleList, ParameterDict, ParameterList,
                         Sequential)
from .conv import Conv1d, Conv2d, Conv3d
from .conv_transpose import ConvTranspose1d, ConvTranspose2d
from .dropout import Dropout, Dropout1d, Dropout2d
from .embedding import Embedding
from .layers import CrossEntropyLoss, LeakyReLU, Linear, MSELoss, PReLU, ReLU, Sigmoid, Tanh
from .linear_cross_entropy_loss import LinearCrossEntropyLoss
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyConv1d, LazyConv2d, LazyLinear,
                   UninitializedParameter)
from .margin_losses import (CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss,
                            MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
                            NLLLoss2d, PairwiseDistance, PoissonNLLLoss, SoftMarginLoss,
                            TripletMarginLoss, TripletMarginWithDistanceLoss)
from .module import Module
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d,
                            LayerNorm)
from .parameter import Parameter
from .padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
                      ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AvgPool1d, AvgPool2d, MaxPool2d)
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from ._upsample import Upsample
from .tutorial_layers import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CosineSimilarity,
                             Flatten, HuberLoss, KLDivLoss, L1Loss, LogSoftmax, NLLLoss,
                             SmoothL1Loss, Softmax)

__all__ = [
           "AdaptiveLogSoftmaxWithLoss",
           "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d",
           "AvgPool1d",
           "AvgPool2d",
           "BCELoss",
           "BCEWithLogitsLoss",
           "BatchNorm1d",
           "BatchNorm2d",
           "BatchNorm3d",
           "ConstantPad1d",
           "ConstantPad2d",
           "ConstantPad3d",
           "Conv1d",
           "Conv2d",
           "Conv3d",
           "ConvTranspose1d",
           "ConvTranspose2d",
           "CTCLoss",
           "CosineEmbeddingLoss",
           "CosineSimilarity",
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
           "GaussianNLLLoss",
           "Hardtanh",
           "HingeEmbeddingLoss",
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
           "LinearCrossEntropyLoss",
           "Linear",
           "LogSigmoid",
           "LogSoftmax",
           "MSELoss",
           "MarginRankingLoss",
           "MaxPool2d",
           "Module",
           "ModuleDict",
           "ModuleList",
           "MultiLabelMarginLoss",
           "MultiLabelSoftMarginLoss",
           "MultiMarginLoss",
           "NLLLoss",
           "NLLLoss2d",
           "PReLU",
           "PairwiseDistance",
           "Parameter",
           "ParameterDict",
           "ParameterList",
           "PixelShuffle",
           "PixelUnshuffle",
           "PoissonNLLLoss",
           "RNN",
           "RNNBase",
           "RNNCell",
           "ReLU",
           "ReLU6",
           "ReflectionPad1d",
           "ReflectionPad2d",
           "ReflectionPad3d",
           "ReplicationPad1d",
           "ReplicationPad2d",
           "ReplicationPad3d",
           "Sequential",
           "SiLU",
           "Sigmoid",
           "SmoothL1Loss",
           "SoftMarginLoss",
           "Softmax",
           "Softplus",
           "Tanh",
           "TripletMarginLoss",
           "TripletMarginWithDistanceLoss",
           "UninitializedParameter",
           "Upsample",
           "ZeroPad1d",
           "ZeroPad2d",
           "ZeroPad3d",
           "functional",
           "init",
           "utils",
]

from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn", __name__)
