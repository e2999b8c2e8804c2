# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter04_DL_computation/4.5_read-write.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 4.5
#   Reading and writing: a tensor, a list and a dict of tensors saved and loaded, an MLP's
#   state_dict and an SGD optimizer's, a model loaded from a saved state_dict giving the same
#   output)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); a cell's
#   displayed last expression is printed with print(). (The runner runs each program in a
#   temporary directory, where its files are written.)
import torch
from torch import nn

torch.manual_seed(0)

x = torch.ones(3)
torch.save(x, 'x.pt')

x2 = torch.load('x.pt')
print(x2)

y = torch.zeros(4)
torch.save([x, y], 'xy.pt')
xy_list = torch.load('xy.pt')
print(xy_list)

torch.save({'x': x, 'y': y}, 'xy_dict.pt')
xy = torch.load('xy_dict.pt')
print(xy)

class MLP(nn.Module):
    def __init__(self):
        super(MLP, self).__init__()
        self.hidden = nn.Linear(3, 2)
        self.act = nn.ReLU()
        self.output = nn.Linear(2, 1)

    def forward(self, x):
        a = self.act(self.hidden(x))
        return self.output(a)

net = MLP()
print(net.state_dict())

optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print(optimizer.state_dict())

X = torch.randn(2, 3)
Y = net(X)

PATH = "./net.pt"
torch.save(net.state_dict(), PATH)

net2 = MLP()
net2.load_state_dict(torch.load(PATH))
Y2 = net2(X)
print(Y2 == Y)
