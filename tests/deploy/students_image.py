"""The students' image (hub/Dockerfile) without Docker, for the tests that check it
(tests/deploy/test_hub_image.py) and run a class on it (tests/deploy/test_jupyterhub.py).

- `build_context(folder)`: what `docker build` receives when the image is built as
  docs/jupyterhub.md says, from a clean export of what git tracks (`git archive`; edits of
  tracked files not yet committed are included, untracked files never), filtered by
  hub/Dockerfile.dockerignore with Docker's own rules (docker.utils.build, Docker's Python SDK).
- `stages()`: the Dockerfile's stages, each a list of (INSTRUCTION, arguments).
- `copy_as_docker_does(context, stage, root)`: a stage's COPY lines carried out into `root`.
- `image_environment(folder)`: the image's files and its Python environment, set up by the
  image's own step (hub/set_up_image.py). The environment is a venv layered over the project's
  .venv (its packages through a .pth file, its programs through small launchers), so that set-up
  writes into its own etc/ and share/, as in the image, and the project's JupyterLab is left
  alone. It differs from the image in what Docker alone can give: the wheel is not installed
  (the project's editable install stands for it), and JupyterLab's built application and
  extensions are the project's (JUPYTER_PATH).
"""
from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from docker.utils.build import exclude_paths

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "hub" / "Dockerfile"
DOCKERIGNORE = ROOT / "hub" / "Dockerfile.dockerignore"
IN_IMAGE = Path("/srv/minigrad")
EXCHANGE_IN_IMAGE = "/srv/nbgrader/exchange"
# A test-only stand-in for the OS user every pod runs as (jovyan), read at interpreter start
# by the environment's .pth file: nbgrader takes a student's name from JUPYTERHUB_USER only
# when the OS user is jovyan, and this machine has no such user.
AS_OS_USER = "MINIGRAD_TEST_OS_USER"
OS_USER_SHIM = f'''"""Test only (tests/deploy/students_image.py): with ${AS_OS_USER} set, this
process's own uid reads as that OS user's name, as in a hub's pod, where every server runs as
jovyan."""
import os
import pwd

_name = os.environ.get("{AS_OS_USER}")
if _name:
    _getpwuid = pwd.getpwuid

    def _as_pod_user(uid, _getpwuid=_getpwuid):
        entry = _getpwuid(uid)
        if uid != os.getuid():
            return entry
        return pwd.struct_passwd((_name, *tuple(entry)[1:]))

    pwd.getpwuid = _as_pod_user
'''


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", "-c", "user.name=minigrad tests", "-c",
                           "user.email=tests@localhost", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout.strip()


def export_tracked(folder: Path) -> Path:
    """`git archive` of the working tree's tracked files (a stash commit holds the edits not
    yet committed; HEAD when there are none) unpacked into `folder`."""
    commit = git("stash", "create") or "HEAD"
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def ignore_rules() -> list[str]:
    return [line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def context_files(folder: Path) -> set[str]:
    """The files of `folder` that enter a build of hub/Dockerfile, by Docker's rules."""
    kept = exclude_paths(str(folder), ignore_rules(), dockerfile="hub/Dockerfile")
    return {path for path in kept if (folder / path).is_file()}


def build_context(folder: Path) -> Path:
    """The build context as `docker build` gets it: the export, less what Docker leaves out."""
    export = export_tracked(folder.with_name(folder.name + "-export"))
    for relative in sorted(context_files(export)):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(export / relative, folder / relative)
    return folder


@dataclass
class Stage:
    name: str | None
    base: str
    instructions: list[tuple[str, str]]

    def copies(self) -> list[tuple[list[str], str, list[str]]]:
        """(sources, destination, --options) of every COPY and ADD."""
        found = []
        for word, rest in self.instructions:
            if word in ("COPY", "ADD"):
                parts = shlex.split(rest)
                options = [p for p in parts if p.startswith("--")]
                paths = [p for p in parts if not p.startswith("--")]
                found.append((paths[:-1], paths[-1], options))
        return found

    def runs(self) -> str:
        return " ".join(rest for word, rest in self.instructions if word == "RUN")


def stages(path: Path = DOCKERFILE) -> list[Stage]:
    """The Dockerfile's stages: continuation lines joined, comments dropped."""
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("#"))
    text = re.sub(r"\\\n", " ", text)
    found: list[Stage] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        word, _, rest = line.strip().partition(" ")
        rest = " ".join(rest.split())
        if word.upper() == "FROM":
            base, _, name = rest.partition(" AS ")
            found.append(Stage(name or None, base, []))
        else:
            found[-1].instructions.append((word.upper(), rest))
    return found


def copy_as_docker_does(context: Path, stage: Stage, root: Path) -> None:
    """Carry out the stage's COPY lines from the build context into `root` (its filesystem);
    a COPY --from another stage is left to the caller."""
    for sources, destination, options in stage.copies():
        if any(option.startswith("--from") for option in options):
            continue
        target = root / destination.lstrip("/")
        for source in sources:
            path = context / source
            if not path.exists():
                raise FileNotFoundError(f"COPY {source}: not in the build context "
                                        "(hub/Dockerfile.dockerignore leaves it out?)")
            if path.is_dir():  # COPY dir/ dest/ copies the folder's contents into dest/
                shutil.copytree(path, target, dirs_exist_ok=True)
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target / path.name)


def write_launchers(bin_dir: Path, python: Path) -> None:
    """A launcher in `bin_dir` for every program the project's .venv installs, run by the
    layered environment's own python (as the image's programs run by the image's)."""
    for entry in entry_points(group="console_scripts"):
        launcher = bin_dir / entry.name
        if launcher.exists():
            continue
        module, _, attribute = entry.value.partition(":")
        launcher.write_text(f"#!{python}\nimport sys\nfrom {module} import "
                            f"{attribute.split('.')[0]}\nsys.exit({attribute}())\n",
                            encoding="utf-8")
        launcher.chmod(0o755)


def layered_environment(environment: Path) -> Path:
    """A venv at `environment` holding the project's .venv's packages (through a .pth file) and
    programs (launchers run by its own python); returns its python."""
    venv.EnvBuilder(with_pip=False).create(environment)
    python = environment / "bin" / "python"
    site_packages = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    # addsitedir, not a bare path: the project's editable install is itself a .pth file there.
    ours = sysconfig.get_paths()["purelib"]
    (site_packages / "the_course.pth").write_text(
        f"import site; site.addsitedir({ours!r})\nimport _minigrad_test_os_user\n",
        encoding="utf-8")
    (site_packages / "_minigrad_test_os_user.py").write_text(OS_USER_SHIM, encoding="utf-8")
    write_launchers(environment / "bin", python)
    return python


@dataclass
class Image:
    root: Path  # the image's files: root / "srv/minigrad/..."
    python: Path  # the image's python
    env: dict[str, str]  # the environment a process in the image starts with (HOME set apart)

    @property
    def srv(self) -> Path:
        return self.root / IN_IMAGE.relative_to("/")

    def environ(self, home: Path, **extra: str) -> dict[str, str]:
        return {**self.env, "HOME": str(home), **extra}


def image_environment(folder: Path, exchange: str | None = None) -> Image:
    """The image's files and environment in `folder`, set up by hub/set_up_image.py as the
    Dockerfile runs it; with `exchange`, the students' nbgrader config names that folder
    instead of the image's /srv/nbgrader/exchange."""
    context = build_context(folder / "context")
    [*_, final] = stages()
    root = folder / "root"
    copy_as_docker_does(context, final, root)
    environment = folder / "env"
    python = layered_environment(environment)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JUPYTER", "PYTHON", "VIRTUAL_ENV", "MINIGRAD"))}
    env["PATH"] = os.pathsep.join([str(environment / "bin"), env.get("PATH", "")])
    # nbgrader's JupyterLab extension lives in the project's share/jupyter, as the image's lives
    # in its own.
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    # The image's python is no venv: Jupyter ranks the user's config above the environment's
    # there (a venv would rank its own first).
    env["JUPYTER_PREFER_ENV_PATH"] = "0"
    builder = folder / "builder-home"
    builder.mkdir()
    done = subprocess.run([python, root / "srv/minigrad/hub/set_up_image.py"],
                          env={**env, "HOME": str(builder)}, capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"hub/set_up_image.py failed:\n{done.stdout}{done.stderr}")
    if exchange is not None:
        config = environment / "etc" / "jupyter" / "nbgrader_config.py"
        config.write_text(config.read_text(encoding="utf-8").replace(EXCHANGE_IN_IMAGE, exchange),
                          encoding="utf-8")
    return Image(root=root, python=python, env=env)
