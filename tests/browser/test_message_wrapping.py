"""Check and grade messages break lines only at spaces, at a phone's width (390 px) and a
laptop's (1280 px), in JupyterLab and on the website (issue 29: "witho ut recursion").

JupyterLab's own style lets output text break anywhere (`word-break: break-all` on an output's
<pre>); the course's JupyterLab (scripts/course_lab.css) and website (site_template/site.css)
break it at spaces. Measured in Chromium, character by character: where a line of a message
wraps, a space must end the line or start the next; a hyphen may end it too ("breadth-" and
"first" are whole words: browsers break there, and CSS has no way to forbid it). At 390 px some
message must wrap, or the test would prove nothing. Screenshots go to tests/.artifacts/browser/ (wrapping-*.png)."""
from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab_driver import KERNEL_IDLE, ROOT, UI_MS, Lab, open_notebook, screenshot
from minigrad_course.builds import WAITING

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect

WIDTHS = (390, 1280)
# Notebooks whose stored outputs hold messages: success boxes and a grade report, a build's
# "not answered" and "waiting" lines.
STORED = ("solutions/ex01_tensors_and_graphs.ipynb", "notebooks/12_custom_functions.ipynb")
MESSAGE_START = ("✓", "✗", WAITING, "ex01_tensors_and_graphs.ipynb as last saved")

# For one output: how many lines wrapped, and each wrap inside a word ("witho|ut"). A wrap is a
# character drawn lower than the one before it in the same block, with no newline between.
WRAPS = """(output) => {
  const range = document.createRange();
  const walker = document.createTreeWalker(output, NodeFilter.SHOW_TEXT);
  let wraps = 0, block = null, top = null, before = '';
  const inside = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const own = node.parentElement.closest('pre, div, p, li');
    if (own !== block) { block = own; top = null; before = ''; }
    const text = node.textContent;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '\\n') { top = null; before = '\\n'; continue; }
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2) {
        wraps++;
        if (!/[\\s-]/.test(before) && !/\\s/.test(text[i]))
          inside.push(text.slice(Math.max(0, i - 25), i) + '|' + text.slice(i, i + 25));
      }
      top = rect.top;
      before = text[i];
    }
  }
  return {wraps, inside};
}"""
# Every output of the page that is a message (its text starts like one), once drawn.
MESSAGES = ".jp-OutputArea-output"


def measure(page, root) -> tuple[int, list[str]]:
    """(lines wrapped, wraps inside a word) over the messages under `root` (a locator)."""
    wraps, inside = 0, []
    for output in root.locator(MESSAGES).all():
        if not output.inner_text().strip().startswith(MESSAGE_START):
            continue
        output.scroll_into_view_if_needed()
        found = output.evaluate(WRAPS)
        wraps += found["wraps"]
        inside += found["inside"]
    return wraps, inside


def message_cells(path: str) -> list[int]:
    """The cells of `path` that show a message as stored (not behind a collapsed bar)."""
    cells = json.loads((ROOT / path).read_text(encoding="utf-8"))["cells"]
    return [i for i, cell in enumerate(cells) for output in cell.get("outputs", [])
            if not cell["metadata"].get("jupyter", {}).get("outputs_hidden") and
            "".join(output.get("text") or output.get("data", {}).get("text/plain", ""))
            .strip().startswith(MESSAGE_START)]


def open_wide(page, lab: Lab, path: str) -> None:
    """Open a notebook with the side bar closed, as a learner on a phone does: open, it would
    leave the notebook a column of one letter."""
    open_notebook(page, lab, path)
    page.evaluate("""async () => { const app = window.jupyterapp;
      if (!app.shell.leftCollapsed) await app.commands.execute('application:toggle-left-area'); }""")


@pytest.mark.parametrize("width", WIDTHS)
def test_messages_in_jupyterlab_break_at_spaces(page, lab: Lab, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    wraps, inside = 0, []
    for path in STORED:
        open_wide(page, lab, path)
        cells = page.locator(".jp-Notebook .jp-Cell")
        for index in dict.fromkeys(message_cells(path)):
            cells.nth(index).scroll_into_view_if_needed()  # JupyterLab draws cells in view
            expect(cells.nth(index).locator(MESSAGES).first).to_be_visible(timeout=UI_MS)
            found = measure(page, cells.nth(index))
            wraps, inside = wraps + found[0], inside + found[1]
        screenshot(page, f"wrapping-lab-{width}-{Path(path).stem}")
    # A check's failure, as a learner gets it: a wrong answer in exercise notebook 03.
    open_wide(page, lab, "exercises/ex03_accumulation.ipynb")
    cells = page.locator(".jp-Notebook .jp-Cell")
    notebook = json.loads((ROOT / "exercises/ex03_accumulation.ipynb").read_text())["cells"]
    loop = next(i for i, cell in enumerate(notebook)
                if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "03-loop")
    for index in (1, loop):
        cells.nth(index).locator(".jp-InputPrompt").click()
        if index == loop:
            cells.nth(index).locator(".cm-content").click()
            page.keyboard.press("Control+a")
            page.keyboard.insert_text("after_loop = [3.0, 3.0]")
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(KERNEL_IDLE, polling=100, timeout=UI_MS)
    cells.nth(loop + 1).locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")
    failure = cells.nth(loop + 1).locator(MESSAGES).first
    expect(failure).to_contain_text("✗ your prediction", timeout=UI_MS)
    found = measure(page, cells.nth(loop + 1))
    wraps, inside = wraps + found[0], inside + found[1]
    screenshot(page, f"wrapping-lab-{width}-check-failed")
    assert not inside, f"at {width} px, lines break inside words: {inside}"
    if width == min(WIDTHS):
        assert wraps, "no message wrapped at all: the test measured nothing"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The website with the solutions published, served on a free port of 127.0.0.1."""
    folder = tmp_path_factory.mktemp("site") / "_site"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out",
                    str(folder), "--solutions"], check=True, capture_output=True)
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("width", WIDTHS)
def test_messages_on_the_website_break_at_spaces(browser, site: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    wraps, inside = 0, []
    try:
        for path in STORED:
            page.goto(site + path.replace(".ipynb", ".html"))
            found = measure(page, page.locator("main"))
            wraps, inside = wraps + found[0], inside + found[1]
            screenshot(page, f"wrapping-site-{width}-{Path(path).stem}")
    finally:
        context.close()
    assert not inside, f"at {width} px, lines break inside words: {inside}"
    if width == min(WIDTHS):
        assert wraps, "no message wrapped at all: the test measured nothing"
