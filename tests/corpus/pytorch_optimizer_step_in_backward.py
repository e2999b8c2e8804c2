# Source: pytorch/tutorials intermediate_source/optimizer_step_in_backward_tutorial.py at 2a48870
#   ("How to save memory by fusing the optimizer step into the backward pass": a dict of one
#   Adam(foreach=False) per parameter, stepped and zeroed by
#   `register_post_accumulate_grad_hook` as each gradient is accumulated)
# Edits: a small MLP (nn.Sequential of Linear and GELU layers) in place of torchvision's
#   pretrained ViT, and 8-feature fake inputs in place of 224x224 images, on the CPU (no
#   `.cuda()`); the CUDA memory snapshots are left out; torch.manual_seed(0) added; a copy of
#   the model trained the tutorial's first way (optimizer.step() after backward) is compared
#   with the fused one, and each model's loss and parameters are printed.
import copy

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
model_fused = copy.deepcopy(model)
optimizer = torch.optim.Adam(model.parameters())

FEATURES = 8

def train(model, optimizer):
  # create our fake image input: tensor shape is batch_size, features
  fake_image = torch.rand(2, FEATURES)

  # call our forward and backward
  loss = model.forward(fake_image)
  loss.sum().backward()

  # optimizer update
  optimizer.step()
  optimizer.zero_grad()
  return loss.sum()

torch.manual_seed(1)
for _ in range(3):
  print(train(model, optimizer))

# Instead of having just *one* optimizer, we will have a ``dict`` of optimizers
# for every parameter so we could reference them in our hook.
optimizer_dict = {p: torch.optim.Adam([p], foreach=False) for p in model_fused.parameters()}

# Define our hook, which will call the optimizer ``step()`` and ``zero_grad()``
def optimizer_hook(parameter) -> None:
  optimizer_dict[parameter].step()
  optimizer_dict[parameter].zero_grad()

# Register the hook onto every parameter
handles = []
for p in model_fused.parameters():
   handles.append(p.register_post_accumulate_grad_hook(optimizer_hook))

def train(model):
  # create our fake image input: tensor shape is batch_size, features
  fake_image = torch.rand(2, FEATURES)

  # call our forward and backward
  loss = model.forward(fake_image)
  loss.sum().backward()

  # optimizer update --> no longer needed!
  # optimizer.step()
  # optimizer.zero_grad()
  return loss.sum()

del optimizer

torch.manual_seed(1)
for _ in range(3):
  print(train(model_fused))

for (name, p), q in zip(model.named_parameters(), model_fused.parameters()):
  print(name, p.grad, q.grad, torch.equal(p, q))
print(model_fused[2].bias)
print(optimizer_dict[model_fused[2].bias].state_dict()["state"])
for h in handles:
  h.remove()
model_fused(torch.rand(2, FEATURES)).sum().backward()
print(model_fused[2].bias.grad)
