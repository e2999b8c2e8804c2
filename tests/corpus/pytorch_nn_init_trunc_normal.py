# Source: the example in the docstring of PyTorch 2.13's torch.nn.init.trunc_normal_
#   (torch/nn/init.py), as the reference page "torch.nn.init" shows it; nn.init's other examples
#   are tests/corpus/pytorch_nn_init_examples.py.
# Edits: torch.manual_seed(0) added (the example draws unseeded); the initialised tensor is
#   printed.
# PyTorch 2.13 draws it by rejection (normal draws, those outside [a, b] drawn again), which
#   minigrad repeats draw for draw.
import torch
import torch.nn as nn

torch.manual_seed(0)

w = torch.empty(3, 5)
print(nn.init.trunc_normal_(w))
