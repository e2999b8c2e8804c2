# Source: d2l.ai 2nd edition section 4.2, Implementation of Multilayer Perceptrons from Scratch
#   (PyTorch tab)
# Edits: Fashion-MNIST (a download) is replaced by 90 synthetic examples of 12 features in 3
#   classes, drawn with torch.manual_seed(0) (added), in batches of 30 (num_inputs 12,
#   num_outputs 3, num_hiddens 16); d2l.train_ch3 and d2l.predict_ch3 are written out as in
#   section 3.6, printing each epoch's metrics instead of plotting them; 5 epochs instead of 10.
import torch
from torch import nn

torch.manual_seed(0)
centres = torch.randn(3, 12) * 2
labels = torch.arange(90) % 3
features = centres[labels] + torch.randn(90, 12)
batch_size = 30
train_iter = [(features[i:i + batch_size], labels[i:i + batch_size])
              for i in range(0, 90, batch_size)]
test_iter = train_iter

num_inputs, num_outputs, num_hiddens = 12, 3, 16

W1 = nn.Parameter(torch.randn(
    num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(
    num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))

params = [W1, b1, W2, b2]
print(W1.shape, W1.requires_grad, W1.is_leaf, W1.grad_fn, type(W1).__name__)

def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)

print(relu(torch.tensor([[-1.0, 0.0, 2.0]])))

def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)  # Here '@' stands for matrix multiplication
    return (H@W2 + b2)

loss = nn.CrossEntropyLoss(reduction='none')

class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]

def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

def evaluate_accuracy(net, data_iter):
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]

def train_epoch_ch3(net, train_iter, loss, updater):
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]

def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(f'epoch {epoch + 1}, loss {train_metrics[0]:.4f}, '
              f'train acc {train_metrics[1]:.3f}, test acc {test_acc:.3f}')

num_epochs, lr = 5, 0.1
updater = torch.optim.SGD(params, lr=lr)
train_ch3(net, train_iter, test_iter, loss, num_epochs, updater)

print(W2.grad)
print(b1.grad)
X, y = train_iter[0]
print(y[:6].tolist(), net(X).argmax(axis=1)[:6].tolist())
print(loss(net(X[:2]), y[:2]))
