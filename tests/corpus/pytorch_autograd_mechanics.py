# Source: pytorch/pytorch, docs/source/notes/autograd.rst ("Autograd mechanics", the PyTorch
#   documentation's note): its code examples on requires_grad, saved tensors, grad modes,
#   in-place correctness checks, hooks on saved tensors and the order backward hooks fire in
# Edits: torch.manual_seed(0) added (unseeded); the resnet18 fine-tuning example uses a small
#   nn.Sequential instead (torchvision, a download); the pack/unpack hooks keep tensors in a
#   list instead of temporary files; the threading example runs its train_fn once, in the main
#   thread; snippets the note shows without output print what they compute, and the hook-order
#   and in-place-hook examples get hooks that print their names.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)

x = torch.randn(5, 5)  # requires_grad=False by default
y = torch.randn(5, 5)  # requires_grad=False by default
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)

# freezing all but a new last layer
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
for param in model.parameters():
    param.requires_grad = False
# Replace the last fully-connected layer
# Parameters of newly constructed modules have requires_grad=True by default
model[2] = nn.Linear(8, 2)
# Optimize only the classifier
optimizer = optim.SGD(model[2].parameters(), lr=1e-2, momentum=0.9)
out = model(torch.randn(3, 4)).sum()
out.backward()
print([p.grad is None for p in model.parameters()])
print(out.grad_fn, out.grad_fn.next_functions)
optimizer.step()

# saved tensors
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

# gradients at points where a function is not differentiable
x = torch.tensor([0.0, -1.0, 2.0], requires_grad=True)
torch.relu(x).sum().backward()
print(x.grad)
x = torch.tensor([0.0, 4.0], requires_grad=True)
torch.sqrt(x).sum().backward()
print(x.grad)
x = torch.tensor([-1.0, 0.0], requires_grad=True)
torch.log(x).sum().backward()
print(x.grad)
x = torch.tensor([0.0, 0.0], requires_grad=True)
x.norm().backward()
print(x.grad)
x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
x.abs().sum().backward()
print(x.grad)

# grad modes
x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    y = x * 2
print(y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled())
try:
    (y * x).sum().backward()
except RuntimeError as e:
    print(e)
model.requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
model.requires_grad_()
print([p.requires_grad for p in model.parameters()])
print(model.training, model.eval().training, model.train(False).training)

# in-place correctness checks: the version counter
x = torch.randn(4, requires_grad=True)
y = x.exp()
print(y._version)
y.add_(1)
print(y._version)
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
x = torch.randn(4, requires_grad=True)
y = x.sigmoid()
z = y * 2
y.mul_(2)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)

# the train_fn of the multithreading example
def train_fn():
    x = torch.ones(5, 5, requires_grad=True)
    # forward
    y = (x + 3) * (x + 4) * 0.5
    # backward
    y.sum().backward()
    # potential optimizer update
    return x.grad

print(train_fn())

# hooks for saved tensors
stored = []

def pack_hook(tensor):
    print("pack", tensor.shape)
    stored.append(tensor.clone())
    return len(stored) - 1

def unpack_hook(index):
    print("unpack", index)
    return stored[index]

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self.equal(x))
y.sum().backward()
print(x.grad.equal(2 * x))
try:
    y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
except RuntimeError as e:
    print(e)

with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    a = torch.ones(3, requires_grad=True)
    b = torch.full((3,), 2.0, requires_grad=True)
    c = a * b
c.sum().backward()
print(a.grad, b.grad)

with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    x = torch.randn(5, requires_grad=True)
    y = x * x
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is x)
print(y.grad_fn._saved_self.equal(x))
x = torch.randn(5, requires_grad=True)
y = x * x
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is x)

# the order backward hooks fire in
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
y.register_hook(lambda g: print("tensor hook", g))
y.grad_fn.register_prehook(lambda gout: print("node prehook", gout))
y.grad_fn.register_hook(lambda gin, gout: print("node hook", gin, gout))
y.retain_grad()
y.register_hook(lambda g: print("second tensor hook", g) or g * 2)
z.backward()
print(y.grad, x.grad)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
(g,) = torch.autograd.grad(y.sum(), y)
print(g)

# a tensor hook and an in-place modification
t = torch.tensor(1., requires_grad=True).sin()
t.cos_()
t.register_hook(lambda g: print("after cos_", g))
t.backward()

t = torch.tensor(1., requires_grad=True).sin()
t.register_hook(lambda g: print("before cos_", g))
t.cos_()
t.backward()
