"""The course's diagrams as a learner sees them in JupyterLab (Chromium, the fixture's 1400 px
wide window): every stored diagram fits its output area at its own size (no sideways scrolling,
not shrunk), and the step-by-step view's Next button changes the frame with no kernel running.
Screenshots go to tests/.artifacts/browser/ (diagrams-*.png, steps-*.png)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from lab_driver import ROOT, UI_MS, Lab, open_notebook, screenshot

sys.path.insert(0, str(ROOT / "scripts"))
from measure_diagrams import COLUMN_PX  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect

STEPS = ".minigrad-steps"
# Every diagram image in an output: its size shown, its own size, and its output area's width
# and scroll width (wider content means a sideways scrollbar).
DIAGRAMS = """() => Array.from(document.querySelectorAll(
    ".jp-OutputArea-output img[src^='data:image/svg+xml']"))
  .filter(img => img.offsetParent !== null)  /* frames not shown now are measured when shown */
  .map(img => { const area = img.closest('.jp-OutputArea-output');
    return {shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
            area: area.clientWidth, scroll: area.scrollWidth, alt: img.alt}; })"""
# At least one diagram is in the page and every one has loaded: `every` of no image is true, and
# on a loaded machine the outputs can still be on their way when the notebook's tab is open.
ALL_LOADED = """() => { const images = Array.from(document.querySelectorAll(
    ".jp-OutputArea-output img[src^='data:image/svg+xml']"));
  return images.length > 0 && images.every(img => img.complete); }"""


def with_diagrams() -> list[pytest.param]:
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        text = path.read_text()
        if "image/svg+xml" in text:
            found.append(pytest.param(path, id=path.stem))
    return found


@pytest.mark.parametrize("path", with_diagrams())
def test_every_stored_diagram_fits_its_output_area(page, lab: Lab, path: Path) -> None:
    open_notebook(page, lab, f"notebooks/{path.name}")
    page.wait_for_function(ALL_LOADED, timeout=UI_MS)
    measured = page.evaluate(DIAGRAMS)
    assert measured, f"no diagram shown in {path.name}"
    areas = {m["area"] for m in measured}
    assert min(areas) >= COLUMN_PX, f"output areas narrower than {COLUMN_PX} px: {areas}"
    too_wide = [m for m in measured if m["scroll"] > m["area"] or m["shown"] > m["area"]]
    shrunk = [m for m in measured if m["shown"] < m["natural"] - 1]  # scaled down: smaller text
    widest = max(range(len(measured)), key=lambda i: measured[i]["natural"])
    page.locator(".jp-OutputArea-output img[src^='data:image/svg+xml']:visible").nth(
        widest).scroll_into_view_if_needed()
    screenshot(page, f"diagrams-{path.stem}-widest")
    assert not too_wide, f"wider than their output area in {path.name}: {too_wide}"
    assert not shrunk, f"shrunk to fit in {path.name}: {shrunk}"


def test_next_changes_the_frame_with_no_kernel(page, lab: Lab) -> None:
    name = "03_accumulation.ipynb"  # its first strip has four frames
    stored = json.loads((ROOT / "notebooks" / name).read_text())
    assert any("minigrad-steps" in "".join(o.get("data", {}).get("text/html", ""))
               for c in stored["cells"] for o in c.get("outputs", [])), "no stored strip"
    open_notebook(page, lab, f"notebooks/{name}")
    for session in json.loads(lab.api("GET", "/api/sessions")):  # no kernel from here on
        lab.api("DELETE", f"/api/sessions/{session['id']}")
    assert json.loads(lab.api("GET", "/api/sessions")) == []
    assert json.loads(lab.api("GET", "/api/kernels")) == []

    strip = page.locator(STEPS).first
    strip.scroll_into_view_if_needed()
    count = strip.locator(".minigrad-steps-count").first
    total = len(strip.locator(":scope > figure").all())
    assert total > 2
    expect(count).to_have_text(f"frame 1 of {total}")
    shown = strip.locator(":scope > figure:visible")
    expect(shown).to_have_count(1)
    first_caption, first_image = shown.locator("figcaption").inner_text(), \
        shown.locator("img").get_attribute("src")
    previous, following = strip.locator("button").nth(0), strip.locator("button").nth(1)
    below_previous, below_next = strip.locator("button").nth(2), strip.locator("button").nth(3)
    expect(below_previous).to_be_disabled()
    expect(previous).to_be_disabled()
    screenshot(page, "steps-frame-1")

    following.click()
    expect(count).to_have_text(f"frame 2 of {total}")
    expect(shown).to_have_count(1)
    assert shown.locator("img").get_attribute("src") != first_image
    assert shown.locator("figcaption").inner_text() != first_caption
    expect(previous).to_be_enabled()
    screenshot(page, "steps-frame-2")

    below_next.click()  # the controls under the frame do the same
    expect(strip.locator(".minigrad-steps-count").last).to_have_text(f"frame 3 of {total}")
    expect(count).to_have_text(f"frame 3 of {total}")
    below_previous.click()
    previous.click()
    expect(count).to_have_text(f"frame 1 of {total}")
    for _ in range(total + 2):  # past the end: stays on the last frame
        if following.is_enabled():
            following.click()
    expect(count).to_have_text(f"frame {total} of {total}")
    expect(following).to_be_disabled()
    legends = strip.locator("img[alt='legend']")
    expect(legends).to_have_count(1)
    assert json.loads(lab.api("GET", "/api/kernels")) == []  # the clicks needed no kernel
    screenshot(page, "steps-last-frame")
