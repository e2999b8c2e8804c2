"""The course as a learner sees it: JupyterLab in Debian's Chromium, driven by Playwright.

For every course notebook: opened as stored, its saved diagrams show as SVG (JupyterLab hides
the SVG of untrusted notebooks, so this checks the trust step of `make lab`); cleared and run
with Run > Run All Cells, the diagrams come back and no cell ends in an error. For every
exercise notebook: the first exercise gets its solution typed in, and its check cell shows the
success line that the solutions notebook stored. Screenshots go to tests/.artifacts/browser/.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from lab_driver import (ARTIFACTS, CELL_ERRORS, KERNEL_IDLE, NOTEBOOK_RUN_MS, ROOT, RUN_FINISHED,
                        SVG_IMAGES, SVG_SHOWN, UI_MS, Lab, menu, open_notebook, screenshot)

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect


def notebooks(folder: str) -> list[pytest.param]:
    found = sorted((ROOT / folder).glob("*.ipynb"))
    if not found:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no {folder}/*.ipynb yet"))]
    return [pytest.param(path, id=path.name) for path in found]


def stored_svg_count(notebook: dict) -> int:
    return sum("image/svg+xml" in output.get("data", {})
               for cell in notebook["cells"] for output in cell.get("outputs", []))


@pytest.mark.parametrize("path", notebooks("notebooks"))
def test_course_notebook_shows_diagrams_and_runs_clean(page, lab: Lab, path: Path) -> None:
    stored = stored_svg_count(json.loads(path.read_text()))
    open_notebook(page, lab, f"notebooks/{path.name}")
    page.wait_for_function(f"() => ({SVG_SHOWN})() === {stored}", timeout=UI_MS)
    expect(page.get_by_text("Cannot display an untrusted SVG")).to_have_count(0)
    if stored:
        page.locator(SVG_IMAGES).first.scroll_into_view_if_needed()
    screenshot(page, f"{path.stem}-as-stored")

    menu(page, "Edit", "Clear Outputs of All Cells")
    expect(page.locator(SVG_IMAGES)).to_have_count(0)
    menu(page, "Kernel", "Restart Kernel and Run All Cells")
    page.locator(".jp-Dialog button.jp-mod-accept").click()  # "Restart" in the confirmation
    started = time.monotonic()
    page.wait_for_function(RUN_FINISHED, timeout=NOTEBOOK_RUN_MS, polling=100)
    page.wait_for_function(KERNEL_IDLE, polling=100, timeout=UI_MS)
    record_run_all_time(path.name, time.monotonic() - started)
    screenshot(page, f"{path.stem}-after-run-all")
    assert page.evaluate(CELL_ERRORS) == [], f"errors in {path.name} run in JupyterLab"
    page.wait_for_function(f"() => ({SVG_SHOWN})() === {stored}", timeout=UI_MS)


def record_run_all_time(name: str, seconds: float) -> None:
    """Restart-and-Run-All seconds per lesson, as a learner waits for them (kernel start
    included), in tests/.artifacts/browser/run_all_seconds.json: a figure to report, not a
    limit to test (this machine's load varies)."""
    record = ARTIFACTS / "run_all_seconds.json"
    times = json.loads(record.read_text()) if record.exists() else {}
    times[name] = round(seconds, 2)
    record.write_text(json.dumps(dict(sorted(times.items())), indent=1) + "\n")
    print(f"{name}: Restart Kernel and Run All Cells took {seconds:.2f} s")


def first_exercise(exercise: dict, solution: dict) -> tuple[int, str, int, str]:
    """(index, typed answer, check index, success line) for the notebook's first exercise.
    The answer and the success line come from the solutions notebook: its solution cell, with
    the nbgrader markers a learner never sees dropped, and what its check cell printed."""
    solutions = {cell.get("id"): cell for cell in solution["cells"]}
    cells = exercise["cells"]
    index = next(i for i, cell in enumerate(cells)
                 if cell.get("metadata", {}).get("nbgrader", {}).get("solution"))
    check = next(i for i in range(index + 1, len(cells))
                 if cells[i].get("metadata", {}).get("nbgrader", {}).get("grade"))
    answer_lines = solutions[cells[index]["id"]]["source"]
    answer_lines = "".join(answer_lines).splitlines() if isinstance(answer_lines, list) \
        else answer_lines.splitlines()
    answer = "\n".join(line for line in answer_lines if "### BEGIN SOLUTION" not in line
                       and "### END SOLUTION" not in line)
    shown = [output for output in solutions[cells[check]["id"]].get("outputs", [])
             if output.get("output_type") == "display_data"]
    assert shown, f"the solutions' check cell {cells[check]['id']} stored no success box"
    text = shown[0]["data"]["text/plain"]
    success = ("".join(text) if isinstance(text, list) else text).strip().splitlines()[0]
    return index, answer, check, success


@pytest.mark.parametrize("path", notebooks("exercises"))
def test_exercise_accepts_a_typed_answer(page, lab: Lab, path: Path) -> None:
    solution_path = ROOT / "solutions" / path.name
    assert solution_path.exists(), f"{path.name} has no twin in solutions/"
    index, answer, check, success = first_exercise(json.loads(path.read_text()),
                                                   json.loads(solution_path.read_text()))
    open_notebook(page, lab, f"exercises/{path.name}")
    cells = page.locator(".jp-Notebook .jp-Cell")
    cells.nth(index).locator(".jp-InputPrompt").click()  # select it, in command mode
    menu(page, "Run", "Run All Above Selected Cell")
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=NOTEBOOK_RUN_MS)
    assert page.evaluate(CELL_ERRORS) == [], f"the cells above the first exercise of {path.name}"

    cells.nth(index).locator(".cm-content").click()  # edit mode, as a learner clicking in
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(answer)  # like a paste: no auto-indent or bracket closing
    page.keyboard.press("Shift+Enter")  # runs the answer, moves to the next cell
    cells.nth(check).locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")
    check_output = cells.nth(check).locator(".jp-OutputArea-output")
    expect(check_output.first).to_contain_text(success, timeout=NOTEBOOK_RUN_MS)
    check_output.first.scroll_into_view_if_needed()
    screenshot(page, f"{path.stem}-exercise-checked")
