# Source: chenyuntc/pytorch-book, Chapter4/Chapter4.ipynb, sections 4.1-4.2 (Chen Yun's "Deep
#   Learning Framework PyTorch", 2nd edition: a Linear of two Parameters, `x.mm(self.w)` plus
#   `b.expand_as(x)`, a Perceptron of two of them, AvgPool2d of a random integer image, a
#   Linear then BatchNorm1d whose weight and bias are set through `.data`, Dropout, ReLU in
#   place, Sequential three ways, ModuleList and a plain list of layers)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); the cells on
#   the lena image are left out (they read a file and need torchvision and PIL); a cell's
#   displayed last expression is printed with print().
import torch as t
from torch import nn

t.manual_seed(0)

class Linear(nn.Module): # subclasses nn.Module: overrides __init__ and forward
    def __init__(self, in_features, out_features):
        super().__init__() # same as nn.Module.__init__(self)
        # the Parameters are the network's learnable parameters
        self.w = nn.Parameter(t.randn(in_features, out_features))
        self.b = nn.Parameter(t.randn(out_features))

    def forward(self, x):
        x = x.mm(self.w) # matrix product, same as x @ self.w
        return x + self.b.expand_as(x)

layer = Linear(4,3)
input = t.randn(2,4)
output = layer(input)
print(output)

for name, parameter in layer.named_parameters():
    print(name, parameter) # w and b

class Perceptron(nn.Module):
    def __init__(self, in_features, hidden_features, out_features):
        super(Perceptron, self).__init__()
        # the Linear defined above
        self.layer1 = Linear(in_features, hidden_features)
        self.layer2 = Linear(hidden_features, out_features)
    def forward(self, x):
        x = self.layer1(x)
        x = t.sigmoid(x)
        return self.layer2(x)

perceptron = Perceptron(3,4,1)
for name, param in perceptron.named_parameters():
    print(name, param.size())

input = t.randint(10,(1,1,4,4))
print(input)
pool = nn.AvgPool2d(2,2) # average pooling of 2x2 windows, stride the window's size, no padding
print(pool(input))

print(list(pool.parameters())) # a pooling layer has no learnable parameters

# a batch of 2, 3 features
input = t.randn(2, 3)
linear = nn.Linear(3, 4)
h = linear(input)
print(h)

# 4 channels, initialised to a standard deviation of 4 and a mean of 0
bn = nn.BatchNorm1d(4)
bn.weight.data = t.ones(4) * 4
bn.bias.data = t.zeros(4)

bn_out = bn(h)
print(bn_out)
# note the output's mean and variance
print((bn_out.mean(0),bn_out.std(0, unbiased=False)))

# each element dropped with probability 0.5
dropout = nn.Dropout(0.5)
o = dropout(bn_out)
print(o) # about half of them become 0

relu = nn.ReLU(inplace=True)
input = t.randn(2, 3)
print(input)
output = relu(input)
print(output) # the negatives are cut to 0
# same as input.clamp(min=0)

# three ways to write a Sequential
net1 = nn.Sequential()
net1.add_module('conv', nn.Conv2d(3, 3, 3))
net1.add_module('batchnorm', nn.BatchNorm2d(3))
net1.add_module('activation_layer', nn.ReLU())

net2 = nn.Sequential(
        nn.Conv2d(3, 3, 3),
        nn.BatchNorm2d(3),
        nn.ReLU()
        )

from collections import OrderedDict
net3= nn.Sequential(OrderedDict([
          ('conv1', nn.Conv2d(3, 3, 3)),
          ('bn1', nn.BatchNorm2d(3)),
          ('relu1', nn.ReLU())
        ]))
print('net1:', net1)
print('net2:', net2)
print('net3:', net3)

# a submodule by name or index
print((net1.conv, net2[0], net3.conv1))

# the networks called
input = t.rand(1, 3, 4, 4)
output = net1(input)
output = net2(input)
output = net3(input)
output = net3.relu1(net1.batchnorm(net1.conv(input)))

modellist = nn.ModuleList([nn.Linear(3,4), nn.ReLU(), nn.Linear(4,2)])
input = t.randn(1, 3)
for model in modellist:
    input = model(input)
# this would raise: modellist has no forward
# output = modelist(input)

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.list = [nn.Linear(3, 4), nn.ReLU()]
        self.module_list = nn.ModuleList([nn.Conv2d(3, 3, 3), nn.ReLU()])
    def forward(self):
        pass
model = MyModule()
print(model)

for name, param in model.named_parameters():
    print(name, param.size())
