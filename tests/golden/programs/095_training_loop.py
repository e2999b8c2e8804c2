# A tiny training loop: Linear + MSELoss + SGD on fixed data.
import torch
import torch.nn as nn

model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.0)
    model.bias.fill_(0.0)
xs = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
ys = torch.tensor([[3.0], [5.0], [7.0], [9.0]])
opt = torch.optim.SGD(model.parameters(), lr=0.03125)
loss_fn = nn.MSELoss()
for epoch in range(5):
    opt.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} w {model.weight.item():.4f} b {model.bias.item():.4f}")
print(model.weight.grad, model.bias.grad)
opt.zero_grad()
print(model.weight.grad, model.bias.grad)
