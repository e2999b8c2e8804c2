# Source: pytorch/tutorials recipes_source/inspecting_model_parameters.py at 1ebde9d
#   (PyTorch Recipes, "Inspecting Model Parameters", Logan Thomas: `parameters()`,
#   `named_parameters()`, `numel()`, f-strings with `=`, freezing a weight with
#   `requires_grad = False`, the parameters of a CNN, `np.prod(param.size())`)
# Edits: the torchinfo cells (a package of its own) are left out; the recipe's manual count per
#   layer is kept.
from torch import nn

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()
print(model)

print([param.shape for param in model.parameters()])

for name, param in model.named_parameters():
    print(name, param.shape)

layer = nn.Linear(28*28, 512)

for name, param in layer.named_parameters():
    print(name, param.size())

for name, param in model.named_parameters():
    print(f'{name=}, {param.size()=}, {param.numel()=}')

print(f'Total model params: {sum(p.numel() for p in model.parameters()):,}')

print(f'Total model trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}')

for name, param in model.named_parameters():
    if name == 'linear_relu_stack.0.weight':
        param.requires_grad = False
    print(f'{name=}, {param.size()=}, {param.numel()=}, {param.requires_grad=}')
print(f'Total model trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}')

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels=1, out_channels=32, kernel_size=3),
            nn.ReLU(inplace=True),
            nn.Conv2d(in_channels=32, out_channels=64, kernel_size=3),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=(2, 2)),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64 * 12 * 12, 128),
            nn.ReLU(inplace=True),
            nn.Linear(128, 10),
        )

    def forward(self, x):
        x = self.features(x)
        x = self.classifier(x)
        return x

cnn_model = CNN()
print(cnn_model)
print('-'*72)
for name, param in cnn_model.named_parameters():
    print(f'{name=}, {param.size()=}, {param.numel()=}, {param.requires_grad=}')
print('-'*72)
print(f'Total model trainable params: {sum(p.numel() for p in cnn_model.parameters() if p.requires_grad):,}')

import numpy as np

for name, param in cnn_model.named_parameters():
    print(f'{name=}, {param.size()=}, {np.prod(param.size())=} == {param.numel()=}')

print('-'*72)
print(f'Manually gathered model trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}')
from collections import defaultdict
layer_params = defaultdict(int)

for name, param in model.named_parameters():
    # combine weight and bias together using layer name
    # linear_relu_stack.0 = linear_relu_stack.0.weight + linear_relu_stack.bias
    layer_params[name.rsplit('.', 1)[0]] += param.numel()

for name, total_params in layer_params.items():
    print(f'{name=} {total_params=:,}')

print('-'*72)
print(f'Manually gathered model trainable params: {sum(p.numel() for p in cnn_model.parameters() if p.requires_grad):,}')
print('-'*72)
print('Manually generated total number of parameters per layer:')
cnn_layer_params = defaultdict(int)

for name, param in cnn_model.named_parameters():
    cnn_layer_params[name.rsplit('.', 1)[0]] += param.numel()

for name, total_params in cnn_layer_params.items():
    print(f'{name=} {total_params=:,}')
