"""docs/api.md is generated from the code (scripts/write_api_docs.py) and must be current."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
write_api_docs = importlib.import_module("write_api_docs")


def test_api_docs_are_what_the_code_says() -> None:
    assert write_api_docs.OUTPUT.read_text() == write_api_docs.render(), (
        "docs/api.md is stale: run python scripts/write_api_docs.py")


def test_api_docs_list_the_tutorial_apis() -> None:
    text = write_api_docs.render()
    for name in ("torch.device", "torch.cuda.is_available", "torch.Generator",
                 "torch.FloatTensor", "torch.autograd.Variable", "torch.inference_mode",
                 "torch.nn.Flatten", "torch.nn.functional.one_hot",
                 "torch.nn.functional.binary_cross_entropy_with_logits", "torch.optim.RMSprop",
                 "Tensor.nelement", "Tensor.floor_divide",
                 "Tensor.backward", "Tensor.grad", "torch.nn.Conv2d",
                 "torch.nn.functional.max_pool2d"):
        assert f"| `{name}` |" in text, name


def test_a_name_minigrad_lacks_is_not_listed() -> None:
    text = write_api_docs.render().partition("## Coverage")[0]  # after it: what is missing
    assert "`torch.fft`" not in text and "`torch.nn.Transformer`" not in text
