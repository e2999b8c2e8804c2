# Source: ritchieng/deep-learning-wizard, docs/deep_learning/practical_pytorch/pytorch_linear_regression.md
#   (Ritchie Ng's Deep Learning Wizard, "Linear Regression with PyTorch": y = 2x + 1 learnt by a
#   Linear module with MSELoss and SGD, inputs made by `torch.from_numpy(...).requires_grad_()`,
#   each epoch's `loss.item()` printed, predictions read through `.data.numpy()`)
# Edits: torch.manual_seed(0) added (unseeded); the matplotlib cells are left out (the first,
#   a scatter plot of numpy data, only draws); a cell's displayed last expression is printed
#   with print(); the page's last two listings (the same loop again, then on a GPU when there
#   is one) are left out.
import numpy as np

x_values = [i for i in range(11)]

print(x_values)

# Convert to numpy
x_train = np.array(x_values, dtype=np.float32)
print(x_train.shape)

# IMPORTANT: 2D required
x_train = x_train.reshape(-1, 1)
print(x_train.shape)

y_values = [2*i + 1 for i in x_values]

print(y_values)

# In case you're weak in list iterators...
y_values = []
for i in x_values:
    result = 2*i + 1
    y_values.append(result)

print(y_values)

y_train = np.array(y_values, dtype=np.float32)
print(y_train.shape)

# IMPORTANT: 2D required
y_train = y_train.reshape(-1, 1)
print(y_train.shape)

import torch
import torch.nn as nn

torch.manual_seed(0)

# Create class
class LinearRegressionModel(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(LinearRegressionModel, self).__init__()
        self.linear = nn.Linear(input_dim, output_dim)

    def forward(self, x):
        out = self.linear(x)
        return out

input_dim = 1
output_dim = 1

model = LinearRegressionModel(input_dim, output_dim)

criterion = nn.MSELoss()

learning_rate = 0.01

optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

epochs = 100

for epoch in range(epochs):
    epoch += 1
    # Convert numpy array to torch Variable
    inputs = torch.from_numpy(x_train).requires_grad_()
    labels = torch.from_numpy(y_train)

    # Clear gradients w.r.t. parameters
    optimizer.zero_grad()

    # Forward to get output
    outputs = model(inputs)

    # Calculate Loss
    loss = criterion(outputs, labels)

    # Getting gradients w.r.t. parameters
    loss.backward()

    # Updating parameters
    optimizer.step()

    print('epoch {}, loss {}'.format(epoch, loss.item()))

# Purely inference
predicted = model(torch.from_numpy(x_train).requires_grad_()).data.numpy()
print(predicted)

# y = 2x + 1
print(y_train)

save_model = False
if save_model is True:
    # Saves only parameters
    # alpha & beta
    torch.save(model.state_dict(), 'awesome_model.pkl')

load_model = False
if load_model is True:
    model.load_state_dict(torch.load('awesome_model.pkl'))
