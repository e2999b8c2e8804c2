"""Lay out an nbgrader course from the course's solutions/, for an instructor with a class:

    python -m minigrad_course.nbgrader_course DIR                 # every exercise notebook
    python -m minigrad_course.nbgrader_course DIR ex03_accumulation ex04_resetting_gradients

writes DIR/source/<assignment>/<assignment>.ipynb, one assignment per solutions notebook
(ex03_accumulation holds ex03_accumulation.ipynb), and DIR/nbgrader_config.py unless there is
one already. Then, in DIR,
nbgrader's own commands take over: `nbgrader generate_assignment ex03_accumulation` makes the
students' copy (the same cells as exercises/), `release_assignment`, `collect`, `autograde`,
`generate_feedback`. See docs/teaching.md.

The solutions notebooks already follow nbgrader's conventions; only their links change, and
each check cell gains a hidden test that undoes a student's tampering (`guarded`). In the
repository, exercises/ex03 links to ../notebooks/03_accumulation.ipynb and to ex04 beside it; a
student who fetched the assignment has ~/ex03_accumulation/ex03_accumulation.ipynb, no lessons,
and the next exercise, once fetched, in ~/ex04_resetting_gradients/. `for_class` rewrites those
links, and nothing else.

The configuration names the exchange (--exchange, default /srv/nbgrader/exchange, where
docs/jupyterhub.md mounts the class's shared volume) and turns off collect's owner check, which
cannot work where every pod runs as jovyan."""
from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path

from .checks import markers
from .course import SOLUTIONS, CourseNotFound, find_course
from .generate import render  # nbformat's layout, as exercises/ are written

CONFIG = "nbgrader_config.py"
SOURCE = "source"

# "[notebook 03](../notebooks/03_accumulation.ipynb)": the lesson, in the repository's notebooks/.
LESSON_LINK = re.compile(r"\[notebook (\d+)\]\(\.\./notebooks/([\w-]+\.ipynb)\)")
# "[exercises 04](ex04_resetting_gradients.ipynb)": the next exercise notebook, beside this one.
EXERCISE_LINK = re.compile(r"\[exercises (\d+)\]\(((ex\d+_\w+)\.ipynb)\)")
# "from minigrad_course.checks import accumulation as check": the notebook's check module.
CHECK_IMPORT = re.compile(r"^from minigrad_course\.checks import (\w+) as check$", re.MULTILINE)


class NotACourseNotebook(Exception):
    """A notebook that cannot become an assignment (the message is one line)."""


# Where the class's hub mounts the exchange's shared volume in every pod (docs/jupyterhub.md);
# hub/nbgrader_config.py gives students the same. nbgrader's own default,
# /usr/local/share/nbgrader/exchange, is created only by root and is shared by no two pods.
EXCHANGE = "/srv/nbgrader/exchange"


def config_text(course_id: str, exchange: str = EXCHANGE) -> str:
    return f'''"""nbgrader's configuration for the minigrad course, written by
python -m minigrad_course.nbgrader_course. Run nbgrader's commands in this folder."""
c = get_config()  # noqa: F821 (nbgrader defines it)

c.CourseDirectory.course_id = {course_id!r}
# The answer placeholder that the course's grader and checks recognise as "not attempted".
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
# A cell may run 30 s, as with python -m minigrad_course.grade.
c.ExecutePreprocessor.timeout = 30
# The folder shared with every student's server (the students' nbgrader_config.py names the
# same one): release puts assignments there, submit hands them in, collect takes them.
c.Exchange.root = {exchange!r}
# On a hub every server runs as the same user (jovyan, uid 1000): a submission's owner cannot
# tell students apart, and checking it would warn "cheating attempt?" for each of them. Who
# submitted comes from the hub's login (JUPYTERHUB_USER) instead.
c.CollectApp.check_owner = False
'''


def for_class(notebook: dict) -> dict:
    """The notebook as a student of an nbgrader class gets it: links that only work in the
    repository point where the student's files are."""
    notebook = copy.deepcopy(notebook)
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = markers.source_of(cell)
        source = LESSON_LINK.sub(r"notebook \1 (`\2`, in the course's lessons)", source)
        source = EXERCISE_LINK.sub(r"[exercises \1](../\3/\2) (once you have fetched the "
                                   r"assignment \3)", source)
        cell["source"] = source
    return notebook


def guarded(notebook: dict, where: str) -> dict:
    """The source notebook with each check cell opening on a hidden test that binds `check`
    again to the real check module and refuses to judge (`Tampered`) if the notebook's code
    replaced one of the checks' functions, numpy's or minigrad's. nbgrader's autograde puts
    every check cell's source back from the gradebook, hidden tests included, so a student can
    neither see nor remove it; without it, `check` rebound to an object that does nothing, or a
    check function replaced by a no-op, in any answer cell would score every point. (The
    course's own grader does the same before each check cell; docs/teaching.md says what
    in-process grading still cannot stop.)"""
    modules = {found.group(1) for cell in notebook["cells"] if cell["cell_type"] == "code"
               for found in CHECK_IMPORT.finditer(markers.source_of(cell))}
    if len(modules) != 1:
        raise NotACourseNotebook(f"{where}: not an exercise notebook of this course (it should "
                                 "import exactly one check module as `check`)")
    module = modules.pop()
    guard = "\n".join((markers.BEGIN_HIDDEN,
                       "# The real checks, whatever the notebook's code rebound or replaced.",
                       f"from minigrad_course.checks import _feedback, {module} as check",
                       "_feedback.refuse_if_tampered()",
                       markers.END_HIDDEN))
    notebook = copy.deepcopy(notebook)
    for cell in notebook["cells"]:
        if markers.is_check(cell):
            cell["source"] = guard + "\n" + markers.source_of(cell)
    return notebook


def load_solution(path: Path) -> dict:
    """A solutions notebook, checked to be one of this course's. Raises NotACourseNotebook."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotACourseNotebook(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotACourseNotebook(f"{path}: not a notebook ({error})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotACourseNotebook(f"{path}: valid JSON, but not a notebook (no list of cells)")
    try:
        markers.exercises(notebook, path.name)
    except markers.MarkerError as error:
        raise NotACourseNotebook(f"not an exercise notebook of this course: {error}") from None
    if not any(markers.is_answer(cell) for cell in notebook["cells"]):
        raise NotACourseNotebook(f"{path}: not an exercise notebook of this course "
                                 "(it has no answer cell)")
    return notebook


def lay_out(target: Path, solutions: Path, names: list[str], course_id: str,
            exchange: str = EXCHANGE) -> list[Path]:
    """Write the course into `target`; returns the files written. Raises NotACourseNotebook."""
    available = {path.stem: path for path in sorted(solutions.glob("*.ipynb"))}
    for name in names:
        if name.removesuffix(".ipynb") not in available:
            raise NotACourseNotebook(f"no notebook {name} in {solutions}; there are: "
                                     + ", ".join(available))
    chosen = [n.removesuffix(".ipynb") for n in names] or list(available)
    texts = {name: render(guarded(for_class(load_solution(available[name])), name))
             for name in chosen}
    written = []
    for name, text in texts.items():
        path = target / SOURCE / name / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    config = target / CONFIG
    if not config.exists():  # an instructor's own settings (the exchange, ...) stay
        config.write_text(config_text(course_id, exchange), encoding="utf-8")
        written.insert(0, config)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minigrad_course.nbgrader_course",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, help="the nbgrader course folder to write")
    parser.add_argument("assignments", nargs="*",
                        help="solutions notebooks to include, by name (default: all)")
    parser.add_argument("--course", type=Path, default=None,
                        help="the course's folder, holding solutions/ (default: the current "
                             "folder or the nearest one above it with one)")
    parser.add_argument("--course-id", default="minigrad",
                        help="nbgrader's course_id (default: minigrad)")
    parser.add_argument("--exchange", default=EXCHANGE,
                        help="the exchange's folder, shared with the students' servers "
                             f"(default: {EXCHANGE})")
    args = parser.parse_args(argv)
    try:
        course = args.course or find_course()
    except CourseNotFound as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    solutions = course / SOLUTIONS
    if not any(solutions.glob("*.ipynb")):
        print(f"error: {solutions} holds no notebooks", file=sys.stderr)
        return 2
    if args.directory.exists() and not args.directory.is_dir():
        print(f"error: {args.directory} is a file, not a folder", file=sys.stderr)
        return 2
    try:
        written = lay_out(args.directory, solutions, args.assignments, args.course_id,
                          args.exchange)
    except NotACourseNotebook as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
