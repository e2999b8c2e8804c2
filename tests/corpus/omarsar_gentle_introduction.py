# Source: omarsar/pytorch_notebooks A_Gentle_Introduction_to_PyTorch_1_2.ipynb at 39bcbf2 (Elvis
#   Saravia's "A Gentle Introduction to PyTorch 1.2" (dair.ai): a Linear-ReLU-Dropout-Linear
#   model whose forward ends in F.softmax and is trained with CrossEntropyLoss and Adam,
#   accuracy by `torch.max(output, 1)[1]`, `loss.detach().item()` summed per epoch)
# Edits: the install cell, torch.__version__ and the torchvision cells (MNIST download,
#   PIL image transforms, the plotted grid) are left out; seeded random 1x28x28 images with
#   random labels (320 to train, 96 to test) in TensorDatasets stand for MNIST, with the
#   notebook's DataLoaders; 2 epochs instead of 5; `print(trainset)` prints the datasets' sizes.
## The usual imports
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

## parameter denoting the batch size
BATCH_SIZE = 32

trainset = torch.utils.data.TensorDataset(torch.rand(320, 1, 28, 28), torch.randint(0, 10, (320,)))
trainloader = torch.utils.data.DataLoader(trainset, batch_size=BATCH_SIZE,
                                          shuffle=True, num_workers=2)

testset = torch.utils.data.TensorDataset(torch.rand(96, 1, 28, 28), torch.randint(0, 10, (96,)))
testloader = torch.utils.data.DataLoader(testset, batch_size=BATCH_SIZE,
                                         shuffle=False, num_workers=2)

## print the trainset and testset
print(len(trainset))
print(len(testset))

for images, labels in trainloader:
    print("Image batch dimensions:", images.shape)
    print("Image label dimensions:", labels.shape)
    break

## the model
class MyModel(nn.Module):
    def __init__(self):
        super(MyModel, self).__init__()
        self.d1 = nn.Linear(28 * 28, 128)
        self.dropout = nn.Dropout(p=0.2)
        self.d2 = nn.Linear(128, 10)

    def forward(self, x):
        x = x.flatten(start_dim = 1)
        x = self.d1(x)
        x = F.relu(x)
        x = self.dropout(x)
        logits = self.d2(x)
        out = F.softmax(logits, dim=1)
        return out

## test the model with 1 batch
model = MyModel()
for images, labels in trainloader:
    print("batch size:", images.shape)
    out = model(images)
    print(out.shape)
    break

learning_rate = 0.001
num_epochs = 2

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model = MyModel()
model = model.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

## utility function to compute accuracy
def get_accuracy(output, target, batch_size):
    ''' Obtain accuracy for training round '''
    corrects = (torch.max(output, 1)[1].view(target.size()).data == target.data).sum()
    accuracy = 100.0 * corrects/batch_size
    return accuracy.item()

## train the model
for epoch in range(num_epochs):
    train_running_loss = 0.0
    train_acc = 0.0

    ## commence training
    model = model.train()

    ## training step
    for i, (images, labels) in enumerate(trainloader):

        images = images.to(device)
        labels = labels.to(device)

        ## forward + backprop + loss
        predictions = model(images)
        loss = criterion(predictions, labels)
        optimizer.zero_grad()
        loss.backward()

        ## update model params
        optimizer.step()

        train_running_loss += loss.detach().item()
        train_acc += get_accuracy(predictions, labels, BATCH_SIZE)

    model.eval()
    print('Epoch: %d | Loss: %.4f | Train Accuracy: %.2f' \
          %(epoch, train_running_loss / i, train_acc/i))

test_acc = 0.0
for i, (images, labels) in enumerate(testloader, 0):
    images = images.to(device)
    labels = labels.to(device)
    outputs = model(images)
    test_acc += get_accuracy(outputs, labels, BATCH_SIZE)

print('Test Accuracy: %.2f'%( test_acc/i))
