"""torch.nn.modules.distance: where PyTorch defines CosineSimilarity."""
from ..tutorial_layers import CosineSimilarity  # noqa: F401
