# torch.Size and dtype objects.
import torch

s = torch.zeros(2, 3).shape
print(s, repr(s), str(s))
print(s[0], s[-1], s[1:], len(s), s == torch.Size([2, 3]), s == (2, 3), list(s))
print(torch.zeros(()).shape, torch.zeros(5).shape)
print(isinstance(s, tuple))
for dt in [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.float16, torch.uint8]:
    print(dt, str(dt), dt.is_floating_point)
print(torch.float == torch.float32, torch.double == torch.float64, torch.long == torch.int64, torch.int == torch.int32)
print(torch.get_default_dtype())
print(torch.zeros(1).dtype is torch.float32)
