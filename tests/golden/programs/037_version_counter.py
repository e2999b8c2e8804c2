# _version counts in-place changes; detach() shares it, .data does not.
import torch

t = torch.tensor([1.0, 2.0, 3.0])
print(t._version)
t.add_(1)
t.mul_(2)
print(t._version)
t[0] = 0.0
print(t._version)
t.zero_()
t.fill_(1.5)
print(t._version)
t += 1
print(t._version)
u = t + 1  # out of place: new tensor, version 0
print(u._version, t._version)

d = t.detach()
d.add_(1)
print("after detach().add_:", t._version, d._version, t)
dd = t.data
dd.add_(1)
print("after data.add_:", t._version, dd._version, t)
v = t.view(3)
v.mul_(2)
print("after view().mul_:", t._version, v._version)
c = t.clone()
c.add_(1)
print("after clone().add_:", t._version, c._version)
