# Which tensors are leaves.
import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([1.0, 2.0])
cases = {
    "created, requires_grad": x,
    "created, no grad": c,
    "op on no-grad tensors": c * 2 + 1,
    "op on grad tensor": x * 2,
    "detach()": (x * 2).detach(),
    "under no_grad": None,
    "clone() of leaf": x.clone(),
    "view of leaf": x.view(2),
    "x.data": x.data,
    "parameter": nn.Parameter(torch.ones(2)),
}
with torch.no_grad():
    cases["under no_grad"] = x * 2
for name, t in cases.items():
    print(f"{name}: is_leaf={t.is_leaf} requires_grad={t.requires_grad} grad_fn={None if t.grad_fn is None else t.grad_fn.name()}")
