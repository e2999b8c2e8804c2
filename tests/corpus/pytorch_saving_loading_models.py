# Source: pytorch/tutorials beginner_source/saving_loading_models.py at 0db0c4e ("Saving and
#   Loading Models", Matthew Inkawhich: what a state_dict is, a model's and an SGD optimizer's
#   printed; saving and loading a state_dict, a whole model, a general checkpoint, several
#   models in one file; warmstarting with strict=False; map_location)
# Edits: the page's code blocks, which it shows without running them, run in order as one
#   program: TheModelClass is the page's, `*args, **kwargs` are none, PATH is a file in a fresh
#   temporary directory (os.chdir(tempfile.mkdtemp())), epoch and loss come from one training
#   step on a seeded random batch (which also gives the optimizer a momentum buffer to save),
#   and the models A and B of the later sections are TheModelClass and a smaller model sharing
#   its conv1; what each load gives back is printed; torch.manual_seed(0) added (unseeded); the
#   torch.export and GPU sections are left out.
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

os.chdir(tempfile.mkdtemp())
torch.manual_seed(0)

# Define model
class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

# Initialize model
model = TheModelClass()

# Initialize optimizer
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

# one training step, so that there is an epoch, a loss and optimizer state to save
inputs, labels = torch.randn(4, 3, 32, 32), torch.tensor([1, 0, 3, 9])
loss = nn.CrossEntropyLoss()(model(inputs), labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
epoch = 0
print(loss)
print(optimizer.state_dict()["state"][9])

PATH = "model.pt"
torch.save(model.state_dict(), PATH)

model = TheModelClass()
print(model.load_state_dict(torch.load(PATH, weights_only=True)))
print(model.eval())

torch.save(model, PATH)

# Model class must be defined somewhere
model = torch.load(PATH, weights_only=False)
print(model.eval().fc3.bias)

PATH = "checkpoint.tar"
torch.save({
            'epoch': epoch,
            'model_state_dict': model.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': loss,
            }, PATH)

model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']

print(model.eval().training)
# - or -
print(model.train().training)
print(epoch, loss, optimizer.state_dict()["param_groups"])
print(optimizer.state_dict()["state"][9])


class TheModelBClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc = nn.Linear(6 * 14 * 14, 10)

    def forward(self, x):
        return self.fc(F.max_pool2d(F.relu(self.conv1(x)), 2).flatten(1))


modelA, modelB = TheModelClass(), TheModelBClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.Adam(modelB.parameters())

PATH = "models.tar"
torch.save({
            'modelA_state_dict': modelA.state_dict(),
            'modelB_state_dict': modelB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)

modelA = TheModelClass()
modelB = TheModelBClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.Adam(modelB.parameters())

checkpoint = torch.load(PATH, weights_only=True)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimizerA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimizerB.load_state_dict(checkpoint['optimizerB_state_dict'])

modelA.eval()
modelB.eval()
# - or -
modelA.train()
modelB.train()
print(optimizerB.state_dict())

PATH = "modelA.pt"
torch.save(modelA.state_dict(), PATH)

modelB = TheModelBClass()
print(modelB.load_state_dict(torch.load(PATH, weights_only=True), strict=False))
print(torch.equal(modelB.conv1.weight, modelA.conv1.weight))
try:
    modelB.load_state_dict(torch.load(PATH, weights_only=True))
except RuntimeError as error:
    print(error)

device = torch.device('cpu')
model = TheModelClass()
print(model.load_state_dict(torch.load(PATH, map_location=device, weights_only=True)))
