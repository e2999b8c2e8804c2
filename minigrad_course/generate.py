"""Write the learners' notebooks, exercises/*.ipynb, from the instructor's, solutions/*.ipynb
(nbgrader's "release" step). scripts/build_notebooks.py does it after building solutions/ from
the sources, course/exercises/*.py; on its own:

    python -m minigrad_course.generate            # rewrite exercises/ from solutions/
    python -m minigrad_course.generate --check    # exit 1 if exercises/ is out of date

Worked answers become `# YOUR CODE HERE` + `raise NotImplementedError()`, hidden tests go,
outputs are cleared, the metadata is the solution's. Answer and check cells get the tag
`raises-exception`: unanswered, they fail, and nbval is told to expect it. The grading cell
gets `nbval-skip`: an exercise stores no outputs, so nbval would start a grading of the
unanswered notebook and compare its report with nothing; tests/grading/test_grade.py grades
every exercise once and reads each report. solutions/ is only ever read. The course's folder
is found from the current folder upwards (see `course`), or given with --course, or both
notebook folders with --solutions and --exercises."""
from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

from .checks import markers
from .course import EXERCISES, SOLUTIONS, CourseNotFound, find_course


def to_exercise(solution: dict, where: str) -> dict:
    """The learner's copy of a solutions notebook (given and returned as plain dicts)."""
    notebook = copy.deepcopy(solution)
    markers.exercises(notebook, where)  # refuses notebooks that break the conventions
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        here = f"{where}, cell {index}"
        source = markers.source_of(cell)
        if markers.is_answer(cell):
            source = markers.clear_solution(source, here)
        elif markers.BEGIN_SOLUTION in source:
            raise markers.MarkerError(f"{here}: a solution region outside an answer cell")
        if markers.is_check(cell) or markers.is_answer(cell):
            source = markers.remove_hidden_tests(source, here)
            tags = markers.tags(cell)
            if markers.EXPECTED_FAILURE_TAG not in tags:
                cell["metadata"]["tags"] = [*tags, markers.EXPECTED_FAILURE_TAG]
        elif markers.BEGIN_HIDDEN in source:
            raise markers.MarkerError(f"{here}: hidden tests outside a check cell")
        elif (markers.grade_id(cell) or "").endswith(markers.GRADING_CELL_SUFFIX):
            tags = markers.tags(cell)
            if markers.NOT_RUN_BY_NBVAL_TAG not in tags:
                cell["metadata"]["tags"] = [*tags, markers.NOT_RUN_BY_NBVAL_TAG]
        cell["source"] = source
        cell["outputs"] = []
        cell["execution_count"] = None
    # The solution's kernel and language, as scripts/build_notebooks.py stores them: what the
    # kernel reports when JupyterLab opens the notebook, less the Python version (see
    # minigrad_course/lab_contents.py), so opening an exercise does not mark it unsaved.
    notebook["metadata"] = {key: solution["metadata"][key]
                            for key in ("kernelspec", "language_info")}
    return notebook


def render(notebook: dict) -> str:
    """The exact text Jupyter would save: nbformat's layout, so diffs stay small."""
    import nbformat

    node = nbformat.from_dict(notebook)
    nbformat.validate(node)
    return nbformat.writes(node) + "\n"


def generated(solutions: Path) -> dict[str, str]:
    """File name -> text of every exercise notebook that `solutions` produces."""
    out = {}
    for path in sorted(solutions.glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        out[path.name] = render(to_exercise(notebook, path.name))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minigrad_course.generate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", type=Path, default=None,
                        help="the course's folder (default: the current folder or the nearest "
                             "one above it with a solutions/ folder of notebooks)")
    parser.add_argument("--solutions", type=Path, default=None,
                        help="the worked notebooks (default: COURSE/solutions)")
    parser.add_argument("--exercises", type=Path, default=None,
                        help="where the learners' notebooks go (default: COURSE/exercises)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if exercises/ differs from what it would be")
    args = parser.parse_args(argv)
    if args.solutions is None or args.exercises is None:
        try:
            course = args.course or find_course()
        except CourseNotFound as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        args.solutions = args.solutions or course / SOLUTIONS
        args.exercises = args.exercises or course / EXERCISES
    if not args.solutions.is_dir():
        print(f"error: {args.solutions} is not a folder of solutions notebooks", file=sys.stderr)
        return 2
    if args.exercises.resolve() == args.solutions.resolve():
        parser.error("--exercises must not be the solutions folder")
    try:
        expected = generated(args.solutions)
    except markers.MarkerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    present = {path.name for path in args.exercises.glob("*.ipynb")}
    stale = sorted(name for name, text in expected.items() if name not in present or
                   (args.exercises / name).read_text(encoding="utf-8") != text)
    extra = sorted(present - set(expected))
    if args.check:
        for name in stale:
            print(f"out of date: {args.exercises.name}/{name}")
        for name in extra:
            print(f"no solutions notebook for: {args.exercises.name}/{name}")
        return 1 if stale or extra else 0
    args.exercises.mkdir(exist_ok=True)
    for name in stale:
        (args.exercises / name).write_text(expected[name], encoding="utf-8")
        print(f"wrote {args.exercises.name}/{name}")
    for name in extra:
        print(f"warning: {args.exercises.name}/{name} has no solutions notebook; delete it?")
    return 0


if __name__ == "__main__":
    sys.exit(main())
