# Source: the examples in the docstrings of PyTorch 2.13's torch.nn.init (torch/nn/init.py), in
#   the order of the reference page "torch.nn.init", and of nn.Module's apply, modules,
#   named_modules and to (torch/nn/modules/module.py), as the reference page "Module" shows them.
# Edits: torch.manual_seed(0) added (the examples draw unseeded); each initialised tensor is
#   printed (the docstrings show no values); dirac_'s 4-d results are printed as the positions of
#   their ones (`w.nonzero().tolist()`); Module.to's examples that need CUDA or complex numbers
#   (cdouble) are left out; trunc_normal_'s example is pytorch_nn_init_trunc_normal.py.
import torch
import torch.nn as nn

torch.manual_seed(0)

print("== calculate_gain")
gain = nn.init.calculate_gain(
    "leaky_relu", 0.2
)  # leaky_relu with negative_slope=0.2
print(gain)

print("== uniform_")
w = torch.empty(3, 5)
print(nn.init.uniform_(w))

print("== normal_")
w = torch.empty(3, 5)
print(nn.init.normal_(w))

print("== constant_")
w = torch.empty(3, 5)
print(nn.init.constant_(w, 0.3))

print("== ones_")
w = torch.empty(3, 5)
print(nn.init.ones_(w))

print("== zeros_")
w = torch.empty(3, 5)
print(nn.init.zeros_(w))

print("== eye_")
w = torch.empty(3, 5)
print(nn.init.eye_(w))

print("== dirac_")
w = torch.empty(3, 16, 5, 5)
nn.init.dirac_(w)
print(w.nonzero().tolist())
w = torch.empty(3, 24, 5, 5)
nn.init.dirac_(w, 3)
print(w.nonzero().tolist())

print("== xavier_uniform_")
w = torch.empty(3, 5)
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))

print("== xavier_normal_")
w = torch.empty(3, 5)
print(nn.init.xavier_normal_(w))

print("== kaiming_uniform_")
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))

print("== kaiming_normal_")
w = torch.empty(3, 5)
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))

print("== orthogonal_")
w = torch.empty(3, 5)
print(nn.init.orthogonal_(w))

print("== sparse_")
w = torch.empty(3, 5)
print(nn.init.sparse_(w, sparsity=0.1))

print("== Module.apply")
@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))

print("== Module.modules")
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)

print("== Module.named_modules")
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)

print("== Module.to")
linear = nn.Linear(2, 2)
print(linear.weight)
print(linear.to(torch.double))
print(linear.weight)
cpu = torch.device("cpu")
print(linear.to(cpu))
print(linear.weight)
