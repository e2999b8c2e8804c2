"""torch.nn.modules.distance: where PyTorch defines CosineSimilarity and PairwiseDistance."""
from ..tutorial_layers import CosineSimilarity  # noqa: F401
from ..margin_losses import PairwiseDistance  # noqa: F401
