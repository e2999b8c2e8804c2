# Seed 001: y = w * x + b; every leaf that requires grad gets its partial
# derivative, a tensor created with requires_grad=False keeps .grad None.
import torch

inp = torch.tensor(2.0, requires_grad=True)
weight = torch.tensor(3.0, requires_grad=True)
bias = torch.tensor(1.0, requires_grad=True)
out = weight * inp + bias
print("out:", out)
out.backward()
print(f"d out / d inp = {inp.grad}")
print(f"d out / d weight = {weight.grad}")
print(f"d out / d bias = {bias.grad}")
const = torch.tensor(4.0, requires_grad=False)
print(f"const.grad = {const.grad}")
print("const.requires_grad:", const.requires_grad, "const.is_leaf:", const.is_leaf)
print("grad values as floats:", inp.grad.item(), weight.grad.item(), bias.grad.item())
