# Source: Lightning-AI/tutorials at 0b92f1d,
#   course_UvA-DL/07-deep-energy-based-generative-models/Deep_Energy_Models.py (UvA DL tutorial 8,
#   "Deep Energy-Based Generative Models": a CNN with SiLU, a sampling buffer drawing with
#   `np.random.binomial` and `random.choices`, Langevin sampling that sets
#   `p.requires_grad = False` on the model's parameters and `inp_imgs.requires_grad = True`,
#   saves and restores `torch.is_grad_enabled()` around `torch.set_grad_enabled(True)`, and
#   steps through `inp_imgs.data.add_(noise.data)`, `inp_imgs.grad.data.clamp_(-0.03, 0.03)`,
#   `inp_imgs.grad.detach_()` and `inp_imgs.grad.zero_()`; the contrastive-divergence loss)
# Edits: `L.seed_everything(42)` becomes random.seed, np.random.seed and torch.manual_seed;
#   MNIST is replaced by seeded random 16x16 images in [-1, 1] (the model's padding then gives
#   2x2 maps before its Linear, as 28x28 does) and the CNN is made small (hidden_features=8,
#   the tutorial: 32); the Lightning module and Trainer become a loop of 4 training steps
#   with batch 8 and 10 MCMC steps (the tutorial: 60 epochs of 128 and 60 steps), Adam with
#   betas (0.0, 0.999), gradient clipping by `clip_grad_norm_(..., 0.1)` as Lightning's
#   `gradient_clip_val` does, and StepLR; what the tutorial logs is printed; generation takes
#   32 steps (the tutorial: 256) and its images are summarised instead of plotted;
#   torchvision's grids are left out.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

random.seed(42)
np.random.seed(42)
torch.manual_seed(42)
device = torch.device("cpu")


class CNNModel(nn.Module):
    def __init__(self, hidden_features=32, out_dim=1, **kwargs):
        super().__init__()
        # We increase the hidden dimension over layers. Here pre-calculated for simplicity.
        c_hid1 = hidden_features // 2
        c_hid2 = hidden_features
        c_hid3 = hidden_features * 2

        # Series of convolutions and Swish activation functions
        self.cnn_layers = nn.Sequential(
            nn.Conv2d(1, c_hid1, kernel_size=5, stride=2, padding=4),  # [16x16] - Larger padding to get 32x32 image
            nn.SiLU(),
            nn.Conv2d(c_hid1, c_hid2, kernel_size=3, stride=2, padding=1),  # [8x8]
            nn.SiLU(),
            nn.Conv2d(c_hid2, c_hid3, kernel_size=3, stride=2, padding=1),  # [4x4]
            nn.SiLU(),
            nn.Conv2d(c_hid3, c_hid3, kernel_size=3, stride=2, padding=1),  # [2x2]
            nn.SiLU(),
            nn.Flatten(),
            nn.Linear(c_hid3 * 4, c_hid3),
            nn.SiLU(),
            nn.Linear(c_hid3, out_dim),
        )

    def forward(self, x):
        x = self.cnn_layers(x).squeeze(dim=-1)
        return x


class Sampler:
    def __init__(self, model, img_shape, sample_size, max_len=8192):
        super().__init__()
        self.model = model
        self.img_shape = img_shape
        self.sample_size = sample_size
        self.max_len = max_len
        self.examples = [(torch.rand((1,) + img_shape) * 2 - 1) for _ in range(self.sample_size)]

    def sample_new_exmps(self, steps=60, step_size=10):
        # Choose 95% of the batch from the buffer, 5% generate from scratch
        n_new = np.random.binomial(self.sample_size, 0.05)
        rand_imgs = torch.rand((n_new,) + self.img_shape) * 2 - 1
        old_imgs = torch.cat(random.choices(self.examples, k=self.sample_size - n_new), dim=0)
        inp_imgs = torch.cat([rand_imgs, old_imgs], dim=0).detach().to(device)

        # Perform MCMC sampling
        inp_imgs = Sampler.generate_samples(self.model, inp_imgs, steps=steps, step_size=step_size)

        # Add new images to the buffer and remove old ones if needed
        self.examples = list(inp_imgs.to(torch.device("cpu")).chunk(self.sample_size, dim=0)) + self.examples
        self.examples = self.examples[: self.max_len]
        return inp_imgs

    @staticmethod
    def generate_samples(model, inp_imgs, steps=60, step_size=10, return_img_per_step=False):
        # Before MCMC: set model parameters to "required_grad=False"
        # because we are only interested in the gradients of the input.
        is_training = model.training
        model.eval()
        for p in model.parameters():
            p.requires_grad = False
        inp_imgs.requires_grad = True

        # Enable gradient calculation if not already the case
        had_gradients_enabled = torch.is_grad_enabled()
        torch.set_grad_enabled(True)

        # We use a buffer tensor in which we generate noise each loop iteration.
        # More efficient than creating a new tensor every iteration.
        noise = torch.randn(inp_imgs.shape, device=inp_imgs.device)

        # List for storing generations at each step (for later analysis)
        imgs_per_step = []

        # Loop over K (steps)
        for _ in range(steps):
            # Part 1: Add noise to the input.
            noise.normal_(0, 0.005)
            inp_imgs.data.add_(noise.data)
            inp_imgs.data.clamp_(min=-1.0, max=1.0)

            # Part 2: calculate gradients for the current input.
            out_imgs = -model(inp_imgs)
            out_imgs.sum().backward()
            inp_imgs.grad.data.clamp_(-0.03, 0.03)  # For stabilizing and preventing too high gradients

            # Apply gradients to our current samples
            inp_imgs.data.add_(-step_size * inp_imgs.grad.data)
            inp_imgs.grad.detach_()
            inp_imgs.grad.zero_()
            inp_imgs.data.clamp_(min=-1.0, max=1.0)

            if return_img_per_step:
                imgs_per_step.append(inp_imgs.clone().detach())

        # Reactivate gradients for parameters for training
        for p in model.parameters():
            p.requires_grad = True
        model.train(is_training)

        # Reset gradient calculation to setting before this function
        torch.set_grad_enabled(had_gradients_enabled)

        if return_img_per_step:
            return torch.stack(imgs_per_step, dim=0)
        else:
            return inp_imgs


img_shape, batch_size, alpha = (1, 16, 16), 8, 0.1
train_imgs_all = torch.rand(32, *img_shape) * 2 - 1
cnn = CNNModel(hidden_features=8)
sampler = Sampler(cnn, img_shape=img_shape, sample_size=batch_size)
optimizer = optim.Adam(cnn.parameters(), lr=1e-4, betas=(0.0, 0.999))
scheduler = optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.97)  # Exponential decay over epochs

for step in range(4):
    real_imgs = train_imgs_all[step * batch_size:(step + 1) * batch_size].clone()
    small_noise = torch.randn_like(real_imgs) * 0.005
    real_imgs.add_(small_noise).clamp_(min=-1.0, max=1.0)

    # Obtain samples
    fake_imgs = sampler.sample_new_exmps(steps=10, step_size=10)
    print(fake_imgs.requires_grad, fake_imgs.grad.abs().sum(), torch.is_grad_enabled(),
          all(p.requires_grad for p in cnn.parameters()), cnn.training)

    # Predict energy score for all images
    inp_imgs = torch.cat([real_imgs, fake_imgs], dim=0)
    real_out, fake_out = cnn(inp_imgs).chunk(2, dim=0)

    # Calculate losses
    reg_loss = alpha * (real_out**2 + fake_out**2).mean()
    cdiv_loss = fake_out.mean() - real_out.mean()
    loss = reg_loss + cdiv_loss
    optimizer.zero_grad()
    loss.backward()
    print(fake_imgs.grad.abs().sum() > 0, cnn.cnn_layers[0].weight.grad.shape)
    torch.nn.utils.clip_grad_norm_(cnn.parameters(), 0.1)
    optimizer.step()
    print(f"loss {loss.item():.4f}, reg {reg_loss.item():.4f}, cdiv {cdiv_loss.item():.4f}, "
          f"real {real_out.mean().item():.4f}, fake {fake_out.mean().item():.4f}")
scheduler.step()
print(scheduler.get_last_lr(), len(sampler.examples))

with torch.no_grad():
    real_imgs = train_imgs_all[:batch_size]
    fake_imgs = torch.rand_like(real_imgs) * 2 - 1
    inp_imgs = torch.cat([real_imgs, fake_imgs], dim=0)
    real_out, fake_out = cnn(inp_imgs).chunk(2, dim=0)
    cdiv = fake_out.mean() - real_out.mean()
    print(f"val_contrastive_divergence {cdiv.item():.4f}")

torch.manual_seed(43)
cnn.eval()
start_imgs = torch.rand((4,) + img_shape).to(device)
start_imgs = start_imgs * 2 - 1
with torch.no_grad():
    imgs_per_step = Sampler.generate_samples(cnn, start_imgs, steps=32, step_size=10, return_img_per_step=True)
print(torch.is_grad_enabled(), imgs_per_step.shape, imgs_per_step.requires_grad)
print(imgs_per_step[::8].mean(dim=(1, 2, 3, 4)))

with torch.no_grad():
    rand_imgs = torch.rand((128,) + img_shape).to(device)
    rand_imgs = rand_imgs * 2 - 1.0
    rand_out = cnn(rand_imgs).mean()
    print("Average score for random images: %4.2f" % (rand_out.item()))


@torch.no_grad()
def compare_images(img1, img2):
    imgs = torch.stack([img1, img2], dim=0).to(device)
    score1, score2 = cnn(imgs).cpu().chunk(2, dim=0)
    print("Score original image: %4.2f" % score1)
    print("Score transformed image: %4.2f" % score2)


exmp_img = train_imgs_all[0]
img_noisy = exmp_img + torch.randn_like(exmp_img) * 0.3
img_noisy.clamp_(min=-1.0, max=1.0)
compare_images(exmp_img, img_noisy)
img_flipped = exmp_img.flip(dims=(1, 2))
compare_images(exmp_img, img_flipped)
