# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_convolutional-modern/batch-norm.md (8.5, Batch Normalization: `batch_norm` from
#   scratch choosing its mode by `torch.is_grad_enabled()`, moving statistics kept as
#   `moving_mean.data`, a BatchNorm Module holding them as plain tensor attributes, the
#   LeNet with batch normalization and its concise version with nn.LazyBatchNorm2d)
# Edits: torch.manual_seed(0) added (the book is unseeded); d2l's Classifier, Trainer and
#   FashionMNIST are replaced by three SGD steps (lr 0.1, cross entropy) on a seeded random
#   batch of eight 28x28 images, and prediction is a forward pass under `torch.no_grad()`; the
#   scratch layer is also checked against nn.BatchNorm1d and nn.BatchNorm2d on the same
#   inputs, with their gradients; `model.net[1].gamma.reshape((-1,))` is printed as the book
#   displays it, and of the concise model only the weight (its bias after three steps is
#   float32 rounding noise of the convolution's summation order, printed in %e).
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    # Use is_grad_enabled to determine whether we are in training mode
    if not torch.is_grad_enabled():
        # In prediction mode, use mean and variance obtained by moving average
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            # When using a fully connected layer, calculate the mean and
            # variance on the feature dimension
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            # When using a two-dimensional convolutional layer, calculate the
            # mean and variance on the channel dimension (axis=1). Here we
            # need to maintain the shape of X, so that the broadcasting
            # operation can be carried out later
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        # In training mode, the current mean and variance are used
        X_hat = (X - mean) / torch.sqrt(var + eps)
        # Update the mean and variance using moving average
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta  # Scale and shift
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    # num_features: the number of outputs for a fully connected layer or the
    # number of output channels for a convolutional layer. num_dims: 2 for a
    # fully connected layer and 4 for a convolutional layer
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        # The scale parameter and the shift parameter (model parameters) are
        # initialized to 1 and 0, respectively
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        # The variables that are not model parameters are initialized to 0 and
        # 1
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        # If X is not on the main memory, copy moving_mean and moving_var to
        # the device where X is located
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        # Save the updated moving_mean and moving_var
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1)
        return Y


# The scratch layer against PyTorch's on a fully connected and a convolutional input.
X2 = torch.randn(6, 3) * 2 + 1
X2.requires_grad_(True)
mine = BatchNorm(3, num_dims=2)
theirs = nn.BatchNorm1d(3)
Y_mine = mine(X2)
Y_theirs = theirs(X2)
print(Y_mine)
print(torch.allclose(Y_mine, Y_theirs, atol=1e-6))
print(mine.moving_mean, mine.moving_var)
print(theirs.running_mean, theirs.running_var)
(Y_mine * torch.arange(3.)).sum().backward()
print(X2.grad)
print(mine.gamma.grad, mine.beta.grad)
print(mine.moving_mean.requires_grad, mine.moving_mean.grad_fn)
print([name for name, _ in mine.named_parameters()], list(mine.state_dict()))

X4 = torch.rand(2, 3, 4, 4)
mine4 = BatchNorm(3, num_dims=4)
theirs4 = nn.BatchNorm2d(3)
print(torch.allclose(mine4(X4), theirs4(X4), atol=1e-6))
print(mine4.moving_mean.reshape(-1), theirs4.running_mean)
print(mine4.moving_var.reshape(-1), theirs4.running_var)
with torch.no_grad():
    print(torch.is_grad_enabled())
    print(mine4(X4)[0, 0])
theirs4.eval()
print(theirs4(X4)[0, 0])


class BNLeNetScratch(nn.Module):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.LazyConv2d(6, kernel_size=5), BatchNorm(6, num_dims=4),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.LazyConv2d(16, kernel_size=5), BatchNorm(16, num_dims=4),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.Flatten(), nn.LazyLinear(120),
            BatchNorm(120, num_dims=2), nn.Sigmoid(), nn.LazyLinear(84),
            BatchNorm(84, num_dims=2), nn.Sigmoid(),
            nn.LazyLinear(num_classes))

    def forward(self, X):
        return self.net(X)


class BNLeNet(nn.Module):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.LazyConv2d(6, kernel_size=5), nn.LazyBatchNorm2d(),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.LazyConv2d(16, kernel_size=5), nn.LazyBatchNorm2d(),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.Flatten(), nn.LazyLinear(120), nn.LazyBatchNorm1d(),
            nn.Sigmoid(), nn.LazyLinear(84), nn.LazyBatchNorm1d(),
            nn.Sigmoid(), nn.LazyLinear(num_classes))

    def forward(self, X):
        return self.net(X)


images = torch.rand(8, 1, 28, 28)
labels = torch.randint(0, 10, (8,))
for model in (BNLeNetScratch(lr=0.1), BNLeNet(lr=0.1)):
    model(images[:2])  # the lazy layers take their shapes
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f'step {step}, loss {loss:.4f}')
    print(model.net[1])
    with torch.no_grad():
        print(model(images[:2]).argmax(dim=1))
    if isinstance(model.net[1], BatchNorm):
        print(model.net[1].gamma.reshape((-1,)), model.net[1].beta.reshape((-1,)))
    else:
        print(model.net[1].weight.reshape((-1,)))
