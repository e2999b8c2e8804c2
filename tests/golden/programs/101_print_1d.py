# repr of 1-d tensors: integer-valued floats, decimals, scientific notation, ints, bools.
import torch

for t in [
    torch.tensor([1.0, 2.0, 3.0]),
    torch.tensor([1.5, 2.0]),
    torch.tensor([0.1, 0.25, -3.125]),
    torch.tensor([1e-3, 1e3]),
    torch.tensor([1e-5, 1.0]),
    torch.tensor([1e8, 1.0]),
    torch.tensor([123456.0, 1.5]),
    torch.tensor([-1.0, 0.0, 1.0]),
    torch.tensor([1, -20, 300]),
    torch.tensor([True, False]),
    torch.tensor([0.0]),
    torch.tensor([1.0, 2.0], dtype=torch.float64),
    torch.tensor([1, 2], dtype=torch.int32),
    torch.tensor([1, 2], dtype=torch.uint8),
    torch.tensor([2.0, 4.0], requires_grad=True),
    torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]),
    torch.tensor([]),
    torch.arange(10.0),
    torch.tensor([0.333333, 12.5]),
]:
    print(t)
