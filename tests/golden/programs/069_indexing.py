# Indexing: int, slice, None, bool mask, integer-tensor index, and their gradients.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
cases = [
    ("x[1]", lambda: x[1]),
    ("x[-1, 2]", lambda: x[-1, 2]),
    ("x[0:2]", lambda: x[0:2]),
    ("x[:, 1]", lambda: x[:, 1]),
    ("x[::2, 1:]", lambda: x[::2, 1:]),
    ("x[None]", lambda: x[None]),
    ("x[:, None, 0]", lambda: x[:, None, 0]),
    ("x[..., 0]", lambda: x[..., 0]),
    ("x[x > 4]", lambda: x[x > 4]),
    ("x[idx]", lambda: x[torch.tensor([2, 0])]),
    ("x[dup]", lambda: x[torch.tensor([0, 0, 1])]),
    ("x[rows, cols]", lambda: x[torch.tensor([0, 2]), torch.tensor([1, 1])]),
    ("x[[0, 1]]", lambda: x[[0, 1]]),
]
for label, fn in cases:
    x.grad = None
    out = fn()
    out.sum().backward()
    print(f"{label}: {out.detach()} shape={out.shape} {out.grad_fn.name()}")
    print(x.grad)
mask = x > 4
print(mask)
print(x[0][1], x[0][1].item())
try:
    x[3]
except IndexError as e:
    print(type(e).__name__, str(e))
