# Seed 003: the order of the two backward calls does not matter: 3 then 5.
import torch

x = torch.ones(1, requires_grad=True)
first = x ** 3
second = x ** 2
first.backward()
print(x.grad)
second.backward()
print(x.grad)
