# Source: discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297 (PyTorch
#   Forums, "Inplace operation changes is_leaf attribute": six ways to change a leaf that
#   requires grad in place, which PyTorch refuses or allows, and `c[:] += 1` leaving a tensor
#   that is no longer a leaf)
# Edits: torch.manual_seed(0) added (unseeded); each `except RuntimeError:` also prints the
#   error's message (the post quotes each in a comment) as `except RuntimeError as error:`.
#   The last operation, which the post says passes, is refused by PyTorch 2.13 (a view of a
#   leaf), and the program ends there, as it does on PyTorch.
import torch
torch.manual_seed(0)

c = torch.randn(10, 3, 2, 32, requires_grad=True)
print(c.is_leaf)
# operation 1
try:
    c += 1 # RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
except RuntimeError as error:
    print(RuntimeError)
    print(error)
# operation 2
try:
    torch.add(c, 1, out=c) # RuntimeError: add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad. Grad will not be copied (only data will be copied).
except RuntimeError as error:
    print(RuntimeError)
    print(error)
# operation 3
try:
    c.add_(1) # RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
except RuntimeError as error:
    print(RuntimeError)
    print(error)
# operation 4
try:
    c.index_copy_(3, torch.tensor(10), torch.randn(10, 3, 2, 1)) # RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
except RuntimeError as error:
    print(RuntimeError)
    print(error)
# operation 5
d = c.detach()
d += 1 # no error, and still leaf
print(c.is_leaf)
# operation 6
c[:] += 1 # no error, but not leaf anymore
print(c.is_leaf)

