# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_multilayer-perceptrons/numerical-stability-and-init.md (5.4, Numerical Stability and
#   Initialization: the sigmoid's vanishing gradient, a product of 100 random 4x4 matrices) and
#   chapter_multilayer-perceptrons/dropout.md (5.6, Dropout: dropout_layer from scratch)
# Edits: the cells that run without the d2l package's training framework and FashionMNIST (the
#   Trainer cells of 5.6 are left out); where 5.4 plots the sigmoid and its gradient, both are
#   printed; torch.manual_seed(0) added (the book is unseeded).
# Waited until minigrad's float32 sigmoid took PyTorch's vectorised exp (SLEEF's,
#   fidelity.vector_math.sleef_expf): numpy prints the whole array with one more digit when any
#   value needs it, so one last-bit difference among the 160 sigmoids changed every line.
import torch

torch.manual_seed(0)

# -- 5.4
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

print(y.detach().numpy())
print(x.grad.numpy())

M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n',M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M)

# -- 5.6
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)

X = torch.arange(16, dtype = torch.float32).reshape((2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))
