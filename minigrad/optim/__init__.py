"""minigrad.optim: torch.optim's SGD, Adam, AdamW, Adagrad, Adadelta, RMSprop and LBFGS, on the
same Optimizer base, and the learning rate schedulers (lr_scheduler)."""
from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["LBFGS", "SGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop",
           "lr_scheduler"]

from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.optim", __name__)
