"""Build the course notebooks from their sources.

    python scripts/build_notebooks.py                 # every course/NN_name.py
    python scripts/build_notebooks.py 03_accumulation # only these (names, paths, or "03")
    python scripts/build_notebooks.py --check         # rebuild in memory, fail if it differs

Each `course/NN_name.py` (a jupytext "percent" script, the one source of truth) becomes
`notebooks/NN_name.ipynb`: converted, given the `python3` kernel, executed top to bottom in
`notebooks/` and saved WITH its outputs. Everything that could vary between runs or machines
(cell ids, timings, the kernel's Python version) is fixed or removed, so a rebuild gives the
same bytes and `pytest --nbval` can compare every output, diagrams included."""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import jupytext
import nbformat

from notebook_run import execute, set_stored_metadata

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
NOTEBOOKS = ROOT / "notebooks"
KEPT_CELL_METADATA = ("tags",)  # everything else is set by the build
# A prediction: a markdown cell that hides its answer in "<details><summary>... Click to reveal".
HIDE_OUTPUT_TAG = "hide-output"  # a cell whose output is stored collapsed, prediction or not
# A worked answer to what the text asks the learner to write: its source is stored collapsed.
ANSWER_TAG = "answer"
PREDICTION = re.compile(r"<details>\s*<summary>.*?Click\s+to\s+reveal", re.DOTALL)
# Outputs must not depend on the machine: no addresses, no paths of this checkout.
UNSTABLE_OUTPUT = re.compile(r"0x[0-9a-f]{6,}|" + re.escape(str(ROOT)))


def course_sources(names: list[str] | None = None) -> list[Path]:
    """The sources to build: all of course/NN_*.py, or those named (by stem or path)."""
    if not names:
        return sorted(COURSE.glob("[0-9][0-9]_*.py"))
    sources = []
    for name in names:
        stem = Path(name).stem
        matches = [COURSE / f"{stem}.py"] if (COURSE / f"{stem}.py").exists() else sorted(
            COURSE.glob(f"{stem}_*.py"))  # "03" is enough to name 03_accumulation
        if len(matches) != 1:
            raise SystemExit(f"no single course source in course/ for {name!r}")
        sources.append(matches[0])
    return sources


def notebook_path(source: Path) -> Path:
    return NOTEBOOKS / f"{source.stem}.ipynb"


def source_to_notebook(source: Path) -> nbformat.NotebookNode:
    """The notebook a source describes, not yet executed, with stable ids and metadata."""
    notebook = jupytext.read(source, fmt="py:percent")
    set_stored_metadata(notebook)
    for index, cell in enumerate(notebook.cells):
        cell.id = f"{source.stem[:2]}-{index:03d}"
        cell.metadata = nbformat.from_dict(
            {key: cell.metadata[key] for key in KEPT_CELL_METADATA if key in cell.metadata})
    hide_answers(notebook, source.name)
    nbformat.validate(notebook)
    return notebook


def hide_answers(notebook: nbformat.NotebookNode, name: str) -> None:
    """Keep each prediction's answer out of sight until the learner runs the cell.

    The code cell after a prediction stores its output (nbval compares it) collapsed
    (`jupyter.outputs_hidden`): JupyterLab shows a bar in its place until the cell is run
    (running shows it again) or the learner clicks the bar. An assert-only cell right after it
    states the answer in its source, so that source is stored collapsed (`jupyter.source_hidden`).
    JupyterLab's bar previews the first line of what it hides; the course's JupyterLab shows
    what to do instead (scripts/course_lab.css). A cell tagged `hide-output` is stored collapsed
    too: a long listing that the text offers "one click away". A cell tagged `answer` holds a
    worked answer to what the text asks the learner to write: its source is stored collapsed,
    so the learner writes their own first; Run All still runs it.
    """
    cells = notebook.cells
    for cell in cells:
        tags = cell.metadata.get("tags", [])
        if HIDE_OUTPUT_TAG in tags:  # a long listing the text says is "one click away"
            collapse_output(cell)
        if ANSWER_TAG in tags:
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not PREDICTION.search(cell.source):
            continue
        answer = next((i for i in range(index + 1, len(cells))
                       if cells[i].cell_type == "code"), None)
        if answer is None:
            raise SystemExit(f"{name}: a prediction with no code cell after it")
        collapse_output(cells[answer])
        follower = cells[answer + 1] if answer + 1 < len(cells) else None
        if follower is not None and follower.cell_type == "code" and \
                is_assert_only(follower.source):
            follower.metadata.setdefault("jupyter", {})["source_hidden"] = True


def collapse_output(cell: nbformat.NotebookNode) -> None:
    # JupyterLab keeps `collapsed` in step with `outputs_hidden` and would add it on open.
    cell.metadata["collapsed"] = True
    cell.metadata.setdefault("jupyter", {})["outputs_hidden"] = True


def is_assert_only(source: str) -> bool:
    """True for a cell of `assert` statements (with comments and continuation lines)."""
    statements = ast.parse(source).body
    return bool(statements) and all(isinstance(s, ast.Assert) for s in statements)



def check_outputs(notebook: nbformat.NotebookNode, name: str) -> None:
    """Refuse outputs that would differ elsewhere, and `raises-exception` cells that do not."""
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        where = f"{name}, cell {index}"
        raised = any(out.output_type == "error" for out in cell.outputs)
        if "raises-exception" in cell.metadata.get("tags", []) and not raised:
            raise SystemExit(f"{where} is tagged raises-exception but did not raise")
        for out in cell.outputs:
            if out.output_type == "stream" and out.name == "stderr":
                raise SystemExit(f"{where} wrote to stderr (a warning?):\n{out.text}")
            text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
            if UNSTABLE_OUTPUT.search(text):
                raise SystemExit(f"{where} prints an address or a path:\n{text}")


def build(source: Path) -> str:
    """The executed notebook for `source`, as the exact text to store."""
    notebook = execute(source_to_notebook(source), NOTEBOOKS)
    check_outputs(notebook, source.stem)
    return nbformat.writes(notebook) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks to build (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="build in memory and fail if a stored notebook differs")
    args = parser.parse_args(argv)
    NOTEBOOKS.mkdir(exist_ok=True)
    stale = []
    for source in course_sources(args.names):
        target = notebook_path(source)
        text = build(source)
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.relative_to(ROOT))
            print(f"checked {target.relative_to(ROOT)}")
        else:
            target.write_text(text, encoding="utf-8")
            print(f"built {target.relative_to(ROOT)}")
    if stale:
        print("differs from a fresh build: " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
