# .grad is None until a backward pass reaches the tensor; a leaf that requires
# grad but is not part of the differentiated graph stays None.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
unused = torch.tensor([5.0, 6.0], requires_grad=True)
print(a.grad, b.grad, unused.grad)
out = (a * b).sum()
print(a.grad, b.grad, unused.grad)
other = (unused * 2).sum()
out.backward()
print(a.grad, b.grad, unused.grad)
other.backward()
print(unused.grad)
