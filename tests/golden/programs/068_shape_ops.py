# reshape, view, flatten, squeeze, unsqueeze, transpose, t(), .T, permute, expand.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
weights = torch.arange(6.0)
ops = [
    ("reshape(3, 2)", lambda: x.reshape(3, 2)),
    ("reshape(-1)", lambda: x.reshape(-1)),
    ("view(6)", lambda: x.view(6)),
    ("view(3, -1)", lambda: x.view(3, -1)),
    ("flatten()", lambda: x.flatten()),
    ("unsqueeze(0)", lambda: x.unsqueeze(0)),
    ("unsqueeze(-1)", lambda: x.unsqueeze(-1)),
    ("transpose(0, 1)", lambda: x.transpose(0, 1)),
    ("t()", lambda: x.t()),
    (".T", lambda: x.T),
    ("permute(1, 0)", lambda: x.permute(1, 0)),
]
for label, fn in ops:
    x.grad = None
    out = fn()
    (out.reshape(-1) * weights).sum().backward()
    print(f"{label}: shape={tuple(out.shape)} {out.grad_fn.name()} contiguous={out.is_contiguous()}")
    print(x.grad)
print(x.T)
s = torch.tensor([[[1.0], [2.0]]], requires_grad=True)  # (1, 2, 1)
print(s.squeeze().shape, s.squeeze(0).shape, s.squeeze(-1).shape, s.squeeze(1).shape)
print(s.squeeze().grad_fn.name(), s.squeeze(0).grad_fn.name())
s.squeeze().sum().backward()
print(s.grad, s.grad.shape)
e = torch.tensor([[1.0], [2.0]], requires_grad=True)
big = e.expand(2, 3)
print(big, big.shape, big.grad_fn.name())
big.sum().backward()
print(e.grad)
print(e.expand(-1, 4).shape, e.expand(3, 2, 2).shape)
c = torch.arange(24.0).reshape(2, 3, 4)
print(c.permute(2, 0, 1).shape, c.flatten(1).shape, c.flatten(0, 1).shape, c.transpose(0, 2).shape)
try:
    x.t().view(6)
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.t().reshape(6))
