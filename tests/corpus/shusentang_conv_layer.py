# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter05_CNN/5.1_conv-layer.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 5.1
#   Two-dimensional convolutional layers: corr2d writing `Y[i, j] = (...).sum()` into a zeros
#   tensor, so that the output's graph goes through its item writes; a Conv2D of Parameters
#   learning an edge detector with `weight.data -= lr * weight.grad` and `grad.fill_(0)`)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); a cell's
#   displayed last expression is printed with print().
import torch
from torch import nn

torch.manual_seed(0)

def corr2d(X, K):  # saved in the d2lzh_pytorch package for later use
    h, w = K.shape
    X, K = X.float(), K.float()
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i: i + h, j: j + w] * K).sum()
    return Y

X = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
K = torch.tensor([[0, 1], [2, 3]])
print(corr2d(X, K))

class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super(Conv2D, self).__init__()
        self.weight = nn.Parameter(torch.randn(kernel_size))
        self.bias = nn.Parameter(torch.randn(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias

X = torch.ones(6, 8)
X[:, 2:6] = 0
print(X)

K = torch.tensor([[1, -1]])

Y = corr2d(X, K)
print(Y)

# a 2-d convolutional layer with a (1, 2) kernel
conv2d = Conv2D(kernel_size=(1, 2))

step = 20
lr = 0.01
for i in range(step):
    Y_hat = conv2d(X)
    l = ((Y_hat - Y) ** 2).sum()
    l.backward()

    # gradient descent
    conv2d.weight.data -= lr * conv2d.weight.grad
    conv2d.bias.data -= lr * conv2d.bias.grad

    # zero the gradients
    conv2d.weight.grad.fill_(0)
    conv2d.bias.grad.fill_(0)
    if (i + 1) % 5 == 0:
        print('Step %d, loss %.3f' % (i + 1, l.item()))

print("weight: ", conv2d.weight.data)
print("bias: ", conv2d.bias.data)
