# repr of 2-d and 3-d tensors.
import torch

print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(torch.tensor([[1.5, -2.0, 3.25], [10.0, 0.0, -0.5]]))
print(torch.tensor([[1, 2, 3], [40, 50, 60]]))
print(torch.tensor([[True, False], [False, True]]))
print(torch.arange(24.0).reshape(2, 3, 4))
print(torch.arange(8).reshape(2, 2, 2))
print(torch.tensor([[1e-4, 1.0], [2.0, 3.0]]))
print(torch.tensor([[1.0, 2.0]], requires_grad=True))
print(torch.zeros(2, 2, dtype=torch.float64))
print(torch.ones(1, 1, 1))
print(torch.zeros(0, 3))
print(torch.zeros(2, 0))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(x * 2)
print(x.t())
