# zero_() resets in place: the grad tensor object is kept and later backward
# calls accumulate into it.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(3 * x).sum().backward()
g = x.grad
print(g)
x.grad.zero_()
print(g, x.grad)
(5 * x).sum().backward()
print(g, x.grad, g is x.grad)
print(x.grad.requires_grad, x.grad.is_leaf, x.grad.grad_fn)
