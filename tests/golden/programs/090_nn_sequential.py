# nn.Sequential with Linear, ReLU and Tanh; parameter names; a backward pass.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1), nn.Tanh())
print(model)
print([name for name, _ in model.named_parameters()])
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]]))
    model[0].bias.copy_(torch.tensor([0.0, -1.0, 0.5]))
    model[2].weight.copy_(torch.tensor([[0.5, -0.25, 0.125]]))
    model[2].bias.fill_(0.0)
x = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
y = model(x)
print(y)
y.sum().backward()
for name, p in model.named_parameters():
    print(name, p.grad)
print(len(list(model.parameters())), len(model))
print(nn.ReLU()(torch.tensor([-1.0, 2.0])), nn.Tanh()(torch.tensor([0.0])))
