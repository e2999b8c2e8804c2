# Source: pytorch/pytorch docs/source/notes/broadcasting.rst at 0b4ba99 ("Broadcasting
#   semantics", the PyTorch documentation's note: which shapes broadcast, the result's size,
#   in-place operations that may not change shape, legacy `torch.FloatTensor(sizes)` tensors)
# Edits: the note's examples in order as a program; each line the note shows with output prints
#   it, and each that the note shows raising is run in `try` and prints the error (PyTorch 2.13's
#   wording, which differs from the note's for the in-place example); the sizes of the tensors
#   made are printed (their values are uninitialised memory in PyTorch). Left out: the last
#   example, `torch.utils.backcompat.broadcast.warning.enabled = True`, an attribute PyTorch
#   2.13 no longer has (AttributeError).
import torch


def attempt(f):
    try:
        print(f())
    except RuntimeError as e:
        print(f"RuntimeError: {e}")


# General semantics
x=torch.FloatTensor(5,7,3)
y=torch.FloatTensor(5,7,3)
# same shapes are always broadcastable (i.e. the above rules always hold)
print(x.size(), y.size(), (x+y).size())

x=torch.FloatTensor()
y=torch.FloatTensor(2,2)
# x and y are not broadcastable, because x does not have at least 1 dimension
print(x.size(), y.size())
attempt(lambda: (x+y).size())

# can line up trailing dimensions
x=torch.FloatTensor(5,3,4,1)
y=torch.FloatTensor(  3,1,1)
# x and y are broadcastable.
print((x+y).size())

# but:
x=torch.FloatTensor(5,2,4,1)
y=torch.FloatTensor(  3,1,1)
# x and y are not broadcastable, because in the 3rd trailing dimension 2 != 3
attempt(lambda: (x+y).size())

# can line up trailing dimensions to make reading easier
x=torch.FloatTensor(5,1,4,1)
y=torch.FloatTensor(  3,1,1)
print((x+y).size())

# but not necessary:
x=torch.FloatTensor(1)
y=torch.FloatTensor(3,1,7)
print((x+y).size())

x=torch.FloatTensor(5,2,4,1)
y=torch.FloatTensor(3,1,1)
attempt(lambda: (x+y).size())

# In-place semantics
x=torch.FloatTensor(5,3,4,1)
y=torch.FloatTensor(3,1,1)
print((x.add_(y)).size())

# but:
x=torch.FloatTensor(1,3,1)
y=torch.FloatTensor(3,1,7)
attempt(lambda: (x.add_(y)).size())

# Backwards compatibility
torch.manual_seed(0)
print(torch.add(torch.ones(4,1), torch.randn(4)).size())
print(torch.add(torch.ones(4,1), torch.ones(4)))
