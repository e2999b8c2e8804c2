# torch.optim.Adam steps on explicit values.
import torch

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for step in range(4):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(step, w)
p = torch.tensor([[2.0, 3.0]], requires_grad=True)
opt2 = torch.optim.Adam([p], lr=0.01, betas=(0.8, 0.9))
for step in range(3):
    opt2.zero_grad()
    (p * torch.tensor([[1.0, -4.0]])).sum().backward()
    opt2.step()
print(p)
print(p.grad)
