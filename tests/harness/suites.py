"""The two suites of programs written for PyTorch that minigrad must show the same for: where
their programs and PyTorch's transcripts are, and which programs are compared up to float32
rounding (tests/parity/test_programs.py compares, scripts/record_transcripts.py records)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Suite:
    name: str
    folder: Path  # the programs, *.py
    transcripts: Path  # PyTorch's transcript of each, NAME.txt
    # Programs compared up to float32 rounding rather than byte for byte (see FLOAT_ORDER).
    float_order: frozenset[str] = frozenset()
    # Programs that take over a second on minigrad: marked slow, left out of `make check`.
    slow: frozenset[str] = frozenset()
    # Programs run on PyTorch with its float32 sqrt correctly rounded where this CPU's MKL does
    # not round it so (MKL_SQRT).
    mkl_sqrt: frozenset[str] = frozenset()

    def programs(self) -> list[Path]:
        return sorted(p for p in self.folder.glob("*.py")
                      if not p.name.startswith("_"))

    def transcript(self, program: Path) -> Path:
        return self.transcripts / f"{program.stem}.txt"

    def stale_transcripts(self) -> list[Path]:
        names = {p.stem for p in self.programs()}
        return sorted(t for t in self.transcripts.glob("*.txt") if t.stem not in names)

    def is_slow(self, program: Path) -> bool:
        return program.stem in self.slow


# Corpus programs whose printed floats differ from PyTorch's in the last digits: they print
# float32 results in full (a loss via .item(), or %.6f of one) that go through matrix products
# (MKL's sdot/sgemm), exp (Sleef) or sums along one dimension, which PyTorch computes in an order
# and with roundings numpy does not follow (whole-tensor sums do follow it:
# fidelity/summation.py). For these, every character but the digits of the numbers must match,
# and every number must agree with PyTorch's as numpy.isclose's defaults (rtol 1e-5, atol 1e-8)
# say: float32 rounding, not a different result. The largest differences measured are 4e-5
# relative on a coefficient of 5e-5 (pytorch_polynomial_tensor), and 1e-9 absolute on a value
# near 1e-9. (tests/corpus/README.md)
FLOAT_ORDER = frozenset({
    "karpathy_makemore_backprop", "karpathy_makemore_bigram_nn", "jovian_linear_regression",
    "karpathy_makemore_mlp", "nyu_spiral_classification", "pytorch_dynamic_net",
    "pytorch_polynomial_custom_function", "pytorch_polynomial_nn", "pytorch_polynomial_optim",
    "pytorch_polynomial_tensor", "udacity_training_neural_networks", "dvgodoy_chapter2",
    "fastai_course22p2_minibatch", "karpathy_makemore_wavenet",
    "mrdbourke_common_errors", "pytorch_polynomial_module", "cs224n_word_window",
    "pytorch_examples_time_sequence", "fastai_course22p2_initializing", "mit_lab2_mnist",
    "mit_lab1_music_generation", "d2l_gd_sgd", "dlwizard_linear_regression",
    "shusentang_weight_decay", "dataflowr_linear_regression",
    "graykode_word2vec", "raschka_llm_pretraining",
    "jcjohnson_two_layer_net"})

# The corpus programs that take over a second each on minigrad (training loops; measured one
# after another on a busy 2-core machine: from 1.3 s for nyu_spiral_classification to 28 s for
# uvadlc_intro_to_pytorch); the others take well under a second each.
CORPUS_SLOW = frozenset({
    "cs231n_pytorch", "d2l_gd_sgd", "d2l_lr_scheduler", "dlwpt_autograd", "dlwpt_optimizers",
    "dlwpt_parameter_estimation", "fastai_course22p2_activations",
    "fastai_course22p2_initializing", "fastai_course22p2_minibatch", "hunkim_logistic_regression",
    "mit_lab1_music_generation", "mrdbourke_workflow_together", "nyu_spiral_classification",
    "pytorch_dynamic_net", "pytorch_examples_time_sequence", "pytorch_optimization_tutorial",
    "pytorch_quickstart", "raschka_mlbook_ch13_mechanics", "uvadlc_intro_to_pytorch",
    "graykode_nnlm", "graykode_textrnn",
    "graykode_word2vec", "raschka_llm_pretraining", "d2l_rnn_scratch", "uvadlc_init_optimization",
    "uvadlc_energy_models", "uvadlc_meta_learning"})

# Corpus programs whose PyTorch output depends on the CPU through Intel MKL's float32 sqrt, which
# PyTorch's x86-64 builds call and which rounds correctly on some CPUs (the AVX2 machine the
# transcripts were recorded on) but not on others (an AMD EPYC with AVX-512: one value in six an
# ulp off, and an Adam loop prints other last digits). Their transcripts are what PyTorch prints
# with a correctly rounded sqrt; where this CPU's is not, PyTorch runs them with its float32 sqrt
# rounded correctly (harness/programs.py), the one thing that varies, so the comparison stays
# exact. minigrad's sqrt is correctly rounded everywhere (minigrad/fidelity/vector_math.py), and
# its transcript is compared exactly on any CPU.
MKL_SQRT = frozenset({"dlwpt_optimizers", "raschka_llm_gpt", "raschka_llm_pretraining",
                      "jcjohnson_two_layer_net"})

SUITES = {
    "golden": Suite("golden", TESTS / "golden" / "programs", TESTS / "golden" / "expected"),
    "corpus": Suite("corpus", TESTS / "corpus", TESTS / "corpus" / "golden",
                    float_order=FLOAT_ORDER, slow=CORPUS_SLOW, mkl_sqrt=MKL_SQRT),
}
