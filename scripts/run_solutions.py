"""Run the solutions notebooks top to bottom and store their outputs, as committed.

    python scripts/run_solutions.py                    # every solutions/*.ipynb
    python scripts/run_solutions.py ex03_accumulation  # only these
    python scripts/run_solutions.py --check            # fail if a stored notebook differs

solutions/ is the hand-written source of the exercises: edit it in JupyterLab, run this, then
`python -m minigrad_course.generate`. Every cell must pass; what could vary between runs or
machines (timings, the kernel's Python version) is left out, so a rerun gives the same bytes."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

from notebook_run import execute

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"


def run(path: Path) -> str:
    """The notebook at `path`, executed in a fresh kernel in its folder, as text to store."""
    notebook = execute(nbformat.read(path, as_version=4), path.parent)
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "stream" and output.name == "stderr":
                raise SystemExit(f"{path.name}, cell {index} wrote to stderr:\n{output.text}")
    return nbformat.writes(notebook) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks to run (default: all)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a diff")
    args = parser.parse_args(argv)
    paths = [SOLUTIONS / f"{Path(n).stem}.ipynb" for n in args.names] or \
        sorted(SOLUTIONS.glob("*.ipynb"))
    stale = []
    for path in paths:
        text = run(path)
        if args.check:
            if path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
        print(f"{'checked' if args.check else 'ran'} solutions/{path.name}")
    for name in stale:
        print(f"differs from a fresh run: solutions/{name}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
