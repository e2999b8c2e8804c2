# Source: d2l.ai 2nd edition section 4.1, Multilayer Perceptrons (PyTorch tab): the activation
#   functions ReLU, sigmoid and tanh and their derivatives, computed with backward
# Edits: `from d2l import torch as d2l` and the plots (d2l.plot of each function and each
#   gradient) are left out; what each plot draws is printed instead, every tenth point.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(x[::10])
print(y[::10])

y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[::10])
print(x.grad[78:83])

y = torch.sigmoid(x)
print(y[::10])

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad[::10])

y = torch.tanh(x)
print(y[::10])

# Clear out previous gradients.
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad[::10])
print(x.grad.max(), x.grad.argmax(), x[x.grad.argmax()])
