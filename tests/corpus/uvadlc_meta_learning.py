# Source: Lightning-AI/tutorials at 50408c6, course_UvA-DL/12-meta-learning/Meta_Learning.py
#   (UvA DL tutorial 16, "Meta-Learning - Learning to Learn": ProtoNet's prototypes by
#   `features[torch.where(targets == c)[0]].mean(dim=0)` over `torch.unique(targets).sort()`,
#   classification by squared distances and `log_softmax`, then first-order ProtoMAML: a
#   `deepcopy` of the model fine-tuned by SGD, an output layer from detached prototypes with
#   `.detach().requires_grad_()`, updated through `.data -=` and reset by `grad.fill_(0)`, the
#   graph re-attached by `(output_weight - init_weight).detach() + init_weight`, and the
#   fine-tuned copy's gradients added into the model's by `p_global.grad += p_local.grad`)
# Edits: `L.seed_everything(42)` becomes torch.manual_seed(42); CIFAR-100 and the DenseNet are
#   replaced by seeded random 3x8x8 images whose mean depends on their class (10 classes) and a
#   small convolutional network (get_convnet keeps its name); the FewShotBatchSampler and
#   TaskBatchSampler become support and query sets drawn here with `torch.randperm`; the
#   Lightning modules become plain Modules trained for 4 steps each (ProtoNet with AdamW,
#   ProtoMAML on 2 tasks a step with 1 inner step, as the tutorial trains), with what they
#   log printed; testing uses one support set and the rest of the data as queries.
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)
device = torch.device("cpu")

num_classes, per_class = 10, 12
targets_all = torch.arange(num_classes).repeat_interleave(per_class)
imgs_all = torch.randn(num_classes * per_class, 3, 8, 8) * 0.5 + (targets_all.float() / 5 - 1).view(-1, 1, 1, 1)


def get_convnet(output_size):
    return nn.Sequential(
        nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 8, kernel_size=3, padding=1), nn.ReLU(), nn.Flatten(),
        nn.Linear(8 * 4 * 4, output_size))


def sample_task(N_way=5, K_shot=4):
    # N_way classes, 2 * K_shot examples of each: the first K_shot are the support set
    classes = torch.randperm(num_classes)[:N_way]
    idx = torch.stack([torch.where(targets_all == c)[0][torch.randperm(per_class)[:2 * K_shot]]
                       for c in classes])
    idx = torch.cat([idx[:, :K_shot].flatten(), idx[:, K_shot:].flatten()])
    return imgs_all[idx], targets_all[idx]


def split_batch(imgs, targets):
    support_imgs, query_imgs = imgs.chunk(2, dim=0)
    support_targets, query_targets = targets.chunk(2, dim=0)
    return support_imgs, query_imgs, support_targets, query_targets


class ProtoNet(nn.Module):
    def __init__(self, proto_dim, lr):
        super().__init__()
        self.lr = lr
        self.model = get_convnet(output_size=proto_dim)

    def configure_optimizers(self):
        optimizer = optim.AdamW(self.parameters(), lr=self.lr)
        scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[140, 180], gamma=0.1)
        return [optimizer], [scheduler]

    @staticmethod
    def calculate_prototypes(features, targets):
        # Given a stack of features vectors and labels, return class prototypes
        # features - shape [N, proto_dim], targets - shape [N]
        classes, _ = torch.unique(targets).sort()  # Determine which classes we have
        prototypes = []
        for c in classes:
            p = features[torch.where(targets == c)[0]].mean(dim=0)  # Average class feature vectors
            prototypes.append(p)
        prototypes = torch.stack(prototypes, dim=0)
        # Return the 'classes' tensor to know which prototype belongs to which class
        return prototypes, classes

    def classify_feats(self, prototypes, classes, feats, targets):
        # Classify new examples with prototypes and return classification error
        dist = torch.pow(prototypes[None, :] - feats[:, None], 2).sum(dim=2)  # Squared euclidean distance
        preds = F.log_softmax(-dist, dim=1)
        labels = (classes[None, :] == targets[:, None]).long().argmax(dim=-1)
        acc = (preds.argmax(dim=1) == labels).float().mean()
        return preds, labels, acc

    def calculate_loss(self, batch, mode):
        # Determine training loss for a given support and query set
        imgs, targets = batch
        features = self.model(imgs)  # Encode all images of support and query set
        support_feats, query_feats, support_targets, query_targets = split_batch(features, targets)
        prototypes, classes = ProtoNet.calculate_prototypes(support_feats, support_targets)
        preds, labels, acc = self.classify_feats(prototypes, classes, query_feats, query_targets)
        loss = F.cross_entropy(preds, labels)
        print(f"{mode}_loss {loss.item():.4f} {mode}_acc {acc.item():.4f}")
        return loss


protonet = ProtoNet(proto_dim=16, lr=2e-4)
(optimizer,), (scheduler,) = protonet.configure_optimizers()
for step in range(4):
    loss = protonet.calculate_loss(sample_task(), mode="train")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
with torch.no_grad():
    protonet.calculate_loss(sample_task(), mode="val")


@torch.no_grad()
def test_proto_net(model, k_shot=4):
    model.eval()
    feats = model.model(imgs_all)
    support = torch.cat([torch.where(targets_all == c)[0][:k_shot] for c in range(num_classes)])
    rest = torch.ones(len(targets_all), dtype=torch.bool)
    rest[support] = False
    prototypes, proto_classes = model.calculate_prototypes(feats[support], targets_all[support])
    _, _, acc = model.classify_feats(prototypes, proto_classes, feats[rest], targets_all[rest])
    return acc.item()


for k in [2, 4, 8]:
    print("Accuracy for k=%i: %4.2f%%" % (k, 100.0 * test_proto_net(protonet, k_shot=k)))


class ProtoMAML(nn.Module):
    def __init__(self, proto_dim, lr, lr_inner, lr_output, num_inner_steps):
        super().__init__()
        self.hparams = dict(proto_dim=proto_dim, lr=lr, lr_inner=lr_inner, lr_output=lr_output,
                            num_inner_steps=num_inner_steps)
        self.model = get_convnet(output_size=proto_dim)
        self.opt = optim.AdamW(self.parameters(), lr=lr)

    def run_model(self, local_model, output_weight, output_bias, imgs, labels):
        # Execute a model with given output layer weights and inputs
        feats = local_model(imgs)
        preds = F.linear(feats, output_weight, output_bias)
        loss = F.cross_entropy(preds, labels)
        acc = (preds.argmax(dim=1) == labels).float()
        return loss, preds, acc

    def adapt_few_shot(self, support_imgs, support_targets):
        # Determine prototype initialization
        support_feats = self.model(support_imgs)
        prototypes, classes = ProtoNet.calculate_prototypes(support_feats, support_targets)
        support_labels = (classes[None, :] == support_targets[:, None]).long().argmax(dim=-1)
        # Create inner-loop model and optimizer
        local_model = deepcopy(self.model)
        local_model.train()
        local_optim = optim.SGD(local_model.parameters(), lr=self.hparams["lr_inner"])
        local_optim.zero_grad()
        # Create output layer weights with prototype-based initialization
        init_weight = 2 * prototypes
        init_bias = -torch.norm(prototypes, dim=1) ** 2
        output_weight = init_weight.detach().requires_grad_()
        output_bias = init_bias.detach().requires_grad_()

        # Optimize inner loop model on support set
        for _ in range(self.hparams["num_inner_steps"]):
            # Determine loss on the support set
            loss, _, _ = self.run_model(local_model, output_weight, output_bias, support_imgs, support_labels)
            # Calculate gradients and perform inner loop update
            loss.backward()
            local_optim.step()
            # Update output layer via SGD
            output_weight.data -= self.hparams["lr_output"] * output_weight.grad
            output_bias.data -= self.hparams["lr_output"] * output_bias.grad
            # Reset gradients
            local_optim.zero_grad()
            output_weight.grad.fill_(0)
            output_bias.grad.fill_(0)

        # Re-attach computation graph of prototypes
        output_weight = (output_weight - init_weight).detach() + init_weight
        output_bias = (output_bias - init_bias).detach() + init_bias

        return local_model, output_weight, output_bias, classes

    def outer_loop(self, batch, mode="train"):
        accuracies = []
        losses = []
        self.model.zero_grad()

        # Determine gradients for batch of tasks
        for task_batch in batch:
            imgs, targets = task_batch
            support_imgs, query_imgs, support_targets, query_targets = split_batch(imgs, targets)
            # Perform inner loop adaptation
            local_model, output_weight, output_bias, classes = self.adapt_few_shot(support_imgs, support_targets)
            # Determine loss of query set
            query_labels = (classes[None, :] == query_targets[:, None]).long().argmax(dim=-1)
            loss, preds, acc = self.run_model(local_model, output_weight, output_bias, query_imgs, query_labels)
            # Calculate gradients for query set loss
            if mode == "train":
                loss.backward()

                for p_global, p_local in zip(self.model.parameters(), local_model.parameters()):
                    p_global.grad += p_local.grad  # First-order approx. -> add gradients of finetuned and base model

            accuracies.append(acc.mean().detach())
            losses.append(loss.detach())

        # Perform update of base model
        if mode == "train":
            opt = self.opt
            opt.step()
            opt.zero_grad()

        print("%s_loss %.4f" % (mode, sum(losses) / len(losses)), "%s_acc %.4f" % (mode, sum(accuracies) / len(accuracies)))


protomaml = ProtoMAML(proto_dim=16, lr=1e-3, lr_inner=0.1, lr_output=0.1, num_inner_steps=1)
for step in range(4):
    protomaml.outer_loop([sample_task(), sample_task()], mode="train")
print([p.grad for p in protomaml.model.parameters()][0])
torch.set_grad_enabled(True)
protomaml.outer_loop([sample_task()], mode="val")
torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)

protomaml.hparams["num_inner_steps"] = 5
support = torch.cat([torch.where(targets_all == c)[0][:4] for c in range(num_classes)])
local_model, output_weight, output_bias, classes = protomaml.adapt_few_shot(imgs_all[support], targets_all[support])
print(output_weight.grad_fn.name(), output_weight.requires_grad, output_bias.shape)
with torch.no_grad():  # No gradients for query set needed
    local_model.eval()
    query_labels = (classes[None, :] == targets_all[:, None]).long().argmax(dim=-1)
    _, _, acc = protomaml.run_model(local_model, output_weight, output_bias, imgs_all, query_labels)
    acc[support] = 0
    print("Accuracy: %4.2f%%" % (100.0 * acc.sum().item() / (acc.shape[0] - len(support))))
