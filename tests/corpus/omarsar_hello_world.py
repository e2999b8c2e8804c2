# Source: omarsar/pytorch_notebooks pytorch_hello_world.ipynb at e901a8f (Elvis Saravia's
#   "PyTorch Hello World" (dair.ai): y = 2x - 1 learnt by one bias-free nn.Linear with MSELoss and
#   SGD, `loss.detach().item()` summed per epoch, `model.train()`/`model.eval()` each step)
# Edits: the `!pip3 install` cell is left out and torch.__version__ is not printed;
#   torch.manual_seed(0) added (the weight is drawn unseeded); a cell's displayed last
#   expression is printed with print().
## The usual imports
import torch
import torch.nn as nn

torch.manual_seed(0)

## our data in tensor form
x = torch.tensor([[-1.0],  [0.0], [1.0], [2.0], [3.0], [4.0]], dtype=torch.float)
y = torch.tensor([[-3.0], [-1.0], [1.0], [3.0], [5.0], [7.0]], dtype=torch.float)

## print size of the input tensor
print(x.size())

## Neural network with 1 hidden layer
layer1 = nn.Linear(1,1, bias=False)
model = nn.Sequential(layer1)

## loss function
criterion = nn.MSELoss()

## optimizer algorithm
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

## training
epoch = 150
for i in range(150):
    model = model.train()
    train_running_loss = 0.0

    ## forward
    output = model(x)
    loss = criterion(output, y)
    optimizer.zero_grad()

    ## backward + update model params
    loss.backward()
    optimizer.step()
    train_running_loss += loss.detach().item()

    model.eval()
    print('Epoch: %d | Loss: %.4f' %(i, train_running_loss) )

## test the model
sample = torch.tensor([10.0], dtype=torch.float)
predicted = model(sample)
print(predicted.detach().item())
