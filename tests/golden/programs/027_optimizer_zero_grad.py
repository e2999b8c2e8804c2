# optimizer.zero_grad() sets .grad to None by default; set_to_none=False zeroes.
import torch

p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0], requires_grad=True)
opt = torch.optim.SGD([p, q], lr=0.5)
loss = (p * p).sum() + (q * 2).sum()
loss.backward()
print(p.grad, q.grad)
opt.zero_grad()
print(p.grad, q.grad)
loss = (p * p).sum() + (q * 2).sum()
loss.backward()
opt.zero_grad(set_to_none=False)
print(p.grad, q.grad)
opt.zero_grad(set_to_none=True)
print(p.grad, q.grad)
