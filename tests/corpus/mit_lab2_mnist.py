# Source: MITDeepLearning/introtodeeplearning lab2/solutions/PT_Part1_MNIST_Solution.ipynb at
#   e44754e (MIT 6.S191 Introduction to Deep Learning, Lab 2 Part 1: MNIST digit classification:
#   a fully connected model as nn.Sequential and as a Module, a train function with
#   `optimizer.zero_grad()`, `loss.backward()`, `optimizer.step()` and `loss.item()`, an
#   evaluate function under `torch.no_grad()` after `model.eval()`, a CNN with Conv2d and
#   MaxPool2d, softmax probabilities collected with torch.cat)
# Edits: torch.manual_seed(0) added (unseeded), and np.random.seed(0). In place of MNIST (a
#   download), a Dataset of 192 training and 100 test images of seeded uniform noise made with
#   numpy (1x28x28 in [0, 1), as ToTensor gives, each label a Python int as MNIST's), labelled
#   by the argmax of a fixed random projection; the fully connected model trains 2 epochs (the
#   solution's 5), the CNN 1 (its 7). The GPU check and `.to(device)` stay (device is the CPU).
#   Left out: the pip installs, Comet ML's experiments and logging, torchsummary, tqdm, the
#   mitdeeplearning package's loss history and plotter, and the plotting cells (the first's
#   random draw of 36 indices kept). The solution's code otherwise, with its TODO comments cut
#   and its quirks kept: train() uses the global fc_model and trainset_loader, evaluate() the
#   global testset_loader, and the CNN's loop never adds to total_loss, so prints a loss of 0.0.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

import numpy as np
import random
torch.manual_seed(0)
np.random.seed(0)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class NoiseDigits(Dataset):
    """Stands in for torchvision's MNIST: (image, label) pairs, the image a 1x28x28 tensor."""
    rng = np.random.default_rng(0)
    proj = rng.standard_normal((784, 10)).astype(np.float32)

    def __init__(self, n):
        self.images = self.rng.random((n, 1, 28, 28), dtype=np.float32)
        self.labels = (self.images.reshape(n, 784) @ self.proj).argmax(1)

    def __len__(self): return len(self.labels)

    def __getitem__(self, i): return torch.from_numpy(self.images[i]), int(self.labels[i])


train_dataset = NoiseDigits(192)
test_dataset = NoiseDigits(100)

image, label = train_dataset[0]
print(image.size())  # For a tensor: torch.Size([1, 28, 28])
print(label)  # For a label: integer (e.g., 5)

random_inds = np.random.choice(192,36)
print(random_inds[:6], [train_dataset[i][1] for i in random_inds[:6]])


def build_fc_model():
    fc_model = nn.Sequential(
        # First define a Flatten layer
        nn.Flatten(),

        nn.Linear(28 * 28, 128),
        nn.ReLU(),

        nn.Linear(128, 10),
        )
    return fc_model

fc_model_sequential = build_fc_model()
print(fc_model_sequential)


# Define the fully connected model
class FullyConnectedModel(nn.Module):
    def __init__(self):
        super(FullyConnectedModel, self).__init__()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(28 * 28, 128)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.flatten(x)
        x = self.fc1(x)
        x = self.relu(x)
        x = self.fc2(x)
        return x

fc_model = FullyConnectedModel().to(device) # send the model to GPU

# Define loss function and optimizer
loss_function = nn.CrossEntropyLoss()
optimizer = optim.SGD(fc_model.parameters(), lr=0.1)

# Create DataLoaders for batch processing
BATCH_SIZE = 64
trainset_loader = DataLoader(train_dataset, batch_size=BATCH_SIZE, shuffle=True)
testset_loader = DataLoader(test_dataset, batch_size=BATCH_SIZE, shuffle=False)


def train(model, dataloader, criterion, optimizer, epochs):
    model.train()  # Set the model to training mode
    for epoch in range(epochs):
        total_loss = 0
        correct_pred = 0
        total_pred = 0

        for images, labels in trainset_loader:
            # Move tensors to GPU so compatible with model
            images, labels = images.to(device), labels.to(device)
            # Clear gradients before performing backward pass
            optimizer.zero_grad()
            # Forward pass
            outputs = fc_model(images)
            # Calculate loss based on model predictions
            loss = loss_function(outputs, labels)
            # Backpropagate and update model parameters
            loss.backward()
            optimizer.step()
            # multiply loss by total nos. of samples in batch
            total_loss += loss.item()*images.size(0)

            # Calculate accuracy
            predicted = torch.argmax(outputs, dim=1)  # Get predicted class
            correct_pred += (predicted == labels).sum().item()  # Count correct predictions
            total_pred += labels.size(0) # Count total predictions

        # Compute metrics
        total_epoch_loss = total_loss / total_pred
        epoch_accuracy = correct_pred / total_pred
        print(f"Epoch {epoch + 1}, Loss: {total_epoch_loss}, Accuracy: {epoch_accuracy:.4f}")


EPOCHS = 2
train(fc_model, trainset_loader, loss_function, optimizer, EPOCHS)


def evaluate(model, dataloader, loss_function):
    # Evaluate model performance on the test dataset
    model.eval()
    test_loss = 0
    correct_pred = 0
    total_pred = 0
    # Disable gradient calculations when in inference mode
    with torch.no_grad():
        for images, labels in testset_loader:
            images, labels = images.to(device), labels.to(device)
            outputs = model(images)
            loss = loss_function(outputs, labels)
            test_loss += loss.item() * images.size(0)
            predicted = torch.argmax(outputs, dim=1)
            correct_pred += (predicted == labels).sum().item()
            total_pred += labels.size(0)

    # Compute average loss and accuracy
    test_loss /= total_pred
    test_acc = correct_pred / total_pred
    return test_loss, test_acc

test_loss, test_acc = evaluate(fc_model, trainset_loader, loss_function)

print('Test accuracy:', test_acc)


### Basic CNN in PyTorch ###

class CNN(nn.Module):
    def __init__(self):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 24, kernel_size=3)
        self.pool1 = nn.MaxPool2d(kernel_size=2)
        self.conv2 = nn.Conv2d(24, 36, kernel_size=3)
        self.pool2 = nn.MaxPool2d(kernel_size=2)

        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(36 * 5 * 5, 128)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        # First convolutional and pooling layers
        x = self.conv1(x)
        x = self.relu(x)
        x = self.pool1(x)

        x = self.conv2(x)
        x = self.relu(x)
        x = self.pool2(x)

        x = self.flatten(x)
        x = self.fc1(x)
        x = self.relu(x)
        x = self.fc2(x)

        return x

# Instantiate the model
cnn_model = CNN().to(device)
# Initialize the model by passing some data through
image, label = train_dataset[0]
image = image.to(device).unsqueeze(0)  # Add batch dimension → Shape: (1, 1, 28, 28)
output = cnn_model(image)
# Print the model summary
print(cnn_model)

# Rebuild the CNN model
cnn_model = CNN().to(device)

# Define hyperparams
batch_size = 64
epochs = 1
optimizer = optim.SGD(cnn_model.parameters(), lr=1e-2)

loss_function = nn.CrossEntropyLoss()

# Redefine trainloader with new batch size parameter (tweak as see fit if optimizing)
trainset_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
testset_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False)

# Training loop!
cnn_model.train()

for epoch in range(epochs):
    total_loss = 0
    correct_pred = 0
    total_pred = 0

    # First grab a batch of training data which our data loader returns as a tensor
    for idx, (images, labels) in enumerate(trainset_loader):
        images, labels = images.to(device), labels.to(device)

        # Forward pass
        logits = cnn_model(images)

        loss = loss_function(logits, labels)
        # Get the loss (the solution logs it to comet and plots its history)
        loss_value = loss.item()
        print(idx, loss_value)

        # Backpropagation/backward pass
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        # Get the prediction and tally metrics
        predicted = torch.argmax(logits, dim=1)
        correct_pred += (predicted == labels).sum().item()
        total_pred += labels.size(0)

    # Compute metrics
    total_epoch_loss = total_loss / total_pred
    epoch_accuracy = correct_pred / total_pred
    print(f"Epoch {epoch + 1}, Loss: {total_epoch_loss}, Accuracy: {epoch_accuracy:.4f}")

test_loss, test_acc = evaluate(cnn_model, trainset_loader, loss_function)

print('Test accuracy:', test_acc)

test_image, test_label = test_dataset[0]
test_image = test_image.to(device).unsqueeze(0)

# put the model in evaluation (inference) mode
cnn_model.eval()
predictions_test_image = cnn_model(test_image)

print(predictions_test_image)

predictions_value = predictions_test_image.cpu().detach().numpy() #.cpu() to copy tensor to memory first
prediction = np.argmax(predictions_value)
print(prediction)

print("Label of this digit is:", test_label)

# Initialize variables to store all data
all_predictions = []
all_labels = []
all_images = []

# Process test set in batches
with torch.no_grad():
    for images, labels in testset_loader:
        outputs = cnn_model(images)

        # Apply softmax to get probabilities from the predicted logits
        probabilities = torch.nn.functional.softmax(outputs, dim=1)

        # Get predicted classes
        predicted = torch.argmax(probabilities, dim=1)

        all_predictions.append(probabilities)
        all_labels.append(labels)
        all_images.append(images)

all_predictions = torch.cat(all_predictions)  # Shape: (total_samples, num_classes)
all_labels = torch.cat(all_labels)            # Shape: (total_samples,)
all_images = torch.cat(all_images)            # Shape: (total_samples, 1, 28, 28)

# Convert tensors to NumPy for compatibility with plotting functions
predictions = all_predictions.cpu().numpy()  # Shape: (total_samples, num_classes)
test_labels = all_labels.cpu().numpy()       # Shape: (total_samples,)
test_images = all_images.cpu().numpy()       # Shape: (total_samples, 1, 28, 28)
print(predictions.shape, predictions.dtype, test_labels[:10], test_images.shape)
print(predictions[79].round(3), predictions[:20].argmax(1))
