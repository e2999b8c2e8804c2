# Source: pytorch/tutorials recipes_source/recipes/saving_and_loading_a_general_checkpoint.py at
#   0a7e686 (PyTorch Recipes, "Saving and loading a general checkpoint in PyTorch": a dict of
#   the epoch, the model's and the optimizer's state_dicts and the loss saved with torch.save,
#   loaded into a new model and optimizer)
# Edits: torch.manual_seed(0) added (the models are drawn unseeded); what the recipe computes
#   and does not show is printed: load_state_dict's results, the checkpoint's keys, epoch and
#   loss, whether the new model's parameters equal the saved ones, and `model.training` after
#   eval() and train().
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
print(net)

optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

# Additional information
EPOCH = 5
PATH = "model.pt"
LOSS = 0.4

torch.save({
            'epoch': EPOCH,
            'model_state_dict': net.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': LOSS,
            }, PATH)

model = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH)
print(model.load_state_dict(checkpoint['model_state_dict']))
print(optimizer.load_state_dict(checkpoint['optimizer_state_dict']))
epoch = checkpoint['epoch']
loss = checkpoint['loss']
print(list(checkpoint), epoch, loss)
print(all(torch.equal(p, q) for p, q in zip(model.parameters(), net.parameters())))
print(optimizer.state_dict()['param_groups'][0]['momentum'])

model.eval()
print(model.training, model.fc1.training)
# - or -
model.train()
print(model.training, model.fc1.training)
