"""Where a notebook's code runs when it is graded: a worker contained by the operating system,
not by Python.

As root on Linux (CI, a grading server), each worker gets
- a user id of its own, leased for as long as it lives (no two live workers share one, even
  across grader runs on one machine: a lock file per id), so it cannot signal, trace or read
  the memory of the grader or of another worker;
- its own process, mount, network, IPC and host-name namespaces: it sees only its own
  processes, no network, and a file system holding the Python installation (read-only), the
  course's packages (read-only), its notebook's folder and a /tmp of its own, and nothing else:
  no solutions/, no other student's work, not the grader's files or command line;
- resource limits: memory, open files, file size, no core files, and no second process or
  thread (so a worker can take no more memory than its limit, no more than one CPU, and
  leave nothing behind);
and when it is done every process of its user id is killed (`kill(-1)` sent as that user, which
no fork can slip through), so nothing it started outlives it: the namespace's first process
dies with the grader's launcher, and the rest of the namespace with it.

As root where namespaces are refused (a container without CAP_SYS_ADMIN): the user id, the
limits and the killing, without the private file system ("uid"). Not as root (a laptop): the
worker runs as the grader's user ("none"), and the report says what that leaves open. Set
MINIGRAD_GRADE_SANDBOX to none, uid or namespaces to choose, MINIGRAD_GRADE_UIDS=START-END for
the range of user ids (default 1900000000-1900000999; numeric ids need no /etc/passwd entry).

This file is also the launcher: `python -I -S sandbox.py CONFIG`, run as root, enters the
namespaces, builds the file system, drops to the worker's user id and runs the worker. It uses
the standard library only."""
from __future__ import annotations

import ctypes
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

NAMESPACES, UID, NONE = "namespaces", "uid", "none"
MODE_ENV, UIDS_ENV = "MINIGRAD_GRADE_SANDBOX", "MINIGRAD_GRADE_UIDS"
DEFAULT_UIDS = (1_900_000_000, 1_900_000_999)
LOCKS = Path("/run/minigrad-grade-uids")
CANNOT = 97  # the launcher's exit status when the kernel refuses what it asks
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc")
DEVICES = ("null", "zero", "full", "random", "urandom")
# In namespaces, everything the worker may write (its notebook's folder and /tmp) is one
# memory-backed file system of this size and this many files, gone with the worker.
TMP_MB, TMP_FILES = 256, 16_384
FILES = 256  # open files per worker
STUDENT, COURSE = "/student", "/course"  # in namespaces: the notebook's folder, the packages

DESCRIPTIONS = {
    NAMESPACES: "contained: each worker ran as a user id of its own, in process, mount and "
                "network namespaces of its own, seeing only its notebook and the Python "
                "installation; every process it started was ended with it",
    UID: "partly contained: each worker ran as a user id of its own, and every process it "
         "started was ended with it; without namespaces here, a notebook could read the files "
         "every user may read (the solutions among them, if they are)",
    NONE: "NOT contained: the workers ran as this grader's user, so a notebook could read and "
          "change that user's files and signal this grader (grade as root, see "
          "docs/teaching.md); the verdicts are still the judge's",
}


class Sandbox:
    """The grader's side: which containment this machine gives, and a user id per worker."""

    def __init__(self, launcher: Path, wanted: str | None = None) -> None:
        self.launcher = launcher
        wanted = os.environ.get(MODE_ENV, "") if wanted is None else wanted
        root = hasattr(os, "geteuid") and os.geteuid() == 0 and sys.platform == "linux"
        if wanted == NONE or not root:
            self.mode = NONE
        else:
            first, last = _uid_range()
            self.uids = range(first, last + 1)
            self.mode = UID if wanted == UID else NAMESPACES
            if self.mode == NAMESPACES and not self._works():
                self.mode = UID
            if self.mode == UID and not self._works():  # Python unreadable by other users
                self.mode = NONE
                self.described = DESCRIPTIONS[NONE] + (
                    " (as root, but Python would not start as another user here: make the "
                    "Python installation readable by all users)")
                return
        self.described = DESCRIPTIONS[self.mode]

    def _works(self) -> bool:
        """Can this machine give a worker this containment? One trial: Python starts inside."""
        with self.lease() as uid, tempfile.TemporaryDirectory() as temp:
            os.chmod(temp, 0o755)
            config = self.config(uid, Path(temp), Path(temp),
                                 [sys.executable, "-I", "-S", "-c", "pass"], {})
            done = subprocess.run(self.command(config), capture_output=True, timeout=60)
            return done.returncode == 0

    def lease(self) -> "Lease":
        return Lease(self)

    def command(self, config: dict) -> list[str]:
        return [sys.executable, "-I", "-S", str(self.launcher), json.dumps(config)]

    def config(self, uid: int, work: Path, library: Path, argv: list[str], env: dict) -> dict:
        python = {str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
        python |= {str(Path(p).resolve()) for p in sys.path if "site-packages" in p and
                   Path(p).is_dir()}
        return {"uid": uid, "namespaces": self.mode == NAMESPACES, "work": str(work),
                "library": str(library), "read_only": sorted(python), "argv": argv,
                "env": env, "jail": str(work.parent / f"{work.name}-root")}


class Lease:
    """`with sandbox.lease() as uid:` a user id no other live worker has; on leaving, every
    process of that id is killed, then the id is free again."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox, self.uid, self.lock = sandbox, None, None

    def __enter__(self) -> int:
        folder = _lock_folder()
        for uid in self.sandbox.uids:
            lock = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(lock)
                continue
            self.uid, self.lock = uid, lock
            kill_all(uid)  # left over from a grader that died: none is ours to share
            return uid
        raise RuntimeError("every user id of the range is in use (MINIGRAD_GRADE_UIDS)")

    def __exit__(self, *exc_info: object) -> None:
        kill_all(self.uid)
        gone(self.uid)
        os.close(self.lock)


def _uid_range() -> tuple[int, int]:
    text = os.environ.get(UIDS_ENV, "")
    try:
        first, last = (int(part) for part in text.split("-")) if text else DEFAULT_UIDS
    except ValueError:
        raise SystemExit(f"{UIDS_ENV}={text!r}: write START-END, e.g. 1900000000-1900000999")
    if not 1000 <= first <= last < 2**31:
        raise SystemExit(f"{UIDS_ENV}={text!r}: ids from 1000 to 2147483647, START <= END")
    return first, last


def _lock_folder() -> Path:
    folder = LOCKS if Path("/run").is_dir() else Path(tempfile.gettempdir()) / LOCKS.name
    folder.mkdir(mode=0o700, exist_ok=True)
    status = folder.lstat()
    if status.st_uid != 0 or status.st_mode & 0o077 or not folder.is_dir() or folder.is_symlink():
        raise RuntimeError(f"{folder} is not root's own folder: refusing to lease user ids")
    return folder


def kill_all(uid: int) -> None:
    """Every process of `uid` killed at once: kill(-1) sent by a process of that user, which
    the kernel delivers to all of them together (a forking process cannot slip through)."""
    kill = shutil.which("kill", path="/usr/bin:/bin")
    if kill is not None:  # started with vfork and exec: no fork of this threaded process
        subprocess.run([kill, "-KILL", "-1"], user=uid, group=uid, extra_groups=[], cwd="/",
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30)
        return
    pid = os.fork()
    if pid == 0:  # only system calls here, then out
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def gone(uid: int, wait: float = 10.0) -> bool:
    """Wait (a little) until no running process has `uid` any more (zombies do not run)."""
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not any(_running_as(pid, uid) for pid in os.listdir("/proc") if pid.isdigit()):
            return True
        time.sleep(0.01)
    return False


def _running_as(pid: str, uid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return fields.get("State", "").split()[:1] != ["Z"] and \
        int(fields.get("Uid", "-1").split()[0]) == uid


# ---- the launcher: runs as root, ends as the worker ------------------------------------------

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        sys.stderr.write(f"sandbox: {what}: {os.strerror(error)}\n")
        os._exit(CANNOT)


def _mount(libc: ctypes.CDLL, source: str | None, target: str, kind: str | None,
           flags: int, data: str | None = None) -> None:
    encode = lambda text: None if text is None else text.encode()  # noqa: E731
    _check(libc.mount(encode(source), encode(target), encode(kind), ctypes.c_ulong(flags),
                      encode(data)), f"mount {source} on {target}")


def _bind(libc: ctypes.CDLL, source: str, target: str, writable: bool) -> None:
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "a").close()
    _mount(libc, source, target, None, MS_BIND | MS_REC)
    if not writable:
        _mount(libc, None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _build_root(libc: ctypes.CDLL, config: dict) -> None:
    """The worker's file system: the system's and Python's folders read-only, the course's
    packages read-only, a copy of its notebook's folder as /student and a /tmp, both in one
    file system of TMP_MB in memory (nothing it writes reaches the grader's disk), a /dev of
    its own."""
    jail = config["jail"]
    _mount(libc, None, "/", None, MS_REC | MS_PRIVATE)  # nothing of ours leaks out
    os.makedirs(jail, mode=0o755, exist_ok=True)
    _mount(libc, "tmpfs", jail, "tmpfs", MS_NOSUID | MS_NODEV,
           f"mode=755,size={TMP_MB}m,nr_inodes={TMP_FILES}")
    for folder in (*SYSTEM_DIRS, *config["read_only"]):
        if os.path.islink(folder) and folder in SYSTEM_DIRS:
            os.symlink(os.readlink(folder), jail + folder)
        elif os.path.isdir(folder) and not os.path.exists(jail + folder):
            _bind(libc, folder, jail + folder, writable=False)
    _bind(libc, config["library"], jail + COURSE, writable=False)
    for device in DEVICES:
        if os.path.exists("/dev/" + device):
            _bind(libc, "/dev/" + device, f"{jail}/dev/{device}", writable=True)
    os.makedirs(jail + "/proc")
    _mount(libc, "proc", jail + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.makedirs(jail + "/tmp", mode=0o1777)
    os.chmod(jail + "/tmp", 0o1777)
    shutil.copytree(config["work"], jail + STUDENT)
    for folder, _, files in os.walk(jail + STUDENT):
        for path in (folder, *(os.path.join(folder, name) for name in files)):
            os.chown(path, config["uid"], config["uid"])
    _check(libc.chroot(jail.encode()), "chroot")
    os.chdir(STUDENT)


def _forward(child: int) -> None:
    """The grader interrupts a cell with SIGINT: pass it on to the worker."""
    def handler(number: int, frame: object) -> None:
        try:
            os.kill(child, signal.SIGINT)
        except ProcessLookupError:
            pass
    signal.signal(signal.SIGINT, handler)


def _wait_for(child: int) -> None:
    """Reap every child (a namespace's first process adopts orphans) until `child` ends; then
    end with its status."""
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(1)
        except InterruptedError:
            continue
        if pid == child:
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _limit(processes: int) -> None:
    """The worker's limits. RLIMIT_NPROC counts the processes and threads of its user id, which
    no other process has: at `processes`, the ones running now (the namespace's first process
    and the worker), it can start none. Memory is limited per process (RLIMIT_AS, which the
    worker sets), so one process is the whole of it, and one thread is one CPU at most."""
    import resource

    for limit, value in ((resource.RLIMIT_NPROC, processes), (resource.RLIMIT_NOFILE, FILES),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))


def launch(config: dict) -> None:
    libc = _libc()
    uid = config["uid"]
    alive, keep = os.pipe() if config["namespaces"] else (None, None)
    if config["namespaces"]:
        _check(libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                            CLONE_NEWUTS), "unshare")
        first = os.fork()  # the first process of the new PID namespace
        if first:
            os.close(alive)
            _forward(first)
            _wait_for(first)
        os.close(keep)
        _build_root(libc, config)
    else:
        os.chdir(config["work"])
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if config["namespaces"]:
        _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
        import select

        if select.select([alive], [], [], 0)[0]:  # the launcher died before the line above
            os._exit(1)
        worker = os.fork()
        if worker:
            libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # the worker cannot trace this process
            _forward(worker)
            _wait_for(worker)
        os.close(alive)
    _limit(2 if config["namespaces"] else 1)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.getcwd(), "LANG": "C.UTF-8",
           "TMPDIR": "/tmp", **config["env"]}
    os.execve(config["argv"][0], config["argv"], env)


if __name__ == "__main__":
    launch(json.loads(sys.argv[1]))
