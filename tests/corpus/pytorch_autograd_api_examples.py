# Source: the examples in the docstrings of PyTorch 2.13's autograd API, as the reference pages
#   "Automatic differentiation package - torch.autograd" and "torch.Tensor" show them
#   (torch/autograd/grad_mode.py: no_grad, enable_grad, set_grad_enabled, inference_mode;
#   torch/_tensor.py: register_hook, register_post_accumulate_grad_hook;
#   torch/_tensor_docs.py: requires_grad_, is_leaf; torch/autograd/graph.py: Node.name,
#   Node.register_hook, Node.register_prehook, saved_tensors_hooks, save_on_cpu,
#   disable_saved_tensors_hooks, register_multi_grad_hook;
#   torch/autograd/function.py: Function, mark_dirty, mark_non_differentiable,
#   set_materialize_grads, save_for_backward; torch/autograd/anomaly_mode.py: detect_anomaly)
# Edits: each `>>> expression` whose value the docstring shows is printed; a statement the
#   docstring shows raising (or says raises) runs in try/except that prints the error's type
#   and message; the examples that need CUDA run on the CPU (save_on_cpu's tensors) or are
#   left out (is_leaf's b, d, e and f); requires_grad_'s `preprocess` ("some function") is
#   `torch.randn_like` after torch.manual_seed(0); the Exp Function is applied to a tensor the
#   docstring leaves unnamed (`input`), and the Functions of save_for_backward,
#   set_materialize_grads and mark_non_differentiable are run through a backward (the
#   docstrings stop at apply); detect_anomaly's traceback of the forward call (file paths and
#   line numbers) is not printed: the warning it gives is filtered out, and the error printed.
#   allow_mutation_on_saved_tensors's example waits in waiting/pytorch_autograd_allow_mutation.py.
import warnings

import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

torch.manual_seed(0)

print("== no_grad")
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.no_grad()
def tripler(x):
    return x * 3
z = tripler(x)
print(z.requires_grad)
# factory function exception
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)

print("== enable_grad")
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad)

print("== set_grad_enabled")
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)

print("== inference_mode")
x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
try:
    y._version
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")
@torch.inference_mode()
def func(x):
    return x * x
out = func(x)
print(out.requires_grad)
@torch.inference_mode()
def doubler(x):
    return x * 2
out = doubler(x)
print(out.requires_grad)

print("== Tensor.register_hook")
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()  # removes the hook

print("== Tensor.register_post_accumulate_grad_hook")
v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)
h.remove()  # removes the hook

print("== Tensor.requires_grad_")
# Let's say we want to preprocess some saved weights and use
# the result as new weights.
preprocess = torch.randn_like
saved_weights = [0.1, 0.2, 0.3, 0.25]
loaded_weights = torch.tensor(saved_weights)
weights = preprocess(loaded_weights)  # some function
print(weights)
# Now, start to record operations done to weights
weights.requires_grad_()
out = weights.pow(2).sum()
out.backward()
print(weights.grad)

print("== Tensor.is_leaf")
a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
# c was created by the addition operation

print("== Function")
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

# Use it by calling the apply method:
input = torch.tensor([0., 1., 2.], requires_grad=True)
output = Exp.apply(input)
print(output)
output.sum().backward()
print(input.grad)

print("== Node.name")
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
print(b.grad_fn.name())

print("== Node.register_hook")
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove() # Removes the hook
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

print("== Node.register_prehook")
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

print("== saved_tensors_hooks")
def pack_hook(x):
    print("Packing", x)
    return x.detach()

def unpack_hook(x):
    print("Unpacking", x)
    return x

a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()

print("== save_on_cpu")
a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
c = torch.randn(5, requires_grad=True)

def f(a, b, c):
    prod_1 = a * b           # a and b are saved on GPU
    with torch.autograd.graph.save_on_cpu():
        prod_2 = prod_1 * c  # prod_1 and c are saved on CPU
    y = prod_2 * a           # prod_2 and a are saved on GPU
    return y

y = f(a, b, c)
leaves = a, b, c
del a, b, c  # for illustration only
y.sum().backward()  # all CPU tensors are moved back to GPU, for backward
print([leaf.grad for leaf in leaves])

print("== disable_saved_tensors_hooks")
message = "saved tensors default hooks are disabled"
try:
    with torch.autograd.graph.disable_saved_tensors_hooks(message):
        # Raises RuntimeError: saved tensors default hooks are disabled
        with torch.autograd.graph.save_on_cpu():
            pass
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")

print("== register_multi_grad_hook")
a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def fn(grads):
    print([g is not None for g in grads])

torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)

print("== FunctionCtx.mark_dirty")
class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy() # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output

a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
print(Inplace.apply(a))  # This would lead to wrong gradients!
                  # but the engine would not know unless we mark_dirty
try:
    b.backward() # RuntimeError: one of the variables needed for gradient
                 # computation has been modified by an inplace operation
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")

print("== FunctionCtx.mark_non_differentiable")
class Func(Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input

x = torch.tensor([3., 1., 2.], requires_grad=True)
sorted, idx = Func.apply(x)
print(sorted, idx, idx.requires_grad)
(sorted * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)

print("== FunctionCtx.set_materialize_grads")
class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        return g1 + g2  # No check for None necessary

# We modify SimpleFunc to handle non-materialized grad outputs
class Func(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input

a = torch.tensor(1., requires_grad=True)
b, _ = Func.apply(a)  # induces g2 to be undefined
b.backward()
print(a.grad)
a.grad = None
b, _ = SimpleFunc.apply(a)
b.backward()
print(a.grad)

print("== FunctionCtx.save_for_backward")
class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz

a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = Func.apply(a, b, c)
print(d)
d.backward()
print(a.grad, b.grad)

print("== detect_anomaly")
from torch import autograd
class MyFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        # Error during the backward pass
        raise RuntimeError("Some error in backward")
        return gO.clone()
def run_fn(a):
    out = MyFunc.apply(a)
    return out.sum()
inp = torch.rand(10, 10, requires_grad=True)
out = run_fn(inp)
try:
    out.backward()
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Error detected in")
    try:
        with autograd.detect_anomaly():
            inp = torch.rand(10, 10, requires_grad=True)
            out = run_fn(inp)
            out.backward()
    except RuntimeError as e:
        print(f"{type(e).__name__}: {e}")
