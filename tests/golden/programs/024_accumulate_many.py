# Gradients accumulate over several backward calls, from different graphs.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x * 1).sum().backward()
print(x.grad)
(x * x).sum().backward()
print(x.grad)
(x ** 3).sum().backward()
print(x.grad)
x.sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
(x * 10).sum().backward()
print(x.grad)
