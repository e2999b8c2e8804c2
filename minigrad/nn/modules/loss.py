"""torch.nn.modules.loss: where PyTorch defines BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss and the like."""
from ..layers import CrossEntropyLoss, MSELoss  # noqa: F401
from ..tutorial_layers import (  # noqa: F401
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, NLLLoss,
    SmoothL1Loss)
from ..margin_losses import (  # noqa: F401
    CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss, MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss2d, PoissonNLLLoss, SoftMarginLoss,
    TripletMarginLoss, TripletMarginWithDistanceLoss)
from ..linear_cross_entropy_loss import LinearCrossEntropyLoss  # noqa: F401
