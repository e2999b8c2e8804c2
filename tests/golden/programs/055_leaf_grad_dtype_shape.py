# .grad has the leaf's shape and dtype, for several shapes.
import torch

for shape in [(), (1,), (3,), (2, 2), (2, 1, 3)]:
    t = torch.ones(shape, requires_grad=True)
    (t * 2).sum().backward()
    print(shape, t.grad.shape, t.grad.dtype, t.grad)
