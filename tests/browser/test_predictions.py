"""A prediction's answer stays out of sight until the learner runs its cell or opens the reveal.

Every lesson is opened as stored, in JupyterLab in Chromium: the output of each cell after a
"Click to reveal" prediction, and the source of an assert-only cell after it, must not be
visible, though the notebook stores them (nbval compares the outputs). Then, in lesson 03, the
first prediction's cell is run as a learner would (Shift+Enter) and its answer appears."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab_driver import KERNEL_IDLE, ROOT, UI_MS, Lab, open_notebook, screenshot
from minigrad_course.builds import NOT_ANSWERED

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def hidden_cells(path: Path, what: str) -> dict[int, str]:
    """{index: the first line it hides} of the cells stored with `jupyter.<what>` set."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {index: first_line(cell, what) for index, cell in enumerate(cells)
            if cell.get("metadata", {}).get("jupyter", {}).get(what)}


def first_line(cell: dict, what: str) -> str:
    if what == "source_hidden":
        text = "".join(cell["source"])
    else:
        output = cell["outputs"][0]
        text = "".join(output.get("text") or output.get("data", {}).get("text/plain", ""))
    return next(line.strip() for line in text.splitlines() if line.strip())


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_answers_are_not_shown_before_running(page, lab: Lab, path: Path) -> None:
    outputs_hidden = hidden_cells(path, "outputs_hidden")
    sources_hidden = hidden_cells(path, "source_hidden")
    open_notebook(page, lab, f"notebooks/{path.name}")
    cells = page.locator(".jp-Notebook .jp-Cell")
    for index, answer in outputs_hidden.items():
        cell = cells.nth(index)
        cell.scroll_into_view_if_needed()
        expect(cell.locator(".jp-OutputPlaceholder")).to_be_visible()
        expect(cell.locator(".jp-Cell-outputWrapper")).not_to_contain_text(answer,
                                                                          use_inner_text=True)
    for index, check in sources_hidden.items():
        expect(cells.nth(index).locator(".jp-InputPlaceholder")).to_be_visible()
        expect(cells.nth(index).locator(".jp-Cell-inputWrapper")).not_to_contain_text(
            check, use_inner_text=True)
    # Back to the first prediction; JupyterLab draws cells as they scroll into view, so wait
    # until its placeholder is drawn, or the screenshot shows an empty notebook.
    first = cells.nth(min(outputs_hidden))
    first.scroll_into_view_if_needed()
    expect(first.locator(".jp-OutputPlaceholder")).to_be_visible()
    expect(first.locator(".jp-InputArea-editor")).to_be_visible()
    screenshot(page, f"{path.stem}-prediction-hidden")


def test_running_the_cell_shows_the_answer(page, lab: Lab) -> None:
    path = ROOT / "notebooks" / "03_accumulation.ipynb"
    first, answer = min(hidden_cells(path, "outputs_hidden").items())
    open_notebook(page, lab, f"notebooks/{path.name}")
    cells = page.locator(".jp-Notebook .jp-Cell")
    output = cells.nth(first).locator(".jp-OutputArea-output")
    expect(cells.nth(first).locator(".jp-Cell-outputWrapper")).not_to_contain_text(
        answer, use_inner_text=True)
    page.locator(".jp-Notebook").get_by_text("Click to reveal").first.scroll_into_view_if_needed()
    screenshot(page, "03_accumulation-before-running-the-prediction")

    # The learner runs the notebook from the top down to the prediction's cell.
    for index in range(first + 1):
        if cells.nth(index).locator(".jp-InputPrompt").count():
            cells.nth(index).locator(".jp-InputPrompt").first.click()
            page.keyboard.press("Control+Enter")
            page.wait_for_function(KERNEL_IDLE, polling=100, timeout=UI_MS)
    expect(output.first).to_be_visible(timeout=UI_MS)
    expect(output.first).to_contain_text(answer)
    output.first.scroll_into_view_if_needed()
    screenshot(page, "03_accumulation-after-running-the-prediction")


WITH_BUILDS = [path for path in LESSONS if (ROOT / "solutions" / "lessons" / path.name).exists()]


@pytest.mark.parametrize("path", WITH_BUILDS, ids=lambda p: p.name)
def test_a_builds_worked_answer_is_closed_until_opened(page, lab: Lab, path: Path) -> None:
    """Each build ships as a stub that says "Not answered yet" in one line, with its worked
    answer closed under it: its code shows only once the learner opens it."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    reveals = [index for index, cell in enumerate(cells)
               if "worked-answer" in cell.get("metadata", {}).get("tags", [])]
    assert reveals
    open_notebook(page, lab, f"notebooks/{path.name}")
    shown = page.locator(".jp-Notebook .jp-Cell")
    for index in reveals:
        stub, reveal = shown.nth(index - 1), shown.nth(index)
        reveal.scroll_into_view_if_needed()
        expect(stub.locator(".jp-OutputArea-output")).to_have_text(NOT_ANSWERED)
        code = reveal.locator("details pre")
        expect(code).to_be_hidden()
        screenshot(page, f"{path.stem}-build-{index}-closed")
        reveal.locator("details summary").click()
        expect(code).to_be_visible()
        expect(code).to_contain_text(cells[index - 1]["source"][0].strip())  # its first line
