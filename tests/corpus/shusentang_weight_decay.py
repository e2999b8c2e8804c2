# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter03_DL-basics/3.12_weight-decay.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 3.12
#   Weight decay: an L2 penalty added by hand to the loss, with `w.grad.data.zero_()` once
#   `w.grad is not None`, then SGD's `weight_decay` on the weight only, two optimizers each
#   zeroed and stepped; 20 examples of 200 features)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) and np.random.seed(0) added
#   (unseeded); the three functions it takes from the book's d2lzh_pytorch package (linreg,
#   squared_loss, sgd) are written out as that package defines them; the plots of the losses
#   (d2l.semilogy) are left out: the last epoch's train and test losses are printed instead.
import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(0)
np.random.seed(0)


class d2l:  # the d2lzh_pytorch functions used here
    @staticmethod
    def linreg(X, w, b):
        return torch.mm(X, w) + b

    @staticmethod
    def squared_loss(y_hat, y):
        # note: returns a vector; the loss in PyTorch's MSELoss is not divided by 2
        return ((y_hat - y.view(y_hat.size())) ** 2) / 2

    @staticmethod
    def sgd(params, lr, batch_size):
        for param in params:
            param.data -= lr * param.grad / batch_size # param changed through param.data


n_train, n_test, num_inputs = 20, 100, 200
true_w, true_b = torch.ones(num_inputs, 1) * 0.01, 0.05

features = torch.randn((n_train + n_test, num_inputs))
labels = torch.matmul(features, true_w) + true_b
labels += torch.tensor(np.random.normal(0, 0.01, size=labels.size()), dtype=torch.float)
train_features, test_features = features[:n_train, :], features[n_train:, :]
train_labels, test_labels = labels[:n_train], labels[n_train:]

def init_params():
    w = torch.randn((num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]

def l2_penalty(w):
    return (w**2).sum() / 2

batch_size, num_epochs, lr = 1, 100, 0.003
net, loss = d2l.linreg, d2l.squared_loss

dataset = torch.utils.data.TensorDataset(train_features, train_labels)
train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)

def fit_and_plot(lambd):
    w, b = init_params()
    train_ls, test_ls = [], []
    for _ in range(num_epochs):
        for X, y in train_iter:
            # the L2 penalty added
            l = loss(net(X, w, b), y) + lambd * l2_penalty(w)
            l = l.sum()

            if w.grad is not None:
                w.grad.data.zero_()
                b.grad.data.zero_()
            l.backward()
            d2l.sgd([w, b], lr, batch_size)
        train_ls.append(loss(net(train_features, w, b), train_labels).mean().item())
        test_ls.append(loss(net(test_features, w, b), test_labels).mean().item())
    print('final epoch: train loss', train_ls[-1], 'test loss', test_ls[-1])
    print('L2 norm of w:', w.norm().item())

fit_and_plot(lambd=0)

fit_and_plot(lambd=3)

def fit_and_plot_pytorch(wd):
    # decay the weight only: its name ends in weight
    net = nn.Linear(num_inputs, 1)
    nn.init.normal_(net.weight, mean=0, std=1)
    nn.init.normal_(net.bias, mean=0, std=1)
    optimizer_w = torch.optim.SGD(params=[net.weight], lr=lr, weight_decay=wd) # decays the weight
    optimizer_b = torch.optim.SGD(params=[net.bias], lr=lr)  # not the bias

    train_ls, test_ls = [], []
    for _ in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X), y).mean()
            optimizer_w.zero_grad()
            optimizer_b.zero_grad()

            l.backward()

            # each optimizer steps on its own: the weight, then the bias
            optimizer_w.step()
            optimizer_b.step()
        train_ls.append(loss(net(train_features), train_labels).mean().item())
        test_ls.append(loss(net(test_features), test_labels).mean().item())
    print('final epoch: train loss', train_ls[-1], 'test loss', test_ls[-1])
    print('L2 norm of w:', net.weight.data.norm().item())

fit_and_plot_pytorch(0)

fit_and_plot_pytorch(3)
