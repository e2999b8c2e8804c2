"""A student's server on the class's hub starts here (the image's command, hub/Dockerfile):

    python /srv/minigrad/hub/start.py jupyterhub-singleuser [ARGS...]
    python /srv/minigrad/hub/start.py            # only bring the course's files home

First the course's files shipped in the image (/srv/minigrad/shipped: the lessons, notebooks/;
the exercises are nbgrader assignments the student fetches; never solutions/) come into the
student's home, then the command given replaces this process. A home is a persistent volume
that outlives the image, so each start compares three things for every shipped file: the file
in the image, the file in the home, and the manifest (~/.minigrad/shipped.json) of what the
last start put there, by SHA-256.

- missing from the home (new in the course, or deleted by the student): copied;
- in the home exactly as shipped last time, and the image has a new version: updated;
- in the home and different from what was shipped (the student edited or ran and saved it), or
  there before any manifest: kept as it is, with one line in the server's log saying where the
  course's new version is (the student renames theirs and restarts to get it).

Nothing is ever deleted. Each file is written to a temporary name and renamed, so a start that
is stopped halfway leaves no half-written notebook to be mistaken for the student's edit.

Every notebook in the home as the course shipped it is then signed as trusted for the student
(as `jupyter trust` does, in ~/.local/share/jupyter): JupyterLab shows the stored diagrams (SVG
outputs) of trusted notebooks only, and a home is new to the signature database at first.

Any error stops the start with a message and exit status 1: the hub then reports the server as
failed to start, rather than a student starting with a home that silently lacks the course.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent.parent / "shipped"
FOLDERS = ("notebooks",)
MANIFEST = Path(".minigrad") / "shipped.json"


class StartFailed(Exception):
    """The course could not be brought home (the message is one line)."""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shipped_files(shipped: Path) -> dict[str, Path]:
    """Every file under the shipped folders, by its path relative to the home (POSIX)."""
    if (shipped / "solutions").exists():
        raise StartFailed(f"{shipped / 'solutions'} is in the image: students must never get it")
    files = {}
    for folder in FOLDERS:
        if not (shipped / folder).is_dir():
            raise StartFailed(f"{shipped / folder}: no such folder in the image")
        for path in sorted((shipped / folder).rglob("*")):
            if path.is_file() and ".ipynb_checkpoints" not in path.parts:
                files[path.relative_to(shipped).as_posix()] = path
    return files


def read_manifest(home: Path) -> dict[str, str]:
    path = home / MANIFEST
    if not path.exists():
        return {}
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise StartFailed(f"{path} is damaged ({error}): delete it, and every course file "
                          "you have changed is kept") from None
    if not isinstance(manifest, dict):
        raise StartFailed(f"{path} is not a manifest: delete it")
    return manifest


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.minigrad-{os.getpid()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def bring_home(shipped: Path, home: Path) -> dict[str, list[str]]:
    """Copy new and updated course files into `home`; returns what happened to each file, by
    "copied", "updated", "kept", "unchanged". Raises StartFailed."""
    manifest = read_manifest(home)
    done: dict[str, list[str]] = {"copied": [], "updated": [], "kept": [], "unchanged": []}
    new_manifest = {}
    for relative, source in shipped_files(shipped).items():
        data = source.read_bytes()
        wanted = hashlib.sha256(data).hexdigest()
        target = home / relative
        new_manifest[relative] = wanted
        if not target.exists():
            write_atomically(target, data)
            done["copied"].append(relative)
        elif (have := digest(target)) == wanted:
            done["unchanged"].append(relative)
        elif manifest.get(relative) == have:  # untouched since we shipped it
            write_atomically(target, data)
            done["updated"].append(relative)
        else:
            done["kept"].append(relative)
    write_atomically(home / MANIFEST, (json.dumps(new_manifest, indent=1, sort_keys=True)
                                       + "\n").encode())
    return done


def trust(home: Path, relatives: list[str]) -> list[str]:
    """Sign these notebooks of the home (as shipped: the course's own) for this user; returns
    those that are not notebooks nbformat can read (left unsigned: their stored diagrams stay
    hidden until run, which is no reason to keep the student from their server)."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    unreadable = []
    for relative in relatives:
        if not relative.endswith(".ipynb"):
            continue
        try:
            notebook = nbformat.read(home / relative, as_version=nbformat.NO_CONVERT)
            if not notary.check_signature(notebook):
                notary.sign(notebook)
        except (ValueError, AttributeError, nbformat.reader.NotJSONError):
            unreadable.append(relative)
    return unreadable


def main(argv: list[str]) -> int:
    home = Path.home()
    try:
        done = bring_home(SHIPPED, home)
        unreadable = trust(home, done["copied"] + done["updated"] + done["unchanged"])
    except (StartFailed, OSError) as error:
        print(f"minigrad start: error: could not bring the course into {home}: {error}",
              file=sys.stderr, flush=True)
        return 1
    counts = ", ".join(f"{len(files)} {what}" for what, files in done.items())
    print(f"minigrad start: course files in {home}: {counts}", file=sys.stderr)
    for relative in unreadable:
        print(f"minigrad start: {relative} is not a notebook nbformat reads: not trusted",
              file=sys.stderr)
    for relative in done["kept"]:
        print(f"minigrad start: kept your {relative}; the course's version is "
              f"{SHIPPED / relative}", file=sys.stderr)
    sys.stderr.flush()
    if argv:
        os.execvp(argv[0], argv)  # the server replaces this process: signals reach it directly
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
