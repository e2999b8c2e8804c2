# Broadcasting: gradients are summed back to each input's shape.
import torch

col = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)  # (3, 1)
row = torch.tensor([[10.0, 20.0, 30.0, 40.0]], requires_grad=True)  # (1, 4)
out = col + row
print(out.shape)
print(out)
out.sum().backward()
print(col.grad)
print(row.grad)
col.grad = None
row.grad = None
(col * row).sum().backward()
print(col.grad, row.grad)

v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # (3,)
m = torch.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], requires_grad=True)  # (2, 3)
(v * m).sum().backward()
print(v.grad, m.grad)
s = torch.tensor(2.0, requires_grad=True)
(s * m).sum().backward()
print(s.grad)
k = torch.tensor([[[1.0]], [[2.0]]], requires_grad=True)  # (2, 1, 1)
q = k * row  # (2, 1, 4)
print(q.shape)
q.sum().backward()
print(k.grad, k.grad.shape)
try:
    torch.ones(2, 3) + torch.ones(4)
except RuntimeError as e:
    print(type(e).__name__, str(e))
