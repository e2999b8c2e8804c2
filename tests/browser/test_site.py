"""The course's website (`make site`, scripts/build_site.py) as a reader sees it in Chromium.

The site is built from the committed notebooks into a temporary folder and served over HTTP on
127.0.0.1, as a static host would. Every page (the landing page, each lesson, each exercise
notebook) is opened, and on each:
- nothing outside this server is requested (no theme, font or script from the network), and
  nothing is written to the console as an error;
- every part the notebook stores collapsed (a prediction's answer, the assert that checks it)
  and every "Click to reveal" answer is hidden until its summary is clicked, then shown;
- every diagram is drawn at its own size (not shrunk: its text stays readable) within the text
  column, with no sideways scrolling, the step-by-step frames included; a frame taller than
  wide is scaled down no further than it must be to fit the window's height;
- every step-by-step view steps from its first frame to its last and back, with no kernel, and
  at every frame fits the 1280x720 window: the frame, its caption and its Next button seen
  together, the buttons beside a frame taller than wide;
- every local link and image leads to a file of the site, every `#anchor` to an element.
At a phone's width (390 px) every page reads without sideways scrolling of the page, and each
diagram fits the screen or says, above it, that it scrolls sideways; each step-by-step view of
tall frames fits the screen with its buttons above the frame. Exercise pages show the graphs
their exercises ask for. Screenshots go to tests/.artifacts/browser/ (site-*.png)."""
from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from lab_driver import ROOT, screenshot

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect

REPO = "example-owner/minigrad"  # the GitHub and Binder links' repository in this build
REMOTE_LINK_HOSTS = {"github.com", "mybinder.org"}  # the only remote links a page may have
VIEWPORT = {"width": 1280, "height": 720}  # a laptop's window
PHONE = {"width": 390, "height": 800}
# A tall frame may be scaled down to fit the window's height, not further: at this scale its
# text is still about 10 px.
SMALLEST_FRAME_SCALE = 0.7
DIAGRAM_COLUMN_PX = 950  # the widest stored diagram fits it (scripts/measure_diagrams.py)
PAGES = ["index.html"] + [f"{folder}/{path.stem}.html" for folder in ("notebooks", "exercises")
                          for path in sorted((ROOT / folder).glob("*.ipynb"))]

# Every diagram shown now: its size shown, its own size, its output area's width and scroll
# width, and how far right it reaches beside the text column's right edge.
DIAGRAMS = """() => { const main = document.querySelector('main').getBoundingClientRect();
  const style = getComputedStyle(document.querySelector('main'));
  const right = main.right - parseFloat(style.paddingRight);
  return Array.from(document.querySelectorAll("main img[src^='data:image/svg+xml']"))
  .filter(img => img.offsetParent !== null)
  .map(img => { const area = img.closest('.jp-OutputArea-output');
    const box = img.getBoundingClientRect();
    const hint = getComputedStyle(area, '::before').content;
    return {shown: box.width, natural: img.naturalWidth, loaded: img.complete,
            area: area.clientWidth, scroll: area.scrollWidth, beyond: box.right - right,
            alt: img.alt, tall: img.closest('.course-steps-tall') !== null,
            frame: img.closest('.course-steps-tall > figure') !== null,
            height: box.height, window: innerHeight,
            says_it_scrolls: area.classList.contains('course-scrolls') && hint.includes('scroll')};
  }); }"""
# Where a step-by-step view's parts are while it is in view: the strip, the shown frame and
# its caption, and the first Next button.
STEPPER = """strip => { const box = e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const figure = Array.from(strip.querySelectorAll(':scope > figure'))
    .find(f => f.style.display !== 'none');
  return {strip: box(strip), frame: box(figure.querySelector('img')),
          caption: box(figure.querySelector('figcaption')),
          next: box(strip.querySelectorAll('button')[1]), window: innerHeight}; }"""
# Every reference the page makes: links, images, style sheets, scripts.
REFERENCES = """() => Array.from(document.querySelectorAll('[href], [src]')).map(e => ({
  tag: e.tagName.toLowerCase(), href: e.getAttribute('href'), src: e.getAttribute('src'),
  download: e.hasAttribute('download')}))"""


def build(out: Path, *options: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out", str(out),
                    "--repo", REPO, *options], check=True, capture_output=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The site built by `make site`'s script, served on a free port of 127.0.0.1."""
    folder = tmp_path_factory.mktemp("site") / "_site"
    build(folder)
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def reader(browser, site) -> Iterator[tuple[object, list[str]]]:
    """A page of a fresh browser context, and the problems seen while it is open: console
    errors, uncaught exceptions, requests to anywhere but the site's server."""
    _, base = site
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))

    def only_the_site(route) -> None:
        url = route.request.url
        if url.startswith(base) or url.startswith("data:"):
            route.continue_()
        else:
            problems.append(f"remote request: {url}")
            route.abort()

    page.route("**/*", only_the_site)
    yield page, problems
    context.close()


def stored_hidden(page_path: str) -> tuple[int, int]:
    """How many cells of the page's notebook store their output, and their source, collapsed."""
    if page_path == "index.html":
        return 0, 0
    cells = json.loads((ROOT / page_path).with_suffix(".ipynb").read_text())["cells"]
    hidden = [c.get("metadata", {}).get("jupyter", {}) for c in cells]
    outputs = sum(bool(h.get("outputs_hidden")) and bool(c.get("outputs"))
                  for h, c in zip(hidden, cells))
    return outputs, sum(bool(h.get("source_hidden")) for h in hidden)


def check_collapsed_until_clicked(page, page_path: str) -> None:
    outputs, sources = stored_hidden(page_path)
    expect(page.locator("details.course-hidden-output")).to_have_count(outputs)
    expect(page.locator("details.course-hidden-input")).to_have_count(sources)
    for part in page.locator("details.course-hidden, .jp-RenderedMarkdown details").all():
        body = part.locator(":scope > :not(summary)")
        assert part.get_attribute("open") is None
        for element in body.all():
            expect(element).to_be_hidden()
        part.locator(":scope > summary").click()
        assert part.get_attribute("open") is not None
        shown = [element for element in body.all() if element.is_visible()]
        assert shown, f"nothing shown after clicking {part.locator('summary').inner_text()!r}"
        assert "".join(element.inner_text() for element in shown).strip()


def check_diagrams(page, where: str) -> int:
    page.wait_for_function("""() => Array.from(document.querySelectorAll(
        "main img[src^='data:image/svg+xml']")).every(img => img.complete)""")
    measured = page.evaluate(DIAGRAMS)
    broken = [m for m in measured if not m["loaded"] or m["natural"] == 0]
    shrunk = [m for m in measured if m["shown"] < m["natural"] * (
        SMALLEST_FRAME_SCALE if m["tall"] else 1) - 1]
    # A tall frame is scaled only to fit the window's height (its legend, to fit beside it).
    needlessly = [m for m in measured if m["frame"] and m["shown"] < m["natural"] - 1
                  and m["height"] < m["window"] - 40]
    outside = [m for m in measured if m["beyond"] > 1 or m["scroll"] > m["area"]]
    assert not broken, f"{where}: diagrams not drawn: {broken}"
    assert not shrunk, f"{where}: diagrams shrunk (their text unreadable): {shrunk}"
    assert not needlessly, f"{where}: frames shrunk more than the window asks: {needlessly}"
    assert not outside, f"{where}: diagrams beyond the text column: {outside}"
    return len(measured)


def check_stepper_in_view(page, strip, where: str) -> None:
    """Scrolled to, the strip fits the window: its frame, caption and Next button all in view;
    at a desktop's width, Next beside a tall frame."""
    strip.evaluate("strip => strip.scrollIntoView({block: 'start'})")
    parts = strip.evaluate(STEPPER)
    for name in ("strip", "frame", "caption", "next"):
        assert parts[name]["top"] >= -1 and parts[name]["bottom"] <= parts["window"] + 1, \
            f"{where}: the {name} is out of the {parts['window']} px window: {parts}"
    if "course-steps-tall" in strip.get_attribute("class") and page.viewport_size["width"] > 760:
        assert parts["next"]["left"] >= parts["frame"]["right"], f"{where}: {parts}"


def check_steppers(page, where: str) -> None:
    for strip in page.locator(".minigrad-steps").all():
        strip.scroll_into_view_if_needed()
        check_stepper_in_view(page, strip, f"{where}, frame 1")
        total = strip.locator(":scope > figure").count()
        counts = strip.locator(".minigrad-steps-count")
        previous, following = strip.locator("button").nth(0), strip.locator("button").nth(1)
        shown = strip.locator(":scope > figure:visible")
        expect(counts.first).to_have_text(f"frame 1 of {total}")
        expect(previous).to_be_disabled()
        sources = [shown.locator("img").get_attribute("src")]
        for frame in range(2, total + 1):
            following.click()
            expect(counts.first).to_have_text(f"frame {frame} of {total}")
            expect(counts.last).to_have_text(f"frame {frame} of {total}")
            expect(shown).to_have_count(1)
            sources.append(shown.locator("img").get_attribute("src"))
            check_diagrams(page, f"{where}, frame {frame}")
            check_stepper_in_view(page, strip, f"{where}, frame {frame}")
        expect(following).to_be_disabled()
        assert len(set(sources)) == total, f"{where}: frames repeat: {total} frames"
        for frame in range(total - 1, 0, -1):
            previous.click()
            expect(counts.first).to_have_text(f"frame {frame} of {total}")


def check_references(page, folder: Path, page_path: str) -> None:
    url = f"http://site/{page_path}"
    ids = set(page.evaluate("() => Array.from(document.querySelectorAll('[id]'), e => e.id)"))
    for reference in page.evaluate(REFERENCES):
        target = reference["href"] if reference["href"] is not None else reference["src"]
        if target.startswith("data:"):
            continue
        parts = urlsplit(urljoin(url, target))
        what = f"{page_path}: <{reference['tag']}> {target}"
        if parts.netloc != "site":
            assert reference["tag"] == "a", f"{what}: a remote resource"
            assert parts.scheme == "https" and parts.netloc in REMOTE_LINK_HOSTS, \
                f"{what}: a remote link"
            assert REPO in parts.path, f"{what}: not this course's repository"
            continue
        local = folder / PurePosixPath(unquote(parts.path)).relative_to("/")
        assert local.is_file(), f"{what}: no such file in the site"
        if target.startswith("#"):  # a browser matches the fragment as written, or decoded
            assert {target[1:], unquote(target[1:])} & ids, f"{what}: no such anchor"
        if local.suffix == ".ipynb":
            assert reference["download"], f"{what}: a notebook link that is not its download"


@pytest.mark.parametrize("page_path", PAGES)
def test_page(reader, site, page_path: str) -> None:
    page, problems = reader
    folder, base = site
    page.goto(base + page_path)
    page.wait_for_load_state("load")
    check_references(page, folder, page_path)
    check_collapsed_until_clicked(page, page_path)
    check_diagrams(page, page_path)
    check_steppers(page, page_path)
    screenshot(page, f"site-{page_path.replace('/', '-').removesuffix('.html')}")
    assert problems == []


def test_landing_page_lists_every_lesson_with_its_exercises(reader, site) -> None:
    page, problems = reader
    _, base = site
    page.goto(base + "index.html")
    rows = page.locator("table.course-lessons tbody tr")
    lessons = sorted((ROOT / "notebooks").glob("*.ipynb"))
    expect(rows).to_have_count(len(lessons))
    for row, lesson in zip(rows.all(), lessons):
        expect(row.locator("a").first).to_have_attribute("href", f"notebooks/{lesson.stem}.html")
        exercise = ROOT / "exercises" / f"ex{lesson.stem}.ipynb"
        if exercise.exists():
            expect(row.locator("a", has_text="exercises")).to_have_attribute(
                "href", f"exercises/{exercise.stem}.html")
    assert problems == []


def test_a_lesson_leads_to_its_exercises_and_back(reader, site) -> None:
    page, problems = reader
    _, base = site
    page.goto(base + "notebooks/03_accumulation.html")
    page.locator("main a[href$='ex03_accumulation.html']").last.click()
    expect(page).to_have_url(base + "exercises/ex03_accumulation.html")
    page.locator("main a[href$='03_accumulation.html']").first.click()
    expect(page).to_have_url(base + "notebooks/03_accumulation.html")
    binder = page.locator("nav a", has_text="Binder").first
    expect(binder).to_have_attribute("href", f"https://mybinder.org/v2/gh/{REPO}/main"
                                     "?urlpath=lab%2Ftree%2Fnotebooks%2F03_accumulation.ipynb")
    assert problems == []


def test_exercise_pages_show_the_graphs_their_exercises_ask_for(reader, site) -> None:
    """Exercise 01's "Here is a graph": the page shows it (exercises/ stores no output; the site
    takes the given cell's from the solutions, tests/deploy/test_site_files.py checks which)."""
    page, problems = reader
    _, base = site
    page.goto(base + "exercises/ex01_tensors_and_graphs.html")
    asked = page.locator(".jp-Cell", has_text="check.show_target()")
    expect(asked.locator("img[src^='data:image/svg+xml']")).to_have_count(1)
    assert check_diagrams(page, "ex01") >= 1 and problems == []


@pytest.mark.parametrize("page_path", PAGES)
def test_a_phone_reads_the_text_whole(browser, site, page_path: str) -> None:
    """At a phone's width the page does not scroll sideways and no line of text is cut; a wide
    diagram scrolls inside its own output area instead of shrinking, and says so above it; a
    step-by-step view of tall frames fits the screen with its buttons and caption."""
    _, base = site
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(base + page_path)
    page.wait_for_load_state("load")
    diagrams = page.evaluate(DIAGRAMS)
    silent = [m for m in diagrams if m["scroll"] > m["area"] + 1 and not m["says_it_scrolls"]]
    assert not silent, f"{page_path}: diagrams wider than the phone, with no word: {silent}"
    assert not [m for m in diagrams if m["shown"] < m["natural"] * SMALLEST_FRAME_SCALE - 1]
    for strip in page.locator(".minigrad-steps.course-steps-tall").all():
        check_stepper_in_view(page, strip, page_path)
    widths = page.evaluate("""() => { const main = document.querySelector('main');
      const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main)
        .paddingRight);
      return {page: document.documentElement.scrollWidth, window: innerWidth,
              cut: Array.from(document.querySelectorAll('main .jp-RenderedMarkdown, main p'))
                .filter(e => e.getBoundingClientRect().right > right + 1).length}; }""")
    screenshot(page, f"site-phone-{page_path.replace('/', '-').removesuffix('.html')}")
    context.close()
    assert widths["page"] <= widths["window"], widths
    assert widths["cut"] == 0, widths
