"""Run the solutions notebooks top to bottom and store their outputs, as committed.

    python scripts/run_solutions.py                    # every solutions/*.ipynb
    python scripts/run_solutions.py 03_accumulation    # only these
    python scripts/run_solutions.py --check            # fail if a stored notebook differs

solutions/ is the hand-written source of the exercises: edit it in JupyterLab, run this, then
`python -m minigrad.exercises.generate`. Every cell must pass; what could vary between runs or
machines (timings, the kernel's Python version) is left out, so a rerun gives the same bytes."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
CELL_TIMEOUT_S = 60
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                 "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                 "pygments_lexer": "ipython3"}


def merged_streams(outputs: list) -> list:
    """Join consecutive prints to the same stream: how the kernel happens to batch them varies
    from run to run, what they say does not."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if output.output_type == "stream" and previous is not None and \
                previous.output_type == "stream" and previous.name == output.name:
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def run(path: Path) -> str:
    """The notebook at `path`, executed in a fresh kernel in its folder, as text to store."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, kernel_name="python3", timeout=CELL_TIMEOUT_S, record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    notebook.metadata = nbformat.from_dict({"kernelspec": KERNELSPEC,
                                            "language_info": LANGUAGE_INFO})
    for index, cell in enumerate(notebook.cells):
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = merged_streams(cell.outputs)
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
