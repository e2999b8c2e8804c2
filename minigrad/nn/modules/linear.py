"""torch.nn.modules.linear: where PyTorch defines Identity, Linear, LazyLinear."""
from ..containers import Identity  # noqa: F401
from ..layers import Linear  # noqa: F401
from ..lazy import LazyLinear  # noqa: F401
