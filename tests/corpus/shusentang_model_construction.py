# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter04_DL_computation/4.1_model-construction.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 4.1
#   Model construction: a Module subclass, a Sequential written by hand over `_modules`,
#   ModuleList and ModuleDict (which have no forward), a plain list of layers that registers
#   no parameters, a FancyMLP with a constant weight, `x /= 2` in a while loop and `.norm().item()`)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); a cell's
#   displayed last expression is printed with print(); the lines commented out because they
#   raise NotImplementedError run inside try/except that prints the error as Python shows its
#   last line.
import torch
from torch import nn

torch.manual_seed(0)

class MLP(nn.Module):
    # the layers with parameters: two fully connected layers
    def __init__(self, **kwargs):
        # the parent's constructor does the necessary initialisation
        super(MLP, self).__init__(**kwargs)
        self.hidden = nn.Linear(784, 256) # hidden layer
        self.act = nn.ReLU()
        self.output = nn.Linear(256, 10)  # output layer


    # the forward computation: the model's output from x
    def forward(self, x):
        a = self.act(self.hidden(x))
        return self.output(a)

X = torch.rand(2, 784)
net = MLP()
print(net)
print(net(X))

class MySequential(nn.Module):
    from collections import OrderedDict
    def __init__(self, *args):
        super(MySequential, self).__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict): # an OrderedDict was passed
            for key, module in args[0].items():
                self.add_module(key, module)  # add_module puts module in self._modules (an OrderedDict)
        else:  # some Modules were passed
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)
    def forward(self, input):
        # self._modules is an OrderedDict: the members in the order they were added
        for module in self._modules.values():
            input = module(input)
        return input

net = MySequential(
        nn.Linear(784, 256),
        nn.ReLU(),
        nn.Linear(256, 10),
        )
print(net)
print(net(X))

net = nn.ModuleList([nn.Linear(784, 256), nn.ReLU()])
net.append(nn.Linear(256, 10)) # # like a list's append
print(net[-1])  # like a list's indexing
print(net)

try:
    net(torch.zeros(1, 784)) # raises NotImplementedError
except NotImplementedError as error:
    print(f"NotImplementedError: {error}")

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linears = nn.ModuleList([nn.Linear(10, 10) for i in range(10)])

    def forward(self, x):
        # ModuleList can act as an iterable, or be indexed using ints
        for i, l in enumerate(self.linears):
            x = self.linears[i // 2](x) + l(x)
        return x

class Module_ModuleList(nn.Module):
    def __init__(self):
        super(Module_ModuleList, self).__init__()
        self.linears = nn.ModuleList([nn.Linear(10, 10)])

class Module_List(nn.Module):
    def __init__(self):
        super(Module_List, self).__init__()
        self.linears = [nn.Linear(10, 10)]

net1 = Module_ModuleList()
net2 = Module_List()

print("net1:")
for p in net1.parameters():
    print(p.size())

print("net2:")
for p in net2.parameters():
    print(p)

net = nn.ModuleDict({
    'linear': nn.Linear(784, 256),
    'act': nn.ReLU(),
})
net['output'] = nn.Linear(256, 10) # add
print(net['linear']) # access
print(net.output)
print(net)

try:
    net(torch.zeros(1, 784)) # raises NotImplementedError
except NotImplementedError as error:
    print(f"NotImplementedError: {error}")

class FancyMLP(nn.Module):
    def __init__(self, **kwargs):
        super(FancyMLP, self).__init__(**kwargs)

        self.rand_weight = torch.rand((20, 20), requires_grad=False) # constant, not trained
        self.linear = nn.Linear(20, 20)

    def forward(self, x):
        x = self.linear(x)
        # the constant, with nn.functional's relu and mm
        x = nn.functional.relu(torch.mm(x, self.rand_weight.data) + 1)

        # the linear layer reused: two layers sharing parameters
        x = self.linear(x)
        # control flow: item() gives a number to compare
        while x.norm().item() > 1:
            x /= 2
        if x.norm().item() < 0.8:
            x *= 10
        return x.sum()

X = torch.rand(2, 20)
net = FancyMLP()
print(net)
print(net(X))

class NestMLP(nn.Module):
    def __init__(self, **kwargs):
        super(NestMLP, self).__init__(**kwargs)
        self.net = nn.Sequential(nn.Linear(40, 30), nn.ReLU())

    def forward(self, x):
        return self.net(x)

net = nn.Sequential(NestMLP(), nn.Linear(30, 20), FancyMLP())

X = torch.rand(2, 40)
print(net)
print(net(X))
