# Seed 003: x.grad.zero_() between the two backward calls stops accumulation.
import torch

x = torch.ones(1, requires_grad=True)
sq = x ** 2
cube = x ** 3
sq.backward()
print(x.grad)
ret = x.grad.zero_()
print(ret)
print(ret is x.grad)
cube.backward()
print(x.grad)
