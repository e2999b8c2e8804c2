# Assigning .grad by hand: shape and dtype checks, then accumulation on top of it.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for bad in [torch.zeros(3), torch.zeros(2, 1), torch.zeros(2, dtype=torch.float64), torch.zeros(2, dtype=torch.int64)]:
    try:
        x.grad = bad
        print("accepted", bad.shape, bad.dtype)
    except RuntimeError as e:
        print(type(e).__name__, str(e))
print(x.grad)
x.grad = torch.ones(2)
(x * 2).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
