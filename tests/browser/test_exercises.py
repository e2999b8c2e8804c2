"""Exercise notebooks as a learner meets them in JupyterLab: run untouched with Run All Cells,
every unanswered exercise says so in one line (no traceback); a wrong answer shows its feedback
and a crash in the learner's code its line, neither with frames through minigrad's checks; a
right answer shows a green box. Screenshots go to tests/.artifacts/browser/."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lab_driver import (KERNEL_IDLE, NOTEBOOK_JSON, NOTEBOOK_RUN_MS, ROOT, UI_MS, Lab, menu,
                        open_notebook, screenshot)

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect

EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
ALL_RAN = f"""() => {NOTEBOOK_JSON}.cells.filter(c => c.cell_type === 'code')
    .every(c => c.execution_count !== null)"""
# Every output of the notebook model, as {cell, type, text}: an error's text is its traceback.
OUTPUTS = f"""() => {NOTEBOOK_JSON}.cells.flatMap((c, i) => (c.outputs || []).map(o => ({{
  cell: i, type: o.output_type, ename: o.ename || '',
  text: o.output_type === 'error' ? o.traceback.join('\\n')
        : [].concat(o.text || (o.data && o.data['text/plain']) || '').join('') }})))"""
STRIP_ANSI = r"\x1b\[[0-9;]*m"


def cell_index(path: Path, grade_id: str) -> int:
    cells = json.loads(path.read_text())["cells"]
    return next(i for i, cell in enumerate(cells)
                if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id)


def type_and_run(page, index: int, source: str) -> None:
    """Replace the cell's text as a learner pasting, then run it with Shift+Enter."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")


def run_cell(page, index: int) -> None:
    page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")


def outputs_of(page, index: int) -> list[dict]:
    return [o for o in page.evaluate(OUTPUTS) if o["cell"] == index]


@pytest.mark.parametrize("path", EXERCISES, ids=[path.name for path in EXERCISES])
def test_unanswered_notebook_runs_without_tracebacks(page, lab: Lab, path: Path) -> None:
    open_notebook(page, lab, f"exercises/{path.name}")
    menu(page, "Run", "Run All Cells")  # raises-exception cells do not stop the run
    page.wait_for_function(ALL_RAN, timeout=NOTEBOOK_RUN_MS, polling=250)
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)
    outputs = page.evaluate(OUTPUTS)
    errors = [o for o in outputs if o["type"] == "error"]
    assert errors, "an untouched exercise notebook fails in its answer and check cells"
    for error in errors:
        text = re.sub(STRIP_ANSI, "", error["text"])
        assert "\n" not in text and len(text) < 200, f"cell {error['cell']}: {text}"
        assert text.startswith("✗ Not answered yet: "), f"cell {error['cell']}: {text}"
    assert not [o for o in outputs if "minigrad_course" in o["text"]]
    checks = json.loads(path.read_text())["cells"]
    graded = [i for i, cell in enumerate(checks)
              if cell.get("metadata", {}).get("nbgrader", {}).get("grade")]
    assert {e["cell"] for e in errors} >= set(graded), "every check cell says not answered"
    shown = page.locator(".jp-Notebook .jp-Cell").nth(graded[-1])
    shown.scroll_into_view_if_needed()
    screenshot(page, f"{path.stem}-unanswered-run-all")
    # The last cell graded the saved file, untouched: every exercise not attempted, and no
    # warning that the file is older than what ran (Run All ran only what the file holds).
    report = "".join(o["text"] for o in outputs_of(page, len(checks) - 1))
    assert f"0 of {len(graded)} exercises passed" in report, report
    assert report.count("  not attempted  ") == len(graded) and "⚠" not in report, report


def test_wrong_answer_crash_and_success(page, lab: Lab) -> None:
    path = ROOT / "exercises" / "ex03_accumulation.ipynb"
    open_notebook(page, lab, f"exercises/{path.name}")
    run_cell(page, cell_index(path, "03-code-01"))  # the imports
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)

    loop = cell_index(path, "03-loop")
    type_and_run(page, loop, "after_loop = [3.0, 3.0]")  # one pass's gradient, not four
    run_cell(page, loop + 1)
    wrong = page.locator(".jp-Notebook .jp-Cell").nth(loop + 1).locator(".jp-OutputArea-output")
    expect(wrong.first).to_contain_text("✗ your prediction", timeout=UI_MS)
    (error,) = [o for o in outputs_of(page, loop + 1) if o["type"] == "error"]
    assert error["ename"] == "CheckFailed"
    assert "Hint:" in error["text"] and "Traceback" not in error["text"]
    assert "minigrad_course" not in error["text"]

    batches = cell_index(path, "03-micro-batches")
    type_and_run(page, batches, "def accumulate_gradient(w, inputs, targets, size):\n"
                                "    w.grad += 1")
    run_cell(page, batches + 1)
    crash = page.locator(".jp-Notebook .jp-Cell").nth(batches + 1)
    expect(crash.locator(".jp-OutputArea-output").first).to_contain_text(
        "at line 2 of your cell: w.grad += 1", timeout=UI_MS)
    (error,) = [o for o in outputs_of(page, batches + 1) if o["type"] == "error"]
    assert len(error["text"].splitlines()) == 2, error["text"]
    assert "TypeError" in error["text"] and "minigrad_course" not in error["text"]
    crash.scroll_into_view_if_needed()
    screenshot(page, "ex03-wrong-answer-and-crash")

    type_and_run(page, loop, "after_loop = [12.0, 12.0]")
    run_cell(page, loop + 1)
    box = page.locator(".jp-Notebook .jp-Cell").nth(loop + 1).locator(
        ".jp-RenderedHTMLCommon div")
    expect(box).to_contain_text("✓ Right: four backward passes", timeout=UI_MS)
    color = box.evaluate("e => getComputedStyle(e).backgroundColor")
    red, green, blue, *_ = (float(x) for x in color[color.index("(") + 1:-1].split(","))
    assert green > red and green > blue, f"the success box is green, not {color}"
    assert not [o for o in outputs_of(page, loop + 1) if o["type"] == "error"]
    box.scroll_into_view_if_needed()
    screenshot(page, "ex03-success-box")


def test_grading_cell_grades_the_saved_file(page, lab: Lab) -> None:
    """An answer typed and run but not saved: the last cell warns that the file lacks it and
    grades the file as saved (not attempted); after Ctrl+S the same cell counts it passed."""
    path = ROOT / "exercises" / "ex02_grad_is_none.ipynb"
    solution = json.loads((ROOT / "solutions" / path.name).read_text())["cells"]
    open_notebook(page, lab, f"exercises/{path.name}")
    run_cell(page, cell_index(path, "02-code-01"))  # the imports
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)
    answer = cell_index(path, "02-before-after")
    type_and_run(page, answer, "".join(solution[answer]["source"]))
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)

    last = len(solution) - 1
    report = page.locator(".jp-Notebook .jp-Cell").nth(last).locator(".jp-OutputArea-output")
    run_cell(page, last)
    expect(report.first).to_contain_text("0 of 4 exercises passed", timeout=UI_MS)
    expect(report.first).to_contain_text("⚠ Not saved: you ran code")
    assert re.search(r"not attempted +02-before-after", report.first.inner_text())
    report.first.scroll_into_view_if_needed()
    screenshot(page, "ex02-grading-cell-unsaved")

    page.keyboard.press("Control+s")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty",
                           polling=250, timeout=UI_MS)
    run_cell(page, last)
    expect(report.first).to_contain_text("1 of 4 exercises passed", timeout=UI_MS)
    text = report.first.inner_text()
    assert re.search(r"passed +02-before-after +✓", text) and "⚠" not in text, text
    assert not [o for o in outputs_of(page, last) if o["type"] == "error"]
    report.first.scroll_into_view_if_needed()
    screenshot(page, "ex02-grading-cell-saved")


# Does the tab label show its first `n` characters, whatever the tab's width cuts off?
TAB_SHOWS_START = """([name, n]) => {
  const label = Array.from(document.querySelectorAll('.lm-DockPanel-tabBar .lm-TabBar-tabLabel'))
    .find(e => e.textContent === name);
  const range = document.createRange();
  range.setStart(label.firstChild, 0);
  range.setEnd(label.firstChild, n);
  return range.getBoundingClientRect().right <= label.getBoundingClientRect().right + 0.5; }"""


def test_lesson_and_exercise_tabs_differ(page, lab: Lab) -> None:
    """Side by side, the longest-named lesson and its exercises: each tab shows where the two
    names differ (the exercises' "ex" prefix), however much of the end the tab cuts off."""
    lesson = max((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"), key=lambda p: len(p.name))
    exercise = f"ex{lesson.name}"
    open_notebook(page, lab, f"notebooks/{lesson.name}")
    page.evaluate(f"window.jupyterapp.commands.execute('docmanager:open', "
                  f"{{path: 'exercises/{exercise}'}})")
    tabs = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tabLabel")
    expect(tabs).to_have_count(2, timeout=UI_MS)
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)
    assert page.evaluate(TAB_SHOWS_START, [lesson.name, len("05_")])
    assert page.evaluate(TAB_SHOWS_START, [exercise, len("ex05_")])
    screenshot(page, "lesson-and-exercise-tabs")
