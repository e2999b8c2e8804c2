"""torch.nn.modules: the files where PyTorch defines its layers, by the names programs
write (`torch.nn.modules.linear.Linear`, in isinstance checks and torch.serialization's
safe globals). Each holds no code: it names minigrad's classes, which live by topic in
minigrad/nn/."""
from . import (activation, adaptive, batchnorm, container, conv, distance, dropout, flatten,  # noqa: F401
               instancenorm, linear, loss, module, normalization, padding, pixelshuffle,
               pooling, rnn, sparse, upsampling)
