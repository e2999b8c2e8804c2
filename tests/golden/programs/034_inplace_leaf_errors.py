# In-place operations on a leaf that requires grad are refused, whatever the
# spelling; under torch.no_grad() they are allowed and bump the version.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
attempts = [
    ("x += 1", lambda: x.__iadd__(1)),
    ("x -= 1", lambda: x.__isub__(1)),
    ("x *= 2", lambda: x.__imul__(2)),
    ("x /= 2", lambda: x.__itruediv__(2)),
    ("x.add_(1)", lambda: x.add_(1)),
    ("x.mul_(2)", lambda: x.mul_(2)),
    ("x.zero_()", lambda: x.zero_()),
    ("x.fill_(3)", lambda: x.fill_(3)),
    ("x[0] = 5", lambda: x.__setitem__(0, 5.0)),
    ("x.copy_(t)", lambda: x.copy_(torch.tensor([7.0, 8.0]))),
]
for label, fn in attempts:
    try:
        fn()
        print(label, "ok")
    except RuntimeError as e:
        print(label, "->", type(e).__name__, str(e))
print(x, x._version)
with torch.no_grad():
    x += 1
    print(x._version)
    x[0] = 10.0
    print(x._version)
print(x, x.is_leaf, x.requires_grad, x.grad_fn)
