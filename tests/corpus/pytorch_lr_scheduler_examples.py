# Source: the examples in the docstrings of PyTorch 2.13's learning-rate schedulers
#   (torch/optim/lr_scheduler.py), as the reference page "torch.optim" shows them: LambdaLR,
#   MultiplicativeLR, StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR, SequentialLR,
#   PolynomialLR, CosineAnnealingLR, ChainedScheduler, ReduceLROnPlateau, CyclicLR, OneCycleLR
#   and CosineAnnealingWarmRestarts.
# Edits: the docstrings leave `model`, `optimizer`, `train(...)`, `validate(...)`, `train_batch`
#   and `data_loader` undefined: here `model` is an nn.Linear(4, 1) and `optimizer` an SGD with
#   lr=0.05 (the value the comments assume; LambdaLR's "two groups" are the weight's and the
#   bias's), made afresh for each example; `train(...)` is one step of SGD on seeded random
#   data, `validate(...)` returns the loss on other data, and `data_loader` holds 3 batches;
#   each example prints the learning rates it sets (`get_last_lr()`) at its first epochs and
#   where its comments say they change, instead of nothing.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, CosineAnnealingLR,
                                      ExponentialLR, LambdaLR, LinearLR, MultiplicativeLR,
                                      MultiStepLR, PolynomialLR, ReduceLROnPlateau, SequentialLR,
                                      StepLR)

torch.manual_seed(0)
X, y = torch.randn(16, 4), torch.randn(16, 1)
X_val, y_val = torch.randn(8, 4), torch.randn(8, 1)


def fresh(lr=0.05, **kwargs):
    global model, optimizer, opt
    model = nn.Linear(4, 1)
    optimizer = opt = torch.optim.SGD(model.parameters(), lr=lr, **kwargs)


def train(*args):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(X), y).backward()
    optimizer.step()


train_batch = train


def validate(*args):
    with torch.no_grad():
        return nn.functional.mse_loss(model(X_val), y_val).item()


data_loader = [None] * 3
SHOWN = {0, 1, 2, 3, 19, 20, 21, 22, 29, 30, 39, 40, 49, 50, 79, 80, 99}


def show(epoch, scheduler):
    if epoch in SHOWN:
        print(f"epoch {epoch}: lr {scheduler.get_last_lr()}")


print("== LambdaLR")
fresh(lr=0.05)
optimizer = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias]}], lr=0.05)
# Assuming optimizer has two groups.
num_epochs = 100
lambda1 = lambda epoch: epoch // 30
lambda2 = lambda epoch: 0.95**epoch
scheduler = LambdaLR(optimizer, lr_lambda=[lambda1, lambda2])
for epoch in range(num_epochs):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

# Alternatively, you can use a single lambda function for all groups.
fresh()
scheduler = LambdaLR(opt, lr_lambda=lambda epoch: epoch // 30)
for epoch in range(num_epochs):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== MultiplicativeLR")
fresh()
lmbda = lambda epoch: 0.95
scheduler = MultiplicativeLR(optimizer, lr_lambda=lmbda)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== StepLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.05     if epoch < 30
# lr = 0.005    if 30 <= epoch < 60
# lr = 0.0005   if 60 <= epoch < 90
# ...
scheduler = StepLR(optimizer, step_size=30, gamma=0.1)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== MultiStepLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.05     if epoch < 30
# lr = 0.005    if 30 <= epoch < 80
# lr = 0.0005   if epoch >= 80
scheduler = MultiStepLR(optimizer, milestones=[30, 80], gamma=0.1)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== ConstantLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.025   if epoch == 0
# lr = 0.025   if epoch == 1
# lr = 0.025   if epoch == 2
# lr = 0.025   if epoch == 3
# ...
# lr = 0.05    if epoch >= 40
scheduler = ConstantLR(optimizer, factor=0.5, total_iters=40)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== LinearLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.003687  if epoch == 0
# lr = 0.004875  if epoch == 1
# lr = 0.006062  if epoch == 2
# lr = 0.00725   if epoch == 3
# ...
# lr = 0.05      if epoch >= 40
scheduler = LinearLR(optimizer, start_factor=0.05, total_iters=40)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== ExponentialLR")
fresh()
scheduler = ExponentialLR(optimizer, gamma=0.95)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== SequentialLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.005     if epoch == 0
# lr = 0.005     if epoch == 1
# lr = 0.005     if epoch == 2
# ...
# lr = 0.05      if epoch == 20
# lr = 0.045     if epoch == 21
# lr = 0.0405    if epoch == 22
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=20)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = SequentialLR(
    optimizer,
    schedulers=[scheduler1, scheduler2],
    milestones=[20],
)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== PolynomialLR")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.0490   if epoch == 0
# lr = 0.0481   if epoch == 1
# lr = 0.0472   if epoch == 2
# ...
# lr = 0.0      if epoch >= 50
scheduler = PolynomialLR(optimizer, total_iters=50, power=0.9)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== CosineAnnealingLR")
fresh()
num_epochs = 100
scheduler = CosineAnnealingLR(optimizer, T_max=num_epochs)
for epoch in range(num_epochs):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== ChainedScheduler")
fresh()
# Assuming optimizer uses lr = 0.05 for all groups
# lr = 0.05      if epoch == 0
# lr = 0.0450    if epoch == 1
# lr = 0.0405    if epoch == 2
# ...
# lr = 0.00675   if epoch == 19
# lr = 0.06078   if epoch == 20
# lr = 0.05470   if epoch == 21
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=20)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = ChainedScheduler([scheduler1, scheduler2], optimizer=optimizer)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)

print("== ReduceLROnPlateau")
fresh()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = ReduceLROnPlateau(optimizer, "min")
for epoch in range(10):
    train(...)
    val_loss = validate(...)
    # Note that step should be called after validate()
    scheduler.step(val_loss)
    print(f"epoch {epoch}: val_loss {val_loss:.4f} lr {scheduler.get_last_lr()}")

print("== CyclicLR")
fresh()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CyclicLR(
    optimizer,
    base_lr=0.01,
    max_lr=0.1,
    step_size_up=10,
)
for epoch in range(10):
    for batch in data_loader:
        train_batch(...)
        scheduler.step()
    print(f"epoch {epoch}: lr {scheduler.get_last_lr()}")

print("== OneCycleLR")
fresh()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
scheduler = torch.optim.lr_scheduler.OneCycleLR(
    optimizer, max_lr=0.01, steps_per_epoch=len(data_loader), epochs=10
)
for epoch in range(10):
    for batch in data_loader:
        train_batch(...)
        optimizer.step()
        scheduler.step()
    print(f"epoch {epoch}: lr {scheduler.get_last_lr()}")

print("== CosineAnnealingWarmRestarts")
fresh()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
    optimizer, T_0=20
)
for epoch in range(100):
    train(...)
    validate(...)
    scheduler.step()
    show(epoch, scheduler)
print(model.weight, model.bias)
