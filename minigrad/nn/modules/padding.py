"""torch.nn.modules.padding: where PyTorch defines ConstantPad1d, ConstantPad2d, ConstantPad3d and the like."""
from ..padding import (  # noqa: F401
    ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
    ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad1d,
    ZeroPad2d, ZeroPad3d)
