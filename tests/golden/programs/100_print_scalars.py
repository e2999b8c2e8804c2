# repr of 0-d tensors of each kind.
import torch

for t in [
    torch.tensor(2.0),
    torch.tensor(-0.5),
    torch.tensor(3),
    torch.tensor(-7),
    torch.tensor(True),
    torch.tensor(1.25, requires_grad=True),
    torch.tensor(1.0, dtype=torch.float64),
    torch.tensor(1.0, dtype=torch.float64, requires_grad=True),
    torch.tensor(5, dtype=torch.int32),
    torch.tensor(123456.0),
    torch.tensor(0.0001),
    torch.tensor(1e10),
    torch.tensor(1 / 3),
]:
    print(t)
print(str(torch.tensor(4.0)), repr(torch.tensor(4.0)))
print(f"{torch.tensor(4.0)}")
x = torch.tensor(2.0, requires_grad=True)
print(x * 3)
print([torch.tensor(1.0), torch.tensor(2)])
