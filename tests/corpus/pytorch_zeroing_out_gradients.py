# Source: pytorch/tutorials recipes_source/recipes/zeroing_out_gradients.py at 0a7e686 (PyTorch
#   Recipes, "Zeroing out gradients in PyTorch": optimizer.zero_grad() in each step of a LeNet
#   trained with SGD and momentum)
# Edits: CIFAR10 (a download, through torchvision) is replaced by a small Dataset of seeded
#   random 3x32x32 images in [-1, 1] (what ToTensor and Normalize((0.5,)*3, (0.5,)*3) give)
#   with random labels, 40 for training and 8 for testing; the DataLoaders keep batch_size 4
#   and shuffle, with num_workers 0 (worker processes); statistics are printed every 5
#   mini-batches instead of every 2000 (the running loss divided by 5); torch.manual_seed(0)
#   added (unseeded); then, as the recipe's text says, `net.zero_grad()` does the same as
#   `optimizer.zero_grad()`: one more step with it prints the gradient it leaves (None).
import torch

import torch.nn as nn
import torch.nn.functional as F

import torch.optim as optim

torch.manual_seed(0)


class RandomImages(torch.utils.data.Dataset):
    def __init__(self, n):
        self.images = torch.rand(n, 3, 32, 32) * 2 - 1
        self.labels = torch.randint(0, 10, (n,))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]


trainset = RandomImages(40)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4,
                                          shuffle=True, num_workers=0)

testset = RandomImages(8)
testloader = torch.utils.data.DataLoader(testset, batch_size=4,
                                         shuffle=False, num_workers=0)

classes = ('plane', 'car', 'bird', 'cat',
           'deer', 'dog', 'frog', 'horse', 'ship', 'truck')


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
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):  # loop over the dataset multiple times

    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        # get the inputs; data is a list of [inputs, labels]
        inputs, labels = data

        # zero the parameter gradients
        optimizer.zero_grad()

        # forward + backward + optimize
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()

        # print statistics
        running_loss += loss.item()
        if i % 5 == 4:    # print every 5 mini-batches
            print('[%d, %5d] loss: %.3f' %
                  (epoch + 1, i + 1, running_loss / 5))
            running_loss = 0.0

print('Finished Training')

# You can also use ``model.zero_grad()``.
inputs, labels = next(iter(testloader))
loss = criterion(net(inputs), labels)
loss.backward()
print(net.fc3.bias.grad)
net.zero_grad()
print(net.fc3.bias.grad)
