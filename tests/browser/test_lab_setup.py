"""A learner's first hour in the course's JupyterLab, set up as `make lab` sets it up
(scripts/set_up_lab.py, through open_lab.py): the grader runs from JupyterLab's own terminal,
opening a lesson, or running it through and saving it, changes nothing git sees, and no news
toast covers the lesson.

JupyterLab runs with its own HOME, whose ~/.bashrc puts another Python first on PATH (one
without minigrad, as `conda init` or `pyenv init` do), and serves a git repository holding a
copy of the course, so that `git status` and `git diff` show what opening a notebook changed.
Screenshots go to tests/.artifacts/browser/."""
from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab_driver import (ALL_RAN, KERNEL_IDLE, NOTEBOOK_RUN_MS, ROOT, UI_MS, Lab, copy_course,
                        menu, open_notebook, screenshot, start_lab, stop_lab)

sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect

OTHER_PYTHON = Path("/usr/bin/python3")  # the system's: no minigrad (nor numpy) in it
BASHRC = """# like the lines `conda init` or `pyenv init` add: another Python first on PATH
export PATH="$HOME/other-python/bin:$PATH"
export LEARNER_BASHRC=ran
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    home = tmp_path_factory.mktemp("learner-home")
    (home / "other-python" / "bin").mkdir(parents=True)
    (home / "other-python" / "bin" / "python").symlink_to(OTHER_PYTHON)
    (home / ".bashrc").write_text(BASHRC)
    served = home / "course"
    copy_course(served)
    shutil.copy(ROOT / ".gitignore", served)  # as in a clone: checkpoints are not listed
    git(served, "init", "--quiet")
    git(served, "add", ".")
    git(served, "-c", "user.name=test", "-c", "user.email=test@example.org",
        "commit", "--quiet", "-m", "the course as cloned")
    server, lab = start_lab(home / "jupyter", served, "jupyterlab-test_lab_setup.log",
                            extra_env={"HOME": str(home)})
    try:
        yield lab
    finally:
        stop_lab(server, lab)


# The text of the current terminal, read from its xterm.js buffer (the screen is a canvas; the
# Terminal widget keeps its xterm.js instance in `_term`).
TERMINAL_TEXT = """() => { const buffer = window.jupyterapp.shell.currentWidget.content._term.buffer.active;
  const lines = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i).translateToString(true));
  return lines.join('\\n'); }"""


def terminal_run(page, command: str, until: str, timeout_ms: int = UI_MS) -> str:
    """Type `command` into the current terminal; the terminal's text once the regular
    expression `until` matches what came after the command (not the echoed command itself)."""
    page.locator(".jp-Terminal").click()
    page.keyboard.type(command + "\n")
    page.wait_for_function(f"""() => {{ const text = ({TERMINAL_TEXT})();
        const after = text.slice(text.lastIndexOf({json.dumps(command)}) + {len(command)});
        return new RegExp({json.dumps(until)}).test(after); }}""", timeout=timeout_ms)
    return page.evaluate(TERMINAL_TEXT)


def test_grader_runs_in_a_jupyterlab_terminal(page, lab: Lab) -> None:
    exercise = sorted((ROOT / "exercises").glob("*.ipynb"))[0].name
    page.goto(lab.page_url("").replace("/tree/", ""))  # the launcher, as on a first start
    page.locator(".jp-LauncherCard", has_text="Terminal").first.click()
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget?.content?._term",
                           timeout=UI_MS)
    page.wait_for_function(f"() => ({TERMINAL_TEXT})().trim() !== ''", timeout=UI_MS)  # a prompt
    # The learner's ~/.bashrc ran, and its Python (no minigrad) is not the one `python` runs.
    text = terminal_run(page, "echo bashrc:$LEARNER_BASHRC; "
                        "$HOME/other-python/bin/python -c 'import minigrad' 2>&1 | tail -1",
                        "No module named")
    assert "bashrc:ran" in text
    text = terminal_run(page, f"python -m minigrad_course.grade exercises/{exercise}; "
                              "echo grader exit: $?", r"grader exit: \d", timeout_ms=NOTEBOOK_RUN_MS)
    report = text[text.rindex("python -m minigrad_course.grade"):]
    screenshot(page, "terminal-grader")
    assert "No module named" not in report, report
    assert "not attempted" in report, report  # an untouched exercise notebook


def lesson() -> str:
    return sorted((ROOT / "notebooks").glob("*.ipynb"))[0].name


DIRTY = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"


def save(page) -> None:
    page.keyboard.press("Control+s")
    page.wait_for_function(f"() => !({DIRTY})()", timeout=UI_MS)
    time.sleep(1)  # the file is written after the model is marked clean


def exercise() -> str:
    return sorted((ROOT / "exercises").glob("*.ipynb"))[0].name


@pytest.mark.parametrize("path", [f"notebooks/{lesson()}", "notebooks/03_accumulation.ipynb",
                                  f"exercises/{exercise()}"])
def test_opening_and_saving_a_notebook_changes_nothing(page, lab: Lab, path: str) -> None:
    open_notebook(page, lab, path)
    time.sleep(2)  # the kernel's info has reached the notebook's metadata by now
    assert not page.evaluate(DIRTY), f"{path} is marked unsaved without any edit"
    screenshot(page, f"{Path(path).stem}-opened-not-dirty")
    page.locator(".jp-Notebook .jp-Cell").first.click()
    save(page)
    assert git(lab.root, "status", "--porcelain") == "", git(lab.root, "diff")


# Some code cell is queued or running: JupyterLab clears its count until it has run.
QUEUED = f"() => !({ALL_RAN})()"


@pytest.mark.parametrize("path", ["notebooks/02_grad_is_none.ipynb",
                                  "notebooks/12_custom_functions.ipynb"])
def test_a_lesson_run_as_it_ships_saves_the_same_bytes(page, lab: Lab, path: str) -> None:
    """Open, Run All Cells, save, as a learner reading the lesson through: git sees nothing. The
    predictions' answers stay stored hidden, the builds' stubs print their line again and the
    cells waiting for them theirs (issue 29)."""
    open_notebook(page, lab, path)
    menu(page, "Run", "Run All Cells")
    page.wait_for_function(QUEUED, timeout=UI_MS, polling=50)
    page.wait_for_function(ALL_RAN, timeout=NOTEBOOK_RUN_MS, polling=100)
    page.wait_for_function(KERNEL_IDLE, polling=100, timeout=UI_MS)
    assert page.evaluate(DIRTY), "Run All changed nothing JupyterLab would save: no test"
    save(page)
    screenshot(page, f"{Path(path).stem}-run-and-saved")
    assert git(lab.root, "status", "--porcelain") == "", git(lab.root, "diff")


def test_no_news_toast(page, lab: Lab) -> None:
    open_notebook(page, lab, f"notebooks/{lesson()}")
    time.sleep(5)  # JupyterLab asks about news shortly after it starts
    screenshot(page, "no-news-toast")
    expect(page.get_by_text("notified about", exact=False)).to_have_count(0)
    expect(page.locator(".Toastify__toast")).to_have_count(0)
    # Off by the course's default (overrides.json), not by a setting of this user.
    plugin = json.loads(lab.api("GET", "/lab/api/settings/@jupyterlab/apputils-extension:"
                                       "notification"))
    assert plugin["schema"]["properties"]["fetchNews"]["default"] == "false"
    assert "fetchNews" not in plugin["settings"]
