# Gradients at kinks and edges: relu and abs at 0 (and -0), sqrt and log at 0.
import torch

z = torch.tensor([0.0, -0.0, 1.0], requires_grad=True)
torch.relu(z).sum().backward()
print("relu:", z.grad)
z.grad = None
z.abs().sum().backward()
print("abs:", z.grad)
s = torch.tensor([0.0, 4.0], requires_grad=True)
s.sqrt().sum().backward()
print("sqrt:", s.grad)
l = torch.tensor([0.0, 1.0], requires_grad=True)
l.log().sum().backward()
print("log:", l.grad)
