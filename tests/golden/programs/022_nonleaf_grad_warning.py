# Reading .grad of a non-leaf that does not retain it: None plus a UserWarning.
import torch
import warnings


def show(caught):
    for w in caught:
        msg = str(w.message).split(" (Triggered internally")[0]
        print(w.category.__name__ + ":", msg)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
loss = y.sum()
loss.backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g = y.grad
print("value:", g)
print("number of warnings:", len(caught))
show(caught)

# no warning for a leaf, nor for a non-leaf that retains its grad
y2 = x * 3
y2.retain_grad()
y2.sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(x.grad, y2.grad)
print("number of warnings:", len(caught))

# a tensor that does not require grad is a leaf: no warning either
c = torch.tensor([1.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(c.grad)
print("number of warnings:", len(caught))
