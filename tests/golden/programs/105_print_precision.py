# repr formatting: widths, rounding to 4 decimals, mixed magnitudes in one tensor.
import torch

print(torch.tensor([0.12346, 1.0, 100.5]))
print(torch.tensor([1.23456789]))
print(torch.tensor([-0.5, 0.25, 1000.0]))
print(torch.tensor([1.0, 10.0, 100.0, 1000.0]))
print(torch.tensor([12345.0, 0.5]))
print(torch.tensor([0.001, 0.01]))
print(torch.tensor([2.0 / 3.0, -1.0 / 7.0]))
print(torch.tensor([[0.001, 1000.0], [5.0, -2.0]]))
print(torch.tensor([1.0, 2.0]) / 3)
print(torch.tensor([100000.0, 2.0]))
print(torch.tensor([1e-10, 1e10]))
