"""Records what PyTorch prints for each program of the tutorial corpus (tests/corpus/*.py)
into tests/corpus/golden/<name>.txt; tests/test_corpus.py then runs each program on minigrad
and compares. Needs PyTorch 2.13 in this Python.

    python scripts/record_corpus.py          # (re)record every golden transcript
    python scripts/record_corpus.py --check  # exit 1 if a stored transcript differs or is missing
"""
from __future__ import annotations

import argparse
import importlib.metadata
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
GOLDEN = CORPUS / "golden"
RUNNER = CORPUS / "run_program.py"
REFERENCE_VERSION = "2.13."


def programs() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.py") if p != RUNNER)


def transcript(program: Path, *, minigrad: bool) -> str:
    """What the program prints, run in a fresh Python (with PyTorch, or minigrad as torch)."""
    command = [sys.executable, str(RUNNER), *(["--minigrad"] if minigrad else []), str(program)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600,
                          check=False)
    if done.stderr:
        raise RuntimeError(f"{program.name} wrote to stderr:\n{done.stderr}")
    return done.stdout


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
