"""The students' image's one set-up step (hub/Dockerfile runs it after copying the course in):

    python /srv/minigrad/hub/set_up_image.py

1. Refuses an image that holds answers: a solutions/ folder anywhere under /srv/minigrad, or a
   notebook with nbgrader's solution markers (a worked solutions notebook copied by mistake).
2. Sets up the course's JupyterLab for students: scripts/set_up_lab.py --students (nbgrader's
   Assignments panel and Validate button on, the instructor's formgrader, course list and
   create-assignment off).
3. Shuts down a student's kernels after an hour without use (jupyter_server_config.json of this
   environment): JupyterLab keeps a kernel running for every notebook opened until it is shut
   down, and docs/jupyterhub.md sizes memory for a server and two kernels.
4. Installs the students' nbgrader configuration (hub/nbgrader_config.py: the course id and
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
SOLUTION_MARKER = "### BEGIN SOLUTION"
# Seconds: a kernel idle for an hour is shut down (its notebook stays open; running a cell
# starts a new kernel), checked every 5 minutes. A kernel running a cell is never idle.
KERNEL_CULLING = {"cull_idle_timeout": 3600, "cull_interval": 300}


def answers_in(root: Path) -> list[Path]:
    found = [path for path in root.rglob("solutions") if path.is_dir()]
    found += [path for path in root.rglob("*.ipynb")
              if SOLUTION_MARKER in path.read_text(encoding="utf-8", errors="replace")]
    return found


def main() -> int:
    leaked = answers_in(ROOT)
    if leaked:
        print("error: the students' image would hold answers: "
              + ", ".join(map(str, leaked)), file=sys.stderr)
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
