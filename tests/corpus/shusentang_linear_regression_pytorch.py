# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter03_DL-basics/3.3_linear-regression-pytorch.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 3.3
#   Concise implementation of linear regression: TensorDataset and a shuffling DataLoader with
#   two workers, three ways to build a Sequential, init.normal_/constant_, MSELoss, SGD)
# Edits: torch.__version__ is not printed; np.random.seed(0) added (numpy draws the data,
#   unseeded); the cells that are wholly commented out are left out; a cell's displayed last
#   expression is printed with print().
import torch
from torch import nn
import numpy as np
torch.manual_seed(1)
np.random.seed(0)

torch.set_default_tensor_type('torch.FloatTensor')

num_inputs = 2
num_examples = 1000
true_w = [2, -3.4]
true_b = 4.2
features = torch.tensor(np.random.normal(0, 1, (num_examples, num_inputs)), dtype=torch.float)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.tensor(np.random.normal(0, 0.01, size=labels.size()), dtype=torch.float)

import torch.utils.data as Data

batch_size = 10

# combine the training features and labels
dataset = Data.TensorDataset(features, labels)

# put the dataset in a DataLoader
data_iter = Data.DataLoader(
    dataset=dataset,      # torch TensorDataset format
    batch_size=batch_size,      # mini batch size
    shuffle=True,               # shuffle the data (better)
    num_workers=2,              # read the data with several workers
)

for X, y in data_iter:
    print(X, '\n', y)
    break

class LinearNet(nn.Module):
    def __init__(self, n_feature):
        super(LinearNet, self).__init__()
        self.linear = nn.Linear(n_feature, 1)

    def forward(self, x):
        y = self.linear(x)
        return y

net = LinearNet(num_inputs)
print(net) # print shows the network's structure

# way one
net = nn.Sequential(
    nn.Linear(num_inputs, 1)
    # other layers could go here
    )

# way two
net = nn.Sequential()
net.add_module('linear', nn.Linear(num_inputs, 1))
# net.add_module ......

# way three
from collections import OrderedDict
net = nn.Sequential(OrderedDict([
          ('linear', nn.Linear(num_inputs, 1))
          # ......
        ]))

print(net)
print(net[0])

for param in net.parameters():
    print(param)

from torch.nn import init

init.normal_(net[0].weight, mean=0.0, std=0.01)
print(init.constant_(net[0].bias, val=0.0))  # or change bias's data directly: net[0].bias.data.fill_(0)

for param in net.parameters():
    print(param)

loss = nn.MSELoss()

import torch.optim as optim

optimizer = optim.SGD(net.parameters(), lr=0.03)
print(optimizer)

num_epochs = 3
for epoch in range(1, num_epochs + 1):
    for X, y in data_iter:
        output = net(X)
        l = loss(output, y.view(-1, 1))
        optimizer.zero_grad() # zero the gradients, same as net.zero_grad()
        l.backward()
        optimizer.step()
    print('epoch %d, loss: %f' % (epoch, l.item()))

dense = net[0]
print(true_w, dense.weight.data)
print(true_b, dense.bias.data)
