# .data: a view without autograd; assigning .data swaps the values of a leaf.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
data = w.data
print(data, data.requires_grad, data.is_leaf)
data.mul_(3)
print(w)
w.data = torch.tensor([5.0, 6.0])
print(w, w.requires_grad, w.is_leaf)
(w * w).sum().backward()
print(w.grad)
w.data -= 0.5 * w.grad
print(w)
h = w * 2
print(h.data, h.data.requires_grad)
