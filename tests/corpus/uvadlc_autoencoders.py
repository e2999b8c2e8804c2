# Source: Lightning-AI/tutorials at 1dc811a, course_UvA-DL/08-deep-autoencoders/Deep_Autoencoders.py
#   (UvA DL tutorial 9, "Deep Autoencoders": a strided-convolution Encoder with GELU, a Decoder
#   of ConvTranspose2d with `output_padding=1` after a Linear reshaped to 4x4 maps, the
#   reconstruction loss `F.mse_loss(x, x_hat, reduction="none").sum(dim=[1, 2, 3]).mean(dim=[0])`,
#   images shifted by `torch.roll` and masked with `img.mean(dim=[1, 2], keepdims=True)`,
#   Adam with ReduceLROnPlateau)
# Edits: torch.manual_seed(42) added (the tutorial seeds with L.seed_everything(42)); CIFAR-10
#   is replaced by 16 seeded random 3x32x32 images in [-1, 1]; the model is made small
#   (base_channel_size 4, latent_dim 16; the tutorial: 32 and 64-384); the Lightning module
#   and Trainer become a loop of 4 Adam steps on batches of 8 with `scheduler.step(val_loss)`;
#   plots and torchvision's grids become printed losses and shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)


class Encoder(nn.Module):
    def __init__(self, num_input_channels: int, base_channel_size: int, latent_dim: int, act_fn: object = nn.GELU):
        super().__init__()
        c_hid = base_channel_size
        self.net = nn.Sequential(
            nn.Conv2d(num_input_channels, c_hid, kernel_size=3, padding=1, stride=2),  # 32x32 => 16x16
            act_fn(),
            nn.Conv2d(c_hid, c_hid, kernel_size=3, padding=1),
            act_fn(),
            nn.Conv2d(c_hid, 2 * c_hid, kernel_size=3, padding=1, stride=2),  # 16x16 => 8x8
            act_fn(),
            nn.Conv2d(2 * c_hid, 2 * c_hid, kernel_size=3, padding=1),
            act_fn(),
            nn.Conv2d(2 * c_hid, 2 * c_hid, kernel_size=3, padding=1, stride=2),  # 8x8 => 4x4
            act_fn(),
            nn.Flatten(),  # Image grid to single feature vector
            nn.Linear(2 * 16 * c_hid, latent_dim),
        )

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, num_input_channels: int, base_channel_size: int, latent_dim: int, act_fn: object = nn.GELU):
        super().__init__()
        c_hid = base_channel_size
        self.linear = nn.Sequential(nn.Linear(latent_dim, 2 * 16 * c_hid), act_fn())
        self.net = nn.Sequential(
            nn.ConvTranspose2d(
                2 * c_hid, 2 * c_hid, kernel_size=3, output_padding=1, padding=1, stride=2
            ),  # 4x4 => 8x8
            act_fn(),
            nn.Conv2d(2 * c_hid, 2 * c_hid, kernel_size=3, padding=1),
            act_fn(),
            nn.ConvTranspose2d(2 * c_hid, c_hid, kernel_size=3, output_padding=1, padding=1, stride=2),  # 8x8 => 16x16
            act_fn(),
            nn.Conv2d(c_hid, c_hid, kernel_size=3, padding=1),
            act_fn(),
            nn.ConvTranspose2d(
                c_hid, num_input_channels, kernel_size=3, output_padding=1, padding=1, stride=2
            ),  # 16x16 => 32x32
            nn.Tanh(),  # The input images is scaled between -1 and 1, hence the output has to be bounded as well
        )

    def forward(self, x):
        x = self.linear(x)
        x = x.reshape(x.shape[0], -1, 4, 4)
        x = self.net(x)
        return x


class Autoencoder(nn.Module):
    def __init__(self, base_channel_size: int, latent_dim: int, encoder_class: object = Encoder,
                 decoder_class: object = Decoder, num_input_channels: int = 3, width: int = 32, height: int = 32):
        super().__init__()
        # Creating encoder and decoder
        self.encoder = encoder_class(num_input_channels, base_channel_size, latent_dim)
        self.decoder = decoder_class(num_input_channels, base_channel_size, latent_dim)
        # Example input array needed for visualizing the graph of the network
        self.example_input_array = torch.zeros(2, num_input_channels, width, height)

    def forward(self, x):
        """The forward function takes in an image and returns the reconstructed image."""
        z = self.encoder(x)
        x_hat = self.decoder(z)
        return x_hat

    def _get_reconstruction_loss(self, batch):
        """Given a batch of images, this function returns the reconstruction loss (MSE in our case)"""
        x, _ = batch  # We do not need the labels
        x_hat = self.forward(x)
        loss = F.mse_loss(x, x_hat, reduction="none")
        loss = loss.sum(dim=[1, 2, 3]).mean(dim=[0])
        return loss

    def configure_optimizers(self):
        optimizer = optim.Adam(self.parameters(), lr=1e-3)
        scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.2, patience=20, min_lr=5e-5)
        return {"optimizer": optimizer, "lr_scheduler": scheduler, "monitor": "val_loss"}


images = torch.rand(16, 3, 32, 32) * 2 - 1
labels = torch.zeros(16, dtype=torch.long)


def compare_imgs(img1, img2, title_prefix=""):
    # Calculate MSE loss between both images
    loss = F.mse_loss(img1, img2, reduction="sum")
    print(f"{title_prefix} Loss: {loss.item():4.2f}")


for i in range(2):
    img = images[i]
    img_mean = img.mean(dim=[1, 2], keepdims=True)

    # Shift image by one pixel
    SHIFT = 1
    img_shifted = torch.roll(img, shifts=SHIFT, dims=1)
    img_shifted = torch.roll(img_shifted, shifts=SHIFT, dims=2)
    img_shifted[:, :1, :] = img_mean
    img_shifted[:, :, :1] = img_mean
    compare_imgs(img, img_shifted, "Shifted -")

    # Set half of the image to zero
    img_masked = img.clone()
    img_masked[:, : img_masked.shape[1] // 2, :] = img_mean
    compare_imgs(img, img_masked, "Masked -")

model = Autoencoder(base_channel_size=4, latent_dim=16)
print(model(model.example_input_array).shape, model.encoder(model.example_input_array).shape)
config = model.configure_optimizers()
optimizer, scheduler = config["optimizer"], config["lr_scheduler"]
for step in range(4):
    batch = (images[(step % 2) * 8:(step % 2) * 8 + 8], labels[:8])
    loss = model._get_reconstruction_loss(batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        val_loss = model._get_reconstruction_loss((images[8:], labels[8:]))
    scheduler.step(val_loss)
    print(f"train_loss {loss.item():.3f} val_loss {val_loss.item():.3f}", loss.grad_fn.name(),
          optimizer.param_groups[0]["lr"])
print(model.decoder.net[0].weight.grad.shape, model.encoder.net[-1].bias.grad.abs().sum() > 0)

model.eval()
with torch.no_grad():
    reconst_imgs = model(images[:4])
imgs = torch.stack([images[:4], reconst_imgs], dim=1).flatten(0, 1)
print(imgs.shape, reconst_imgs.requires_grad, float(reconst_imgs.abs().max()) <= 1.0)
