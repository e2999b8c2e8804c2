# Full reductions sum/mean/max/min; max and min split the gradient evenly among ties.
import torch

x = torch.tensor([[1.0, 5.0, 2.0], [5.0, 0.0, 0.0]], requires_grad=True)
for name in ["sum", "mean", "max", "min"]:
    x.grad = None
    out = getattr(x, name)()
    out.backward()
    print(name, out, out.shape, out.grad_fn.name())
    print(x.grad)
print(torch.sum(x), torch.mean(x), torch.max(x), torch.min(x))
i = torch.tensor([1, 2, 3, 4])
print(i.sum(), i.sum().dtype, i.max())
try:
    i.mean()
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(i.float().mean())
