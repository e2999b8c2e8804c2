# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter03_DL-basics/3.2_linear-regression-scratch.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 3.2
#   Linear regression from scratch: minibatches by `index_select` with a LongTensor of shuffled
#   indices, `requires_grad_(requires_grad=True)`, `param.data -= lr * param.grad / batch_size`,
#   `w.grad.data.zero_()`, the loss printed with `%f`)
# Edits: torch.__version__ is not printed; torch.manual_seed(0), np.random.seed(0) and
#   random.seed(0) added (unseeded); the matplotlib and IPython display cells are left out; a
#   cell's displayed last expression is printed with print().
import torch
import numpy as np
import random

torch.manual_seed(0)
np.random.seed(0)
random.seed(0)

num_inputs = 2
num_examples = 1000
true_w = [2, -3.4]
true_b = 4.2
features = torch.randn(num_examples, num_inputs,
                      dtype=torch.float32)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.tensor(np.random.normal(0, 0.01, size=labels.size()),
                       dtype=torch.float32)

print(features[0], labels[0])

# saved in the d2lzh package for later use
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)  # the examples are read in random order
    for i in range(0, num_examples, batch_size):
        j = torch.LongTensor(indices[i: min(i + batch_size, num_examples)]) # the last batch may be short
        yield  features.index_select(0, j), labels.index_select(0, j)

batch_size = 10

for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break

w = torch.tensor(np.random.normal(0, 0.01, (num_inputs, 1)), dtype=torch.float32)
b = torch.zeros(1, dtype=torch.float32)

w.requires_grad_(requires_grad=True)
print(b.requires_grad_(requires_grad=True))

def linreg(X, w, b):  # saved in the d2lzh package for later use
    return torch.mm(X, w) + b

def squared_loss(y_hat, y):  # saved in the d2lzh package for later use
    return (y_hat - y.view(y_hat.size())) ** 2 / 2

def sgd(params, lr, batch_size):  # saved in the d2lzh package for later use
    for param in params:
        param.data -= lr * param.grad / batch_size # note: param changed through param.data

lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss

for epoch in range(num_epochs):  # num_epochs passes over the data
    # each pass uses every example once; X and y are a minibatch's features and labels
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y).sum()  # l is the minibatch's loss
        l.backward()  # the loss's gradients with respect to the parameters
        sgd([w, b], lr, batch_size)  # a minibatch SGD step

        # do not forget to zero the gradients
        w.grad.data.zero_()
        b.grad.data.zero_()
    train_l = loss(net(features, w, b), labels)
    print('epoch %d, loss %f' % (epoch + 1, train_l.mean().item()))

print(true_w, '\n', w)
print(true_b, '\n', b)
