# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_attention-mechanisms-and-transformers/attention-pooling.md (11.2, Attention Pooling
#   by Similarity: Gaussian, boxcar, constant and Epanechikov kernels, Nadaraya-Watson
#   regression as attention weights normalised over the keys, Gaussian kernels of four widths)
# Edits: torch.manual_seed(0) added (the book is unseeded); the d2l package's helpers are
#   written out as torch's (`d2l.exp`, `d2l.abs`, `d2l.arange`, `d2l.sin`, `d2l.rand`,
#   `d2l.randn`, `d2l.reshape`, `d2l.astype`, `d2l.reduce_sum`); where the book plots, the
#   values are printed: each kernel at 11 points, and for each kernel its estimate at 10
#   validation points and its attention weights' row sums and largest weights.
import torch
from torch import nn
from torch.nn import functional as F
import numpy as np

torch.manual_seed(0)

# Define some kernels
def gaussian(x):
    return torch.exp(-x**2 / 2)

def boxcar(x):
    return torch.abs(x) < 1.0

def constant(x):
    return 1.0 + 0 * x

def epanechikov(x):
    return torch.max(1 - torch.abs(x), torch.zeros_like(x))

kernels = (gaussian, boxcar, constant, epanechikov)
names = ('Gaussian', 'Boxcar', 'Constant', 'Epanechikov')
x = torch.arange(-2.5, 2.5, 0.1)
for kernel, name in zip(kernels, names):
    print(name, kernel(x)[::5])

def f(x):
    return 2 * torch.sin(x) + x

n = 40
x_train, _ = torch.sort(torch.rand(n) * 5)
y_train = f(x_train) + torch.randn(n)
x_val = torch.arange(0, 5, 0.1)
y_val = f(x_val)

def nadaraya_watson(x_train, y_train, x_val, kernel):
    dists = torch.reshape(x_train, (-1, 1)) - torch.reshape(x_val, (1, -1))
    # Each column/row corresponds to each query/key
    k = kernel(dists).type(torch.float32)
    # Normalization over keys for each query
    attention_w = k / torch.sum(k, 0)
    y_hat = y_train@attention_w
    return y_hat, attention_w

def plot(x_train, y_train, x_val, y_val, kernels, names, attention=False):
    for kernel, name in zip(kernels, names):
        y_hat, attention_w = nadaraya_watson(x_train, y_train, x_val, kernel)
        if attention:
            print(name, attention_w.shape, attention_w.sum(0)[::10], attention_w.max(0).values[::10])
        else:
            print(name, y_hat[::5])
    print('y', y_val[::5])

plot(x_train, y_train, x_val, y_val, kernels, names)

plot(x_train, y_train, x_val, y_val, kernels, names, attention=True)

sigmas = (0.1, 0.2, 0.5, 1)
names = ['Sigma ' + str(sigma) for sigma in sigmas]

def gaussian_with_width(sigma):
    return (lambda x: torch.exp(-x**2 / (2*sigma**2)))

kernels = [gaussian_with_width(sigma) for sigma in sigmas]
plot(x_train, y_train, x_val, y_val, kernels, names)

plot(x_train, y_train, x_val, y_val, kernels, names, attention=True)
