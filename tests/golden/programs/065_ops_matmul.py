# mm, mv, dot, matmul and @, including batched 3-D @ 2-D.
import torch


def edges(t):
    return [(f.name() if f is not None else None, i) for f, i in t.grad_fn.next_functions]


A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
B = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]], requires_grad=True)
v = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
u = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)

C = A.mm(B)
print(C, C.shape)
C.sum().backward()
print(A.grad, B.grad)

A.grad = None
mv = torch.mv(A, v)
print(mv)
mv.sum().backward()
print(A.grad, v.grad)

v.grad = None
d = torch.dot(v, u)
print(d)
d.backward()
print(v.grad, u.grad)

A.grad = None
B.grad = None
m = A @ B
print(m.grad_fn.name(), torch.matmul(A, B).grad_fn.name())
print((A @ v).grad_fn.name(), (v @ u).grad_fn.name(), (v @ B).shape)

batch = torch.tensor([[[1.0, 2.0, 3.0]], [[0.0, 1.0, 0.0]]], requires_grad=True)  # (2, 1, 3)
out = batch @ B
print(out, out.shape, out.grad_fn.name(), edges(out))
(out * torch.tensor([1.0, 2.0])).sum().backward()
print(batch.grad)
print(B.grad)
I = torch.tensor([[1, 2], [3, 4]])
print(I @ I)
