"""(d) Peak memory of a 1,000,000-op chain, forward and backward, each library in a fresh
process so that nothing else inflates its peak (resident set size, as the OS counts it). Run directly, this file is that process:
`python benchmarks/memory.py minigrad 1000000` prints the peak and the after-import RSS in KiB."""
from __future__ import annotations

import importlib
import importlib.util
import resource
import subprocess
import sys
from pathlib import Path

LENGTH = 1_000_000


def _peak_kib() -> int:
    """This process's peak resident memory. Linux's VmHWM is reset by exec; ru_maxrss is not
    (it would report the parent's peak if that was higher), so it is only the fallback."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def peak_mib(library: str, length: int = LENGTH) -> tuple[float, float] | str:
    """(peak RSS, RSS right after import) in MiB of a process that runs the chain, or why not."""
    if importlib.util.find_spec(library) is None:
        return "not installed"
    done = subprocess.run([sys.executable, __file__, library, str(length)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return f"failed: {last}"
    peak, baseline = (int(word) for word in done.stdout.split())
    return peak / 1024, baseline / 1024


def _child(library: str, length: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from chain import chain_backward

    lib = importlib.import_module(library)
    baseline = _peak_kib()
    chain_backward(lib, length)
    print(_peak_kib(), baseline)


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]))
