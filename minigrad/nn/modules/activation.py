"""torch.nn.modules.activation: where PyTorch defines ELU, GELU, Hardtanh and the like."""
from ..activations import ELU, GELU, Hardtanh, LogSigmoid, ReLU6, SiLU, Softplus  # noqa: F401
from ..layers import LeakyReLU, PReLU, ReLU, Sigmoid, Tanh  # noqa: F401
from ..tutorial_layers import LogSoftmax, Softmax  # noqa: F401
