"""Build every notebook of the course from its source.

    python scripts/build_notebooks.py                  # all of them
    python scripts/build_notebooks.py 03               # lesson 03 and exercise notebook 03
    python scripts/build_notebooks.py 03_accumulation ex05_non_scalar_outputs   # by name
    python scripts/build_notebooks.py --check          # build in memory, fail if a file differs
    python scripts/build_notebooks.py 03 --test        # build, then run every test of them

The sources are jupytext "percent" scripts, the only files edited by hand (docs/authoring.md):

    course/NN_name.py               -> notebooks/NN_name.ipynb            the learner's form, run
                                       solutions/lessons/NN_name.ipynb    answered form, run (builds)
    course/exercises/exNN_name.py   -> solutions/exNN_name.ipynb          the instructor's, run
                                       exercises/exNN_name.ipynb          the learner's, not run

scripts/notebook_forms.py says what each form holds. A notebook that runs is run top to bottom
in a fresh `python3` kernel in its folder and saved WITH its outputs. Everything that could vary
between runs or machines (cell ids, timings, the kernel's Python version) is fixed or removed,
so a rebuild gives the same bytes and `pytest --nbval` can compare every output, diagrams
included. Outputs that would differ elsewhere (an address, this checkout's path, a warning)
stop the build."""
from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import nbformat

import notebook_forms as forms
from minigrad_course import generate
from minigrad_course.checks import markers
from notebook_forms import HIDE_OUTPUT_TAG, PREDICTION, hide_answers  # noqa: F401 - for tests
from notebook_run import execute

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
EXERCISE_SOURCES = COURSE / "exercises"
NOTEBOOKS = ROOT / "notebooks"
SOLUTIONS = ROOT / "solutions"
ANSWERED_LESSONS = SOLUTIONS / "lessons"
EXERCISES = ROOT / "exercises"
# Outputs must not depend on the machine: no addresses, no paths of this checkout.
UNSTABLE_OUTPUT = re.compile(r"0x[0-9a-f]{6,}|" + re.escape(str(ROOT)))


def course_sources(names: list[str] | None = None) -> list[Path]:
    """The lessons' sources: all of course/NN_*.py, or those `names` select."""
    return [source for source in sources(names) if source.parent == COURSE]


def exercise_sources(names: list[str] | None = None) -> list[Path]:
    return [source for source in sources(names) if source.parent == EXERCISE_SOURCES]


def sources(names: list[str] | None = None) -> list[Path]:
    """Every source, or those named: "03" names lesson 03 and exercise notebook 03, "ex03" the
    exercise notebook, "03_accumulation" (or a path to it) the lesson."""
    found = sorted(COURSE.glob("[0-9][0-9]_*.py")) + sorted(EXERCISE_SOURCES.glob("ex*.py"))
    if not names:
        return found
    chosen = []
    for name in names:
        stem = Path(name).stem
        matches = [source for source in found if source.stem == stem or
                   source.stem.startswith(f"{stem}_") or source.stem.startswith(f"ex{stem}_")
                   and stem.isdigit()]
        if not matches:
            raise SystemExit(f"no course source for {name!r} in course/ or course/exercises/")
        chosen += [source for source in matches if source not in chosen]
    return chosen


def notebook_path(source: Path) -> Path:
    """Where a lesson's learner's form is stored."""
    return NOTEBOOKS / f"{source.stem}.ipynb"


def answered_path(source: Path) -> Path:
    return ANSWERED_LESSONS / f"{source.stem}.ipynb"


def source_to_notebook(source: Path) -> nbformat.NotebookNode:
    """A lesson's learner's form, not yet run."""
    return forms.lesson_forms(source)[0]


def outputs(source: Path, save_first: bool = False) -> dict[Path, Callable[[], str | None]]:
    """Each file a source gives -> how to make its text (None: the file must not exist).
    `save_first`: store a solutions notebook unrun before running it, since its grading cell
    grades the saved file, which must then hold the answers being run, not the last build's."""
    if source.parent == EXERCISE_SOURCES:
        solution = forms.solutions_notebook(source)
        name = f"{source.stem}.ipynb"

        def run_solution() -> str:
            if save_first:
                (SOLUTIONS / name).write_text(nbformat.writes(solution) + "\n", encoding="utf-8")
            return run(solution, SOLUTIONS, source)

        return {SOLUTIONS / name: run_solution,
                EXERCISES / name: lambda: generate.render(generate.to_exercise(solution, name))}
    learner, answered = forms.lesson_forms(source)
    return {notebook_path(source): lambda: run(learner, NOTEBOOKS, source),
            answered_path(source): lambda: answered and run(answered, ANSWERED_LESSONS, source)}


def run(notebook: nbformat.NotebookNode, folder: Path, source: Path) -> str:
    """The notebook run in `folder`, as the exact text to store."""
    folder.mkdir(parents=True, exist_ok=True)
    check_outputs(execute(notebook, folder), f"{source.stem} in {folder.relative_to(ROOT)}/")
    return nbformat.writes(notebook) + "\n"


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


def test(chosen: list[Path]) -> int:
    """Every test that judges the notebooks of `chosen`: nbval on each built notebook but the
    worked solutions, which the grader runs and compares (tests/grading/test_solutions.py);
    then the tests that compare them with their sources and with PyTorch, and the wrong and
    right answers of their check module (tests selected by the name without its number:
    "accumulation")."""
    built = [str(path.relative_to(ROOT)) for source in chosen for path in outputs(source)
             if path.exists() and path.parent != SOLUTIONS]
    names = sorted({source.stem.split("_", 1)[1] for source in chosen})
    pytest = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:randomly", "-q"]
    suites = ["tests/course/test_notebooks_built.py", "tests/course/test_exercises_in_sync.py",
              "tests/parity/test_notebooks_on_torch.py", "tests/course/test_answers.py",
              "tests/grading/test_solutions.py"]
    selection = " or ".join([*names, "test_every_"])  # and the tests over every notebook
    failed = 0
    for command in ([*pytest, *built], [*pytest, *suites, "-k", selection]):
        print("$", shlex.join(command[2:]), flush=True)
        failed |= subprocess.run(command, cwd=ROOT, check=False).returncode
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="sources to build (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="build in memory and fail if a stored notebook differs")
    parser.add_argument("--test", action="store_true",
                        help="after building, run every test of the notebooks built")
    args = parser.parse_args(argv)
    stale = []
    chosen = sources(args.names)
    for source in chosen:
        try:
            made = outputs(source, save_first=not args.check)
        except (forms.SourceError, markers.MarkerError) as error:
            raise SystemExit(f"error: {error}") from None
        for target, make in made.items():
            text = make()
            shown = target.relative_to(ROOT)
            stored = target.read_text(encoding="utf-8") if target.exists() else None
            if args.check:
                if stored != text:
                    stale.append(str(shown))
                if text is not None:
                    print(f"checked {shown}")
            elif text is None:
                if stored is not None:
                    target.unlink()
                    print(f"removed {shown} (the lesson has no build)")
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                print(f"built {shown}")
    if stale:
        print("differs from a fresh build: " + ", ".join(stale), file=sys.stderr)
        return 1
    return test(chosen) if args.test else 0


if __name__ == "__main__":
    sys.exit(main())
