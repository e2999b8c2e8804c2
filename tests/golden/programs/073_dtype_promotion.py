# Type promotion rules for mixed dtypes.
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
d0 = torch.tensor(2.0, dtype=torch.float64)
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
b = torch.tensor([True, False, True])
print(torch.tensor(3).dtype, torch.tensor(3.0).dtype, torch.tensor([1, 2.0]).dtype, torch.tensor(True).dtype)
cases = [
    ("int * float", lambda: i * f),
    ("int * 2.5", lambda: i * 2.5),
    ("int + 1", lambda: i + 1),
    ("int / int", lambda: i / i),
    ("int / 2", lambda: i / 2),
    ("float32 * float64 0-d", lambda: f * d0),
    ("float32 * float64 1-d", lambda: f * d),
    ("int * float64 0-d", lambda: i * d0),
    ("int32 + int64", lambda: i32 + i),
    ("int32 * 2", lambda: i32 * 2),
    ("int32 * 2.0", lambda: i32 * 2.0),
    ("bool + bool", lambda: b + b),
    ("bool * 2", lambda: b * 2),
    ("bool * int", lambda: b * i),
    ("bool * 1.5", lambda: b * 1.5),
    ("float64 ** 2", lambda: d ** 2),
    ("int ** 2", lambda: i ** 2),
    ("2 ** int", lambda: 2 ** i),
    ("int ** 0.5", lambda: i ** 0.5),
    ("int > float", lambda: i > f),
]
for label, fn in cases:
    out = fn()
    print(f"{label}: {out} {out.dtype}")
print(i.float().dtype, i.double().dtype, f.long(), f.int().dtype, f.to(torch.float64).dtype, i.to(torch.float32))
print(f.type(torch.int64), i.dtype == torch.int64, i.is_floating_point(), f.is_floating_point())
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * torch.tensor(2.0, dtype=torch.float64)
print(y, y.dtype)
y.sum().backward()
print(x.grad, x.grad.dtype)
x.grad = None
z = x.double() * 3
print(z)
z.sum().backward()
print(x.grad, x.grad.dtype)
