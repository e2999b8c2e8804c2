# Source: Atcold/NYU-DLSP20, 03-autograd_tutorial.ipynb (NYU Deep Learning, Spring 2020)
# Edits: PyTorch seeds its generator differently on every run, so torch.manual_seed(0) is added
#   after the imports;
#   the notebook's cells in order; a cell's displayed last expression is printed with
#   print(); the two cells that end in an error (backward through integer tensors and under
#   no_grad) run inside try/except that prints the error as Python would show its last line.
import torch

torch.manual_seed(0)

x = torch.tensor([[1, 2], [3, 4]], requires_grad=True, dtype=torch.float32)
print(x)

y = x - 2
print(y)

print(y.grad_fn)

print(x.grad_fn)

print(y.grad_fn)

print(y.grad_fn.next_functions[0][0])

print(y.grad_fn.next_functions[0][0].variable)

z = y * y * 3
out = z.mean()

print(z, out)

out.backward()

print(x.grad)

# Dynamic graphs!
x = torch.randn(3, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)

gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)

print(x.grad)

n = 3

try:
    x = torch.arange(1, n + 1, requires_grad=True)
    w = torch.ones(n, requires_grad=True)
    z = w @ x
    z.backward()
    print(x.grad, w.grad, sep='\n')
except Exception as error:
    print(f"{type(error).__name__}: {error}")

try:
    x = torch.arange(1, n + 1)
    w = torch.ones(n, requires_grad=True)
    z = w @ x
    z.backward()
    print(x.grad, w.grad, sep='\n')
except Exception as error:
    print(f"{type(error).__name__}: {error}")

try:
    with torch.no_grad():
        x = torch.arange(1, n + 1)
        w = torch.ones(n, requires_grad=True)
        z = w @ x
        z.backward()
        print(x.grad, w.grad, sep='\n')
except Exception as error:
    print(f"{type(error).__name__}: {error}")
