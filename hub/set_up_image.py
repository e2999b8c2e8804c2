"""The students' image's one set-up step (hub/Dockerfile runs it after copying the course in):

    python /srv/minigrad/hub/set_up_image.py

1. Refuses an image that holds answers: a solutions/ folder anywhere under /srv/minigrad, or a
   notebook with nbgrader's solution markers (a worked solutions notebook copied by mistake);
   and one that ships anything but the lessons (an exercises/ folder would give students a
   second copy of each assignment, not the one they submit).
2. Makes the lessons the class's (minigrad_course.nbgrader_course.lesson_for_class): their
   "Exercises" links lead to the assignment nbgrader fetches into the student's home,
   ~/ex03_accumulation/ex03_accumulation.ipynb, and notebook 00 says how the class works.
3. Sets up the course's JupyterLab for students: scripts/set_up_lab.py --students (nbgrader's
   Assignments panel and Validate button on, the instructor's formgrader, course list and
   create-assignment off).
4. Shuts down a student's kernels after an hour without use (jupyter_server_config.json of this
   environment): JupyterLab keeps a kernel running for every notebook opened until it is shut
   down, and docs/jupyterhub.md sizes memory for a server and two kernels.
5. Installs the students' nbgrader configuration (hub/nbgrader_config.py: the course id and
   the exchange's folder) into this environment's etc/jupyter/, where nbgrader reads it in
   every student's server. Not in the home: on a hub the home is a volume mounted over it.

Any failure exits non-zero, and the image's build stops.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent  # /srv/minigrad in the image
SHIPPED = ROOT / "shipped"  # what hub/start.py brings into every student's home
SHIPPED_FOLDERS = ["notebooks"]
SOLUTION_MARKER = "### BEGIN SOLUTION"
# Seconds: a kernel idle for an hour is shut down (its notebook stays open; running a cell
# starts a new kernel), checked every 5 minutes. A kernel running a cell is never idle.
KERNEL_CULLING = {"cull_idle_timeout": 3600, "cull_interval": 300}


def answers_in(root: Path) -> list[Path]:
    found = [path for path in root.rglob("solutions") if path.is_dir()]
    found += [path for path in root.rglob("*.ipynb")
              if SOLUTION_MARKER in path.read_text(encoding="utf-8", errors="replace")]
    return found


def lessons_for_class(folder: Path) -> int:
    """Rewrite each lesson in `folder` as the class's copy; returns how many."""
    from minigrad_course.generate import render
    from minigrad_course.nbgrader_course import lesson_for_class

    lessons = sorted(folder.glob("*.ipynb"))
    for path in lessons:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(render(lesson_for_class(notebook)), encoding="utf-8")
    return len(lessons)


def main() -> int:
    leaked = answers_in(ROOT)
    if leaked:
        print("error: the students' image would hold answers: "
              + ", ".join(map(str, leaked)), file=sys.stderr)
        return 1
    shipped = sorted(path.name for path in SHIPPED.iterdir()) if SHIPPED.is_dir() else []
    if shipped != SHIPPED_FOLDERS:
        print(f"error: {SHIPPED} holds {shipped}, not {SHIPPED_FOLDERS}: students get the "
              "lessons, and their exercises as nbgrader assignments", file=sys.stderr)
        return 1
    if not lessons_for_class(SHIPPED / "notebooks"):
        print(f"error: no lesson in {SHIPPED / 'notebooks'}", file=sys.stderr)
        return 1
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "set_up_lab.py"),
                           "--students"])
    if done.returncode != 0:
        print("error: scripts/set_up_lab.py --students failed", file=sys.stderr)
        return 1
    # set_up_lab.py keeps other settings of this file: ours are merged in.
    server_config = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.json"
    settings = json.loads(server_config.read_text(encoding="utf-8"))
    settings.setdefault("MappingKernelManager", {}).update(KERNEL_CULLING)
    server_config.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    config = Path(sys.prefix) / "etc" / "jupyter" / "nbgrader_config.py"
    config.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HERE / "nbgrader_config.py", config)
    print(f"set up the course's JupyterLab for students; wrote {config}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
