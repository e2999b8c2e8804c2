"""Records what PyTorch prints for each program of the tutorial corpus (tests/corpus/*.py)
into tests/corpus/golden/<name>.txt; tests/test_corpus.py then runs each program on minigrad
and compares. Needs PyTorch 2.13 in this Python.

    python scripts/record_corpus.py          # (re)record every golden transcript
    python scripts/record_corpus.py --check  # exit 1 if a stored transcript differs or is missing
"""
from __future__ import annotations

import argparse
import functools
import importlib.metadata
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
GOLDEN = CORPUS / "golden"
RUNNER = CORPUS / "run_program.py"
REFERENCE_VERSION = "2.13."

# Programs whose PyTorch output depends on the CPU through Intel MKL's float32 sqrt, which
# PyTorch's x86-64 builds call and which rounds correctly on some CPUs (the AVX2 machine the
# transcripts were recorded on) but not on others (an AMD EPYC with AVX-512: one value in six an
# ulp off, and an Adam loop prints other last digits). Their transcripts are what PyTorch prints
# with a correctly rounded sqrt; where this CPU's is not, PyTorch runs them with its float32 sqrt
# rounded correctly (run_program.py --correctly-rounded-sqrt), the one thing that varies, so the
# comparison stays exact. minigrad's sqrt is correctly rounded everywhere
# (minigrad/fidelity/vector_math.py), and its transcript is compared exactly on any CPU.
MKL_SQRT = ("dlwpt_optimizers",)


def programs() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.py") if p != RUNNER)


def transcript(program: Path, *, minigrad: bool, correctly_rounded_sqrt: bool = False) -> str:
    """What the program prints, run in a fresh Python (with PyTorch, or minigrad as torch)."""
    if minigrad:
        options = ["--minigrad"]
    elif correctly_rounded_sqrt or (program.stem in MKL_SQRT
                                    and not torch_sqrt_is_correctly_rounded()):
        options = ["--correctly-rounded-sqrt"]
    else:
        options = []
    command = [sys.executable, str(RUNNER), *options, str(program)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600,
                          check=False)
    if done.stderr:
        raise RuntimeError(f"{program.name} wrote to stderr:\n{done.stderr}")
    return done.stdout


@functools.cache
def torch_sqrt_is_correctly_rounded() -> bool:
    """Whether PyTorch's float32 sqrt gives the correctly rounded value on this CPU, for 10000
    values (on a CPU where it does not, about one in six differs)."""
    probe = ("import numpy as np, torch\n"
             "x = np.random.default_rng(0).random(10000, dtype=np.float32) * 100\n"
             "exact = np.sqrt(x.astype(np.float64)).astype(np.float32)\n"
             "print(np.array_equal(torch.from_numpy(x).sqrt().numpy(), exact))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip() == "True"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the stored transcripts instead of writing them")
    args = parser.parse_args()
    version = importlib.metadata.version("torch")
    if not version.startswith(REFERENCE_VERSION):
        print(f"record_corpus: PyTorch {version} is installed; the reference is "
              f"{REFERENCE_VERSION}x", file=sys.stderr)
        return 2
    GOLDEN.mkdir(exist_ok=True)
    stale = []
    for program in programs():
        text = transcript(program, minigrad=False)
        golden = GOLDEN / f"{program.stem}.txt"
        if args.check:
            if not golden.exists() or golden.read_text() != text:
                stale.append(golden.name)
        else:
            golden.write_text(text)
            print(f"recorded {golden.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    if stale:
        print(f"record_corpus: stale or missing: {', '.join(stale)} "
              f"(run python scripts/record_corpus.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
