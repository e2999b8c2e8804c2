# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_computer-vision/transposed-conv.md (14.10, Transposed Convolution: `trans_conv`
#   writing `Y[i: i + h, j: j + w] += X[i, j] * K`, nn.ConvTranspose2d whose weight is set by
#   `tconv.weight.data = K`, with padding and stride, shapes back through a Conv2d, the
#   convolution as a matrix built by slice writes, `==` against matmul)
# Edits: torch.manual_seed(0) added (the book is unseeded); the d2l package's helpers are
#   written out as torch's (`d2l.zeros`, `d2l.tensor`, `d2l.arange`, `d2l.matmul`,
#   `d2l.reshape`, and `d2l.corr2d` as section 7.2 defines it); a cell's displayed last
#   expression is printed; a backward through `trans_conv` and through the ConvTranspose2d is
#   added, so that the gradients of the item and slice writes print.
import torch
from torch import nn


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


torch.manual_seed(0)


def trans_conv(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] + h - 1, X.shape[1] + w - 1))
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            Y[i: i + h, j: j + w] += X[i, j] * K
    return Y

X = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(trans_conv(X, K))

Xg = X.clone().requires_grad_()
Kg = K.clone().requires_grad_()
Y = trans_conv(Xg, Kg)
print(Y)
(Y * torch.arange(9.).reshape(3, 3)).sum().backward()
print(Xg.grad, Kg.grad, sep='\n')

X, K = X.reshape(1, 1, 2, 2), K.reshape(1, 1, 2, 2)
tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, bias=False)
tconv.weight.data = K
print(tconv(X))
print(tconv.weight.requires_grad, type(tconv.weight).__name__)

tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, padding=1, bias=False)
tconv.weight.data = K
print(tconv(X))

tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, stride=2, bias=False)
tconv.weight.data = K
out = tconv(X)
print(out)
out.sum().backward()
print(tconv.weight.grad)
print(K.grad)

X = torch.rand(size=(1, 10, 16, 16))
conv = nn.Conv2d(10, 20, kernel_size=5, padding=2, stride=3)
tconv = nn.ConvTranspose2d(20, 10, kernel_size=5, padding=2, stride=3)
print(tconv(conv(X)).shape == X.shape)
print(tconv)

X = torch.arange(9.0).reshape(3, 3)
K = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
Y = corr2d(X, K)
print(Y)


def kernel2matrix(K):
    k, W = torch.zeros(5), torch.zeros((4, 9))
    k[:2], k[3:5] = K[0, :], K[1, :]
    W[0, :5], W[1, 1:6], W[2, 3:8], W[3, 4:] = k, k, k, k
    return W

W = kernel2matrix(K)
print(W)

print(Y == torch.matmul(W, torch.reshape(X, (-1,))).reshape(2, 2))

Z = trans_conv(Y, K)
print(Z == torch.matmul(W.T, torch.reshape(Y, (-1,))).reshape(3, 3))

Kg = K.clone().requires_grad_(True)
Wg = kernel2matrix(Kg)
print(Wg.grad_fn.name())
Wg.sum().backward()
print(Kg.grad)
