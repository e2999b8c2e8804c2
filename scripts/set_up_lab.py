"""Set up the course's JupyterLab in the environment that runs this script (its sys.prefix).

    python scripts/set_up_lab.py            # `make venv`, `make lab` and Binder's postBuild run it
    python scripts/set_up_lab.py --students # a class's image (hub/Dockerfile): nbgrader's
                                            # student panels on, the instructor's off

Writes, in the environment (so `make lab`, Binder and the browser tests get the same):
  etc/jupyter/jupyter_server_config.json              the server's settings, below
  etc/minigrad/terminal.bashrc                        start-up file of JupyterLab's terminals
  share/jupyter/lab/settings/overrides.json           JupyterLab's defaults for the course
  etc/minigrad/custom/custom.css                      the course's CSS (scripts/course_lab.css)
  etc/jupyter/labconfig/page_config.json              JupyterLab extensions turned off, below
and draws one diagram, so that Graphviz's WebAssembly is compiled now, into wasmtime's cache
(~/.cache/wasmtime), and not while the learner waits for the first diagram.

Terminals: a terminal opened in JupyterLab runs bash with the course's start-up file, which
runs the learner's ~/.bashrc and THEN puts this environment first on PATH. A `conda init` or
`pyenv init` in ~/.bashrc puts its own Python first; coming after it, ours wins, so
`python -m minigrad_course.grade ...` works as notebook 00 writes it. Any login shell is replaced by
bash (zsh users get bash there; their ~/.bashrc, if any, still runs). Without bash, JupyterLab's
default shell starts, with this environment first on the PATH open_lab.py gives the server.

Notebooks: the server reads and writes them through minigrad_course/lab_contents.py, so that
opening and saving a lesson does not add the Python version to its file.

CSS: JupyterLab shows a collapsed output (a prediction's answer, see scripts/build_notebooks.py)
as a bar that previews its first line; scripts/course_lab.css replaces the preview with what to
do. JupyterLab loads custom CSS with LabApp.custom_css from the server's static_custom_path,
which is set (through tornado_settings) to this environment's etc/minigrad/custom only.
Jupyter Notebook 7 (`jupyter notebook`, in the course's packages too) links the same
/custom/custom.css, which JupyterLab's handler serves there as well (tests/browser/
test_notebook7.py checks the placeholder's text in Notebook 7).

nbgrader: a learner's environment (`make lab`, the `course` extra) has no nbgrader. The tests'
(`make test`) has it: tests/grading/test_nbgrader.py runs the course as a class, and nbgrader turns
its JupyterLab panels and server extensions on wherever it is installed, so where it is installed
they are turned off here (a developer's `make lab` shows the course as a learner's does).
Where it is not, its entries are left out: a server extension named but not installed would
print a warning at every start. With --students (a class's image, hub/Dockerfile), nbgrader
must be installed, and the students' half of it stays on: the Assignments panel (fetch, submit:
server extension assignment_list) and the Validate button (validate_assignment); the
instructor's half is turned off (formgrader, course_list, create-assignment).

Running it again rewrites the same files: it is safe to run at every start.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

PREFIX = Path(sys.prefix)
BIN = Path(sys.executable).parent
SERVER_CONFIG = PREFIX / "etc" / "jupyter" / "jupyter_server_config.json"
TERMINAL_RC = PREFIX / "etc" / "minigrad" / "terminal.bashrc"
LAB_OVERRIDES = PREFIX / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
CUSTOM_CSS = PREFIX / "etc" / "minigrad" / "custom" / "custom.css"
COURSE_CSS = Path(__file__).with_name("course_lab.css")
PAGE_CONFIG = PREFIX / "etc" / "jupyter" / "labconfig" / "page_config.json"
NBGRADER_LAB_EXTENSION = "@jupyter/nbgrader"
# nbgrader's JupyterLab plugins and server extensions that only an instructor uses.
INSTRUCTORS_LAB_PLUGINS = [f"{NBGRADER_LAB_EXTENSION}:{name}" for name in
                           ("formgrader", "create-assignment", "course-list")]
STUDENTS_SERVER_EXTENSIONS = {"nbgrader.server_extensions.validate_assignment",
                              "nbgrader.server_extensions.assignment_list"}
NBGRADER_SERVER_EXTENSIONS = [f"nbgrader.server_extensions.{name}" for name in
                              ("formgrader", "validate_assignment", "assignment_list",
                               "course_list")]
CONTENTS_MANAGER = "minigrad_course.lab_contents.CourseContentsManager"
# No "Would you like to get notified about official Jupyter news?" toast over the first lesson,
# and no "a newer JupyterLab exists" toast later: the course pins its JupyterLab.
NOTIFICATION_SETTINGS = {"@jupyterlab/apputils-extension:notification":
                         {"fetchNews": "false", "checkForUpdates": False}}


def terminal_rc() -> str:
    in_venv = sys.prefix != sys.base_prefix  # a venv; a conda environment has no VIRTUAL_ENV
    lines = [
        "# Start-up file of a terminal in the course's JupyterLab (written by",
        "# scripts/set_up_lab.py): the learner's own ~/.bashrc first, then the course's",
        "# environment first on PATH, also when ~/.bashrc put another Python there.",
        'if [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi',
        *([f"export VIRTUAL_ENV={shlex.quote(str(PREFIX))}"] if in_venv else []),
        f'export PATH={shlex.quote(str(BIN))}:"$PATH"',
        'PS1="(minigrad) ${PS1-\\$ }"',
    ]
    return "\n".join(lines) + "\n"


def server_config(students: bool = False) -> dict:
    """Jupyter reads this file's settings (its jupyter_server_config.d/ holds only which
    extensions are on); other settings in it are kept."""
    config = json.loads(SERVER_CONFIG.read_text()) if SERVER_CONFIG.exists() else {}
    server = config.setdefault("ServerApp", {})
    server["contents_manager_class"] = CONTENTS_MANAGER
    server.setdefault("tornado_settings", {})["static_custom_path"] = [str(CUSTOM_CSS.parent)]
    config.setdefault("LabApp", {})["custom_css"] = True
    extensions = server.setdefault("jpserver_extensions", {})
    for name in NBGRADER_SERVER_EXTENSIONS:
        if nbgrader_installed():
            extensions[name] = students and name in STUDENTS_SERVER_EXTENSIONS
        else:
            extensions.pop(name, None)
    if not extensions:
        del server["jpserver_extensions"]
    bash = shutil.which("bash")
    if bash:
        server["terminado_settings"] = {"shell_command": [bash, "--rcfile", str(TERMINAL_RC),
                                                          "-i"]}
    else:
        server.pop("terminado_settings", None)
    return config


def write(path: Path, text: str) -> None:
    """Write `text` unless the file holds it already; atomically, since several processes (test
    workers) may set up at once."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def lab_overrides() -> dict:
    """overrides.json may hold other settings of this environment: ours are merged in."""
    overrides = json.loads(LAB_OVERRIDES.read_text()) if LAB_OVERRIDES.exists() else {}
    for plugin, settings in NOTIFICATION_SETTINGS.items():
        overrides.setdefault(plugin, {}).update(settings)
    return overrides


def nbgrader_installed() -> bool:
    return importlib.util.find_spec("nbgrader") is not None


def page_config(students: bool = False) -> dict:
    """JupyterLab's page_config.json, other settings in it kept, nbgrader's panels off where
    nbgrader is installed (for students: only the instructor's).

    Off, not locked: the instructor, in a server of the students' image, turns the formgrader
    on for themselves (`jupyter labextension enable --level=user`, docs/jupyterhub.md). Any
    `jupyter labextension` command locks every extension disabled here unless lockedExtensions
    is present (JupyterLab 4.1's migration), and a lock cannot be undone at the user's level: so
    our entries are written there, as unlocked."""
    config = json.loads(PAGE_CONFIG.read_text()) if PAGE_CONFIG.exists() else {}
    disabled = config.setdefault("disabledExtensions", {})
    locked = config.setdefault("lockedExtensions", {})
    for name in (NBGRADER_LAB_EXTENSION, *INSTRUCTORS_LAB_PLUGINS):
        disabled.pop(name, None)
        locked.pop(name, None)
    if nbgrader_installed():
        off = INSTRUCTORS_LAB_PLUGINS if students else [NBGRADER_LAB_EXTENSION]
        disabled.update(dict.fromkeys(off, True))
        locked.update(dict.fromkeys(off, False))
    return config


def warm_diagram_cache() -> None:
    """Draw a one-node diagram: wasmtime compiles graphviz.wasm into its on-disk cache, where
    every later process (each notebook's kernel) loads it in a fraction of the time."""
    import minigrad
    from minigrad import viz

    viz.draw(minigrad.tensor(1.0, requires_grad=True)).svg()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Set up the course's JupyterLab in this "
                                                 "environment.")
    parser.add_argument("--students", action="store_true",
                        help="a class's environment: nbgrader's student panels on, the "
                             "instructor's off (nbgrader must be installed)")
    students = parser.parse_args(argv).students
    if students and not nbgrader_installed():
        print("error: --students: nbgrader is not installed in this environment "
              f"({sys.prefix}): pip install nbgrader==0.9.6", file=sys.stderr)
        return 2
    write(TERMINAL_RC, terminal_rc())
    write(SERVER_CONFIG, json.dumps(server_config(students), indent=2) + "\n")
    write(LAB_OVERRIDES, json.dumps(lab_overrides(), indent=2) + "\n")
    write(PAGE_CONFIG, json.dumps(page_config(students), indent=2) + "\n")
    write(CUSTOM_CSS, COURSE_CSS.read_text(encoding="utf-8"))
    warm_diagram_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
