# backward(inputs=[...]) only accumulates into the listed tensors.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
mid = x * w
mid.retain_grad()
loss = (mid * mid).sum()
loss.backward(inputs=[x], retain_graph=True)
print(x.grad, w.grad)
loss.backward(inputs=[w], retain_graph=True)
print(x.grad, w.grad)
loss.backward(inputs=[mid])
print(mid.grad, x.grad, w.grad)
