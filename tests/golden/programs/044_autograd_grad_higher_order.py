# create_graph=True: second and third derivatives of x**3 at x = 2.
import torch
import warnings

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(d1,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx:", d1)
print(d1.requires_grad, d1.grad_fn is not None)
(d2,) = torch.autograd.grad(d1, x, create_graph=True)
print("d2y/dx2:", d2)
(d3,) = torch.autograd.grad(d2, x)
print("d3y/dx3:", d3)
print(d3.requires_grad)
print("x.grad still:", x.grad)
# the same second derivative through backward(create_graph=True)
z = x ** 3
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    z.backward(create_graph=True)
for w in caught:
    print(w.category.__name__ + ":", str(w.message).split(" (Triggered internally")[0])
print(x.grad.requires_grad)
g = x.grad
x.grad = None
g.backward()
print("via backward:", x.grad)
# sin: derivatives cycle
t = torch.tensor(0.0, requires_grad=True)
s = torch.sin(t)
(a,) = torch.autograd.grad(s, t, create_graph=True)
(b,) = torch.autograd.grad(a, t, create_graph=True)
(c,) = torch.autograd.grad(b, t)
print(a, b, c)
