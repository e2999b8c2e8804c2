# backward() without a gradient on a non-scalar output raises.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * x
for out in (y, y[0], y.sum(dim=0)):
    try:
        out.backward()
    except RuntimeError as e:
        print(type(e).__name__, str(e))
# a one-element tensor that is not 0-d is fine
one = y.sum().reshape(1, 1)
print(one.shape)
one.backward()
print(x.grad)
print(x.grad is None)
