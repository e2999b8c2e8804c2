# Manual parameter updates with in-place ops under no_grad keep leaves leaves.
import torch

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
x = torch.tensor([2.0, 1.0, 0.5])
for step in range(3):
    loss = ((w * x).sum() + b - 1.0) ** 2
    loss.backward()
    print(f"step {step} loss {loss.item():.4f} w.grad {w.grad} b.grad {b.grad.item():.4f}")
    with torch.no_grad():
        w -= 0.125 * w.grad
        b.sub_(0.125 * b.grad)
    w.grad.zero_()
    b.grad.zero_()
print(w, b)
print(w.is_leaf, w.requires_grad, w.grad_fn, w._version, b._version)
with torch.no_grad():
    w.add_(1)
    w.mul_(2)
    w.sub_(torch.tensor([1.0, 1.0, 1.0]))
    w.div_(4)
    w += 1
    w *= 2
    w /= 2
    w -= 1
print(w, w._version)
