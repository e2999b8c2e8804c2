# Source: the example in the docstring of PyTorch 2.13's
#   torch.autograd.graph.allow_mutation_on_saved_tensors (torch/autograd/graph.py), shown on the
#   reference page "Automatic differentiation package - torch.autograd"; the rest of that page's
#   examples are tests/corpus/pytorch_autograd_api_examples.py.
# Edits: the value the docstring shows (the result of `b.sin_()`) is printed, and a.grad after.
# Waited in waiting/ until minigrad had torch.autograd.graph.allow_mutation_on_saved_tensors
#   (a tensor saved for backward and then changed in place is cloned first, so that backward
#   uses the values it saved; tests/parity/test_mutation_on_saved_vs_torch.py).
import torch

with torch.autograd.graph.allow_mutation_on_saved_tensors():
    # forward
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    print(b.sin_())
    # backward
    out.sum().backward()
print(a.grad)

