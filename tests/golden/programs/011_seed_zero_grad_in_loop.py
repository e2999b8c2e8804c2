# Seed 002: without clearing, a second backward adds to the first;
# optimizer.zero_grad() clears (to None by default).
import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
data = torch.tensor([3.0, 4.0])
for step in range(2):
    loss = (w * data).sum()
    loss.backward()
    print("no zero_grad, step", step, w.grad)
opt.zero_grad()
print("after zero_grad:", w.grad)
for step in range(2):
    opt.zero_grad()
    loss = (w * data).sum()
    loss.backward()
    print("with zero_grad, step", step, w.grad)
    opt.step()
    print("w:", w)
