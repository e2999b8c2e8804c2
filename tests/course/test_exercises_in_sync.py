"""solutions/ is built from the exercise notebooks' sources (course/exercises/exNN_name.py) and
exercises/ generated from solutions/: neither may drift from its source; the snippets the checks
run are the very ones the notebooks show."""
from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest

from minigrad_course import generate
from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"
NAMES = sorted(path.name for path in SOLUTIONS.glob("*.ipynb"))
sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is a folder of scripts, not a package
import build_notebooks
import notebook_forms

SOURCES = build_notebooks.exercise_sources()


def test_every_source_has_its_notebooks_and_every_notebook_a_source() -> None:
    assert [f"{source.stem}.ipynb" for source in SOURCES] == NAMES, (
        "solutions/ and course/exercises/ list different names: build with "
        "scripts/build_notebooks.py and never add a notebook by hand")


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_solutions_are_their_sources(source: Path) -> None:
    """Converted again (not run, so fast), a source gives the stored cells: a source edited
    without a rebuild, or a solutions notebook edited by hand, fails here."""
    def cells(notebook: dict) -> list[tuple]:
        return [(c["id"], c["cell_type"], markers.source_of(c), c["metadata"])
                for c in notebook["cells"]]

    built = notebook_forms.solutions_notebook(source)
    stored = json.loads((SOLUTIONS / f"{source.stem}.ipynb").read_text(encoding="utf-8"))
    assert cells(stored) == cells(built), (
        f"solutions/{source.stem}.ipynb differs from course/exercises/{source.name}: run "
        f"scripts/build_notebooks.py {source.stem}")
    assert stored["metadata"] == built.metadata


@pytest.mark.parametrize(("cells", "message"), [
    ("# %%\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n\n# %%\ncheck.x(x)",
     'an answer cell needs grade_id="98-name"'),
    ('# %% grade_id="98-x"\nx = 1', "only an answer cell (with worked lines) has a grade_id"),
    (('# %% grade_id="98-x"\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n\n'
      "# %% [markdown]\n# text"), "needs its check cell right after it"),
])
def test_a_source_that_breaks_the_conventions_is_refused(tmp_path: Path, cells: str,
                                                         message: str) -> None:
    source = tmp_path / "ex98_broken.py"
    source.write_text(f"# %%\nimport minigrad as torch\n\n{cells}\n", encoding="utf-8")
    with pytest.raises((notebook_forms.SourceError, markers.MarkerError),
                       match=re.escape(message)):
        notebook_forms.solutions_notebook(source)


def test_exercises_are_what_the_generator_writes() -> None:
    expected = generate.generated(SOLUTIONS)
    present = sorted(path.name for path in EXERCISES.glob("*.ipynb"))
    assert present == sorted(expected), "exercises/ and solutions/ hold different notebooks"
    stale = [name for name, text in expected.items()
             if (EXERCISES / name).read_text(encoding="utf-8") != text]
    assert not stale, (f"exercises out of date: {stale}; run scripts/build_notebooks.py "
                       "after editing course/exercises/")


def test_generator_finds_the_course_from_where_it_runs(tmp_path: Path, monkeypatch,
                                                      capsys) -> None:
    """Below the course folder it checks the course's exercises/; outside any course it says so
    in one line and exits 2, writing nothing."""
    monkeypatch.chdir(ROOT / "exercises")
    assert generate.main(["--check"]) == 0
    monkeypatch.chdir(tmp_path)
    assert generate.main(["--check"]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1 and "no course here" in error, error
    assert generate.main([]) == 2 and list(tmp_path.iterdir()) == []
    assert generate.main(["--course", str(ROOT), "--check"]) == 0


def test_generator_check_mode_and_never_writes_solutions(tmp_path: Path) -> None:
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    name = NAMES[0]
    (solutions / name).write_bytes((SOLUTIONS / name).read_bytes())
    before = (solutions / name).read_bytes()
    exercises = tmp_path / "exercises"
    args = ["--solutions", str(solutions), "--exercises", str(exercises)]
    assert generate.main([*args, "--check"]) == 1  # nothing generated yet
    assert generate.main(args) == 0
    assert generate.main([*args, "--check"]) == 0
    assert (exercises / name).read_bytes() == (EXERCISES / name).read_bytes()
    assert (solutions / name).read_bytes() == before
    with pytest.raises(SystemExit):
        generate.main(["--solutions", str(solutions), "--exercises", str(solutions)])


@pytest.mark.parametrize("name", NAMES)
def test_learners_see_no_answers(name: str) -> None:
    text = (EXERCISES / name).read_text(encoding="utf-8")
    for marker in (markers.BEGIN_SOLUTION, markers.END_SOLUTION, markers.BEGIN_HIDDEN,
                   markers.END_HIDDEN):
        assert marker not in text
    notebook = json.loads(text)
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            failing = markers.is_answer(cell) or markers.is_check(cell)
            assert (markers.EXPECTED_FAILURE_TAG in markers.tags(cell)) == failing
            # nbval leaves out the grading cell alone: test_grade.py grades every exercise
            grading = markers.grade_id(cell).endswith(markers.GRADING_CELL_SUFFIX)
            assert (markers.NOT_RUN_BY_NBVAL_TAG in markers.tags(cell)) == grading
    assert grading, "the last cell grades the notebook"


@pytest.mark.parametrize("name", NAMES)
def test_solutions_follow_the_conventions_and_were_run(name: str) -> None:
    notebook = json.loads((SOLUTIONS / name).read_text(encoding="utf-8"))
    pairs = markers.exercises(notebook, name)  # raises MarkerError with the cell at fault
    assert len(pairs) >= 3, "each notebook has at least three exercises"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["execution_count"] is not None, "run scripts/build_notebooks.py"
    for _, check in pairs:
        shown = [output for output in notebook["cells"][check]["outputs"]
                 if output["output_type"] == "display_data"]
        assert shown, f"{markers.grade_id(notebook['cells'][check])} showed no success box"
        plain = "".join(shown[0]["data"]["text/plain"])
        assert plain.startswith("✓"), f"{markers.grade_id(notebook['cells'][check])} failed"
        assert "✓" in "".join(shown[0]["data"]["text/html"]), "the green box shows the line"


def test_exercise_names_differ_from_the_lessons() -> None:
    """A tab shows the start of a file name: exercises start with "ex", lessons with digits."""
    lessons = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [f"ex{lesson}.ipynb" for lesson in lessons if not lesson.startswith("00")] == NAMES


def _check_module(name: str):  # "ex03_accumulation.ipynb" -> ...checks.accumulation
    return importlib.import_module(f"minigrad_course.checks.{Path(name).stem.split('_', 1)[1]}")


@pytest.mark.parametrize("name", NAMES)
def test_check_snippets_are_the_ones_shown(name: str) -> None:
    """A predict-the-output check runs its snippet; the notebook must show the same text, and
    every code block in the notebook's text is such a snippet."""
    module = _check_module(name)
    markdown = "\n".join(markers.source_of(cell) for cell in
                         json.loads((SOLUTIONS / name).read_text(encoding="utf-8"))["cells"]
                         if cell["cell_type"] == "markdown")
    shown = re.findall(r"```python\n(.*?)\n```", markdown, flags=re.DOTALL)
    snippets = []
    for attribute, value in vars(module).items():
        if attribute.endswith("_SNIPPET"):
            snippets.append(value)
        elif attribute.endswith("_SNIPPETS"):
            snippets += list(value.values())
    missing = [snippet for snippet in snippets if snippet not in shown]
    assert not missing, f"{module.__name__}: snippets not shown as written: {missing}"
    unchecked = [block for block in shown if block not in snippets]
    assert not unchecked, f"{name} shows code that no check runs: {unchecked}"


def test_regions_are_replaced_with_their_indentation() -> None:
    source = "def f():\n    x = 1\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION"
    assert markers.clear_solution(source, "here") == (
        "def f():\n    x = 1\n    # YOUR CODE HERE\n    raise NotImplementedError()")
    hidden = "check.a(f)\n### BEGIN HIDDEN TESTS\ncheck.b(f)\n### END HIDDEN TESTS"
    assert markers.remove_hidden_tests(hidden, "here") == "check.a(f)"


@pytest.mark.parametrize("source", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION",
    "x = 1",
])
def test_broken_markers_are_refused(source: str) -> None:
    with pytest.raises(markers.MarkerError, match="here"):
        markers.clear_solution(source, "here")
