# Source: the example "target with incorrectly specified class probabilities" in the docstring
#   of PyTorch 2.13's nn.CrossEntropyLoss (torch/nn/modules/loss.py), as the reference page
#   "torch.nn" shows it; the loss modules' other examples are
#   tests/corpus/pytorch_nn_loss_examples.py.
# Edits: each `>>> expression` whose value the docstring shows is printed.
# Waited until minigrad's float32 softmax took PyTorch's kernel's steps (fidelity/softmax.py):
#   `target_new.sum(axis=1)` prints tensor([1.0000, 1.0000, 1.0000]) on PyTorch, one row's
#   softmax summing to 1.0000001.
import torch
import torch.nn as nn

# Example of target with incorrectly specified class probabilities
loss = nn.CrossEntropyLoss()
torch.manual_seed(283)
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
# Provided target class probabilities are not in range [0,1]
print(target)
# Provided target class probabilities do not sum to 1
print(target.sum(axis=1))
# No error message and possible misleading loss value
print(loss(input, target).item())

# Example of target with correctly specified class probabilities
# Use .softmax() to ensure true probability distribution
target_new = target.softmax(dim=1)
# New target class probabilities all in range [0,1]
print(target_new)
# New target class probabilities sum to 1
print(target_new.sum(axis=1))
print(loss(input, target_new).item())
