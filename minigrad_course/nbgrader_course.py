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

The configuration names the course id and the exchange: those nbgrader already reads in this
environment (the students' image's etc/jupyter/nbgrader_config.py, hub/nbgrader_config.py),
else "minigrad" and /srv/nbgrader/exchange, where docs/jupyterhub.md mounts the class's shared
volume; --course-id and --exchange change them. It turns off collect's owner check, which
cannot tell students apart where every pod runs as jovyan, unless --check-owner (each student
an OS user of their own, docs/teaching.md). It also keeps nbgrader from showing students the
hidden tests in their feedback, and from warning that every check cell with hidden tests "has
changed" when nobody touched it (minigrad_course/nbgrader_preprocessors.py).

`lesson_for_class` gives the lessons as the students' image ships them: their links to
exercises/ lead to the assignment nbgrader fetches instead, the one copy a student works in and
submits."""
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
COURSE_ID = "minigrad"

# nbgrader's feedback is the autograded notebook, into which autograde put every hidden test
# back: its preprocessors, and nbgrader's ClearHiddenTests, which takes their lines out again.
FEEDBACK_PREPROCESSORS = ["nbgrader.preprocessors.GetGrades",
                          "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
                          "minigrad_course.nbgrader_preprocessors.ClearHiddenTestsFromFeedback"]
# What autograde does to a submission before running it, nbgrader's OverwriteCells replaced.
SANITIZE_PREPROCESSORS = ["nbgrader.preprocessors.ClearOutput",
                          "nbgrader.preprocessors.DeduplicateIds",
                          "nbgrader.preprocessors.OverwriteKernelspec",
                          "minigrad_course.nbgrader_preprocessors.RestoreCells",
                          "nbgrader.preprocessors.CheckCellMetadata"]


def python_list(items: list[str]) -> str:
    return "[\n" + "".join(f"    {item!r},\n" for item in items) + "]"


def config_text(course_id: str = COURSE_ID, exchange: str = EXCHANGE,
                check_owner: bool = False) -> str:
    if check_owner:
        owner = ("# Each student is an OS user of their own: collect checks that each submission\n"
                 "# belongs to the student it is filed under.\n"
                 "c.ExchangeCollect.check_owner = True\n")
    else:
        owner = ("# On a hub every server runs as the same user (jovyan, uid 1000): a\n"
                 "# submission's owner cannot tell students apart, and checking it would\n"
                 "# warn \"cheating attempt?\" for each of them. Who submitted comes from the\n"
                 "# hub's login (JUPYTERHUB_USER) instead. Where each student is an OS user of\n"
                 "# their own, lay the class out with --check-owner.\n"
                 "c.ExchangeCollect.check_owner = False\n")
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
{owner}
# Autograde puts each read-only cell back as written here. nbgrader compares checksums taken
# with the hidden tests against the student's copy, taken without them, and would warn that
# every check cell with hidden tests "has changed" for every student (nbgrader issue 1961);
# RestoreCells warns only about a cell the student did change.
c.Autograde.sanitize_preprocessors = {python_list(SANITIZE_PREPROCESSORS)}
# The feedback students fetch shows their notebook as graded, without the hidden tests' lines.
c.GenerateFeedback.preprocessors = {python_list(FEEDBACK_PREPROCESSORS)}
# ipykernel warns at every start that its sockets are TCP without encryption (they listen
# on 127.0.0.1 only): autograde would print it once per submission.
c.Execute.extra_arguments = ["--IPKernelApp.log_level=ERROR"]
# nbgrader 0.9.6 with SQLAlchemy 2 warns "Object of type <SubmittedAssignment> not in session"
# at every autograde; the submission is added and graded all the same
# (tests/grading/test_nbgrader.py).
import warnings  # noqa: E402

warnings.filterwarnings("ignore", message=r"Object of type <Submitted\\w+> not in session")
'''


def environment_settings() -> dict[str, str]:
    """The course id and exchange that nbgrader already reads in this environment (the students'
    image holds hub/nbgrader_config.py in its etc/jupyter/), by "course_id" and "exchange"; empty
    where nbgrader is not installed or sets neither."""
    try:
        from nbgrader.apps.baseapp import NbGrader
    except ImportError:
        return {}
    app = NbGrader(log_level="CRITICAL")  # no "No nbgrader_config.py file found" line
    app.load_config_file()
    found = {"course_id": app.config.CourseDirectory.get("course_id"),
             "exchange": app.config.Exchange.get("root")}
    return {key: value for key, value in found.items() if isinstance(value, str) and value}


# "[exercises/ex03_accumulation.ipynb](../exercises/ex03_accumulation.ipynb)": a lesson's link to
# its exercise notebook in the repository.
LESSON_TO_EXERCISE = re.compile(r"\[[^\]]*\]\(\.\./exercises/((ex\d+_\w+)\.ipynb)\)")
EXERCISES_HEADING = re.compile(r"^## Exercises\s*$", re.MULTILINE)
# Added after the cell that holds a lesson's "## Exercises" section (notebook 00's) in the
# class's copy.
CLASS_NOTE = """**In this class** your exercises are nbgrader assignments, and there is no
`exercises/` or `solutions/` folder in your home. Open the menu **Nbgrader > Assignment List**
and press **Fetch** beside an assignment: `ex03_accumulation` arrives as
`ex03_accumulation/ex03_accumulation.ipynb` in your home, where each lesson's "Exercises" link
leads. Work in that notebook, save it, and press **Submit** in the same list: that is the copy
your teacher grades. To grade it yourself first, run
`python -m minigrad_course.grade ex03_accumulation/ex03_accumulation.ipynb` in a terminal."""


def lesson_for_class(notebook: dict) -> dict:
    """A lesson as the class's hub ships it: each link to the repository's exercises/ leads to
    the assignment's notebook that nbgrader fetches into the student's home (the copy they
    submit), and notebook 00's "## Exercises" section is followed by how the class does them."""
    notebook = copy.deepcopy(notebook)
    cells = []
    for cell in notebook["cells"]:
        cells.append(cell)
        if cell["cell_type"] != "markdown":
            continue
        source = LESSON_TO_EXERCISE.sub(
            r"[\2/\1](../\2/\1) (fetch the assignment \2 first: Nbgrader > Assignment List)",
            markers.source_of(cell))
        cell["source"] = source
        if EXERCISES_HEADING.search(source):
            cells.append({"cell_type": "markdown", "id": "minigrad-class-note",
                          "metadata": {}, "source": CLASS_NOTE})
    notebook["cells"] = cells
    return notebook


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


def lay_out(target: Path, solutions: Path, names: list[str], course_id: str = COURSE_ID,
            exchange: str = EXCHANGE, check_owner: bool = False) -> list[Path]:
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
        config.write_text(config_text(course_id, exchange, check_owner), encoding="utf-8")
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
    parser.add_argument("--course-id", default=None,
                        help="nbgrader's course_id (default: the one nbgrader reads in this "
                             f"environment, else {COURSE_ID})")
    parser.add_argument("--exchange", default=None,
                        help="the exchange's folder, shared with the students' servers "
                             "(default: the one nbgrader reads in this environment, else "
                             f"{EXCHANGE})")
    parser.add_argument("--check-owner", action="store_true",
                        help="each student is an OS user of their own: collect checks who "
                             "owns each submission (default: not, as on a hub)")
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
    found = environment_settings()
    course_id = args.course_id or found.get("course_id", COURSE_ID)
    exchange = args.exchange or found.get("exchange", EXCHANGE)
    try:
        written = lay_out(args.directory, solutions, args.assignments, course_id, exchange,
                          args.check_owner)
    except NotACourseNotebook as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    if written and written[0].name == CONFIG:
        print(f"course id {course_id!r}, exchange {exchange}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
