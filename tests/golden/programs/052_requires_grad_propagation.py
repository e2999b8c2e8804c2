# An op's output requires grad if any input does.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
print((a + b).requires_grad, (b + b).requires_grad, (b * a).requires_grad)
print(torch.stack([b, a]).requires_grad, torch.cat([b, b]).requires_grad)
print((a > 1).requires_grad, (a > 1).dtype)
print(a.argmax(), a.argmax().requires_grad)
out = (a * b).sum()
out.backward()
print(a.grad, b.grad)
