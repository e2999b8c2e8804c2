# item(), tolist(), size(), dim(), numel(), shape.
import torch

s = torch.tensor(2.5, requires_grad=True)
print(s.item(), type(s.item()).__name__)
print(torch.tensor([7]).item(), type(torch.tensor([7]).item()).__name__)
print(torch.tensor([[True]]).item())
print(torch.tensor(0.1).item())
try:
    torch.tensor([1.0, 2.0]).item()
except RuntimeError as e:
    print(type(e).__name__, str(e))
m = torch.tensor([[1.0, 2.5], [3.0, 4.0], [5.0, 6.0]])
print(m.tolist())
print(torch.tensor([1, 2]).tolist(), torch.tensor(3.0).tolist(), torch.tensor([True, False]).tolist())
print(m.size(), m.size(0), m.size(-1), m.shape, m.shape[1])
print(m.dim(), m.ndim, m.numel(), len(m))
print(s.size(), s.dim(), s.numel(), s.shape)
print(type(m.size()).__name__, m.size() == (3, 2), tuple(m.shape), list(m.shape))
print(torch.Size([2, 3]), torch.Size([]), torch.Size([2, 3]).numel())
print(m.requires_grad, s.requires_grad)
print(float(torch.tensor(1.5)), int(torch.tensor(3.9)), bool(torch.tensor(0.0)))
try:
    len(s)
except TypeError as e:
    print(type(e).__name__, str(e))
