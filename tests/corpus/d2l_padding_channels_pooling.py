# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_convolutional-neural-networks/padding-and-strides.md, channels.md and pooling.md
#   (7.3-7.5: LazyConv2d output shapes with padding and strides, cross-correlation over input
#   and output channels written with `sum(...)` over a zip and `torch.stack`, a 1x1 convolution
#   as a matrix product, pooling written with `Y[i, j] = X[...].max()`, nn.MaxPool2d with
#   padding and strides over one and two channels)
# Edits: torch.manual_seed(0) added (the book is unseeded); the d2l package's helpers are
#   written out as torch's (`d2l.corr2d` as section 7.2 defines it, `d2l.tensor`,
#   `d2l.stack`, `d2l.reshape`, `d2l.matmul`, `d2l.normal`, `d2l.concat`); a cell's displayed
#   last expression is printed; the hand-written poolings are also backpropagated through, so
#   that the gradients of `max` and `mean` through item writes print.
import torch
from torch import nn

torch.manual_seed(0)


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


# We define a helper function to calculate convolutions. It initializes the
# convolutional layer weights and performs corresponding dimensionality
# elevations and reductions on the input and output
def comp_conv2d(conv2d, X):
    # (1, 1) indicates that batch size and the number of channels are both 1
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    # Strip the first two dimensions: examples and channels
    return Y.reshape(Y.shape[2:])

# 1 row and column is padded on either side, so a total of 2 rows or columns
# are added
conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1)
X = torch.rand(size=(8, 8))
print(comp_conv2d(conv2d, X).shape)

conv2d = nn.LazyConv2d(1, kernel_size=(5, 3), padding=(2, 1))
print(comp_conv2d(conv2d, X).shape)

conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1, stride=2)
print(comp_conv2d(conv2d, X).shape)

conv2d = nn.LazyConv2d(1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))
print(comp_conv2d(conv2d, X).shape)
print(conv2d.weight.shape, conv2d.bias.shape)


def corr2d_multi_in(X, K):
    # Iterate through the 0th dimension (channel) of K first, then add them up
    return sum(corr2d(x, k) for x, k in zip(X, K))

X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])

print(corr2d_multi_in(X, K))


def corr2d_multi_in_out(X, K):
    # Iterate through the 0th dimension of K, and each time, perform
    # cross-correlation operations with input X. All of the results are
    # stacked together
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)

K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)

print(corr2d_multi_in_out(X, K))


def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = torch.reshape(X, (c_i, h * w))
    K = torch.reshape(K, (c_o, c_i))
    # Matrix multiplication in the fully connected layer
    Y = torch.matmul(K, X)
    return torch.reshape(Y, (c_o, h, w))

X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
assert float(torch.sum(torch.abs(Y1 - Y2))) < 1e-6
print(Y1.shape, Y2.shape)


def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y

X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)))

print(pool2d(X, (2, 2), 'avg'))

Xg = X.clone().requires_grad_()
Ymax = pool2d(Xg, (2, 2))
print(Ymax)
Ymax.sum().backward()
print(Xg.grad)
Xg.grad = None
pool2d(Xg, (2, 2), 'avg').sum().backward()
print(Xg.grad)

X = torch.reshape(torch.arange(16, dtype=torch.float32), (1, 1, 4, 4))
print(X)

pool2d = nn.MaxPool2d(3)
# Pooling has no model parameters, hence it needs no initialization
print(pool2d(X))

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))

pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d(X))
print(pool2d)

X = torch.cat((X, X + 1), 1)
print(X)

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))

Xg = X.clone().requires_grad_(True)
pool2d(Xg).sum().backward()
print(Xg.grad)
