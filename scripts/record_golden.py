#!/usr/bin/env python3
"""Record the expected outputs of the golden programs with the real PyTorch 2.13.

    python scripts/record_golden.py            # record every program
    python scripts/record_golden.py 001 044    # only programs whose names start so
    python scripts/record_golden.py --check    # compare instead of writing; exit 1 on change
    python scripts/record_golden.py --margins  # flag printed numbers that are fragile (see below)

Each program in tests/golden/programs/ runs in its own process with the real torch
(`tests/golden/run_as_torch.py --real-torch`), from a temporary working directory, with
PYTHONHASHSEED=0 and no other PYTHON* variable. Its stdout (then, if any, its stderr after a
marker) is written to tests/golden/expected/<program name>.txt.

The script refuses to record with any torch other than 2.13.x, refuses a program that exits
with an error, and refuses an output that looks machine-specific (a file path or a memory
address): change the program so that it prints something portable instead.

--margins reruns the programs with float64 as the default dtype and 12-digit printing, pairs
the numbers with those of the recorded outputs, and lists every printed float32 number that
lies within a few float32 ulps of a rounding boundary of the digits shown: a last-bit difference
in an engine (numpy's exp versus torch's, another summation order) could flip such a digit.
Change the program's inputs until it reports nothing.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import math
import os
import re
import subprocess
import sys
import tempfile

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(REPO_ROOT, "tests", "golden")
PROGRAMS = os.path.join(GOLDEN, "programs")
EXPECTED = os.path.join(GOLDEN, "expected")
RUNNER = os.path.join(GOLDEN, "run_as_torch.py")
REQUIRED_TORCH = "2.13."

sys.path.insert(0, GOLDEN)
from run_as_torch import child_env, combine  # noqa: E402

# Things that must not appear in a recorded output.
MACHINE_SPECIFIC = [
    (re.compile(r"0x[0-9a-fA-F]{6,}"), "a memory address"),
    (re.compile(r"\bat 0x"), "an object repr with an address"),
    (re.compile(r'File "'), "a traceback"),
    (re.compile(r"(^|[\s'\"(=])/(home|work|tmp|usr|opt|root|__w|pytorch|var)/"), "an absolute path"),
    (re.compile(r"site-packages"), "an installed-package path"),
    (re.compile(r"[A-Za-z_]+\.py:\d+"), "a file name with a line number"),
    (re.compile(re.escape(REPO_ROOT)), "the repository path"),
]


MARGIN_PRELUDE = """
import runpy, sys, warnings, torch
torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=12, sci_mode=False)
warnings.simplefilter("ignore")
runpy.run_path(sys.argv[1], run_name="__main__")
"""
NUMBER = re.compile(r"-?\d+\.\d*(?:e[+-]\d+)?")
MARGIN_ULPS = 3


def fragile_numbers(python: str, program: str) -> list[str]:
    """Printed numbers of a recorded output that sit within MARGIN_ULPS float32 ulps of a rounding boundary."""
    name = os.path.basename(program)[:-3]
    with open(os.path.join(EXPECTED, name + ".txt"), encoding="utf-8") as f:
        recorded = NUMBER.findall(f.read())
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run(
            [python, "-s", "-c", MARGIN_PRELUDE, program], capture_output=True, text=True, env=child_env(), cwd=cwd
        )
    precise = NUMBER.findall(proc.stdout)
    if len(recorded) != len(precise):
        return [f"cannot pair the numbers ({len(recorded)} recorded, {len(precise)} in float64): check by hand"]
    found = []
    for shown, exact in zip(recorded, precise):
        mantissa, _, exponent = shown.partition("e")
        decimals = len(mantissa.split(".")[1]) - int(exponent or 0)
        if not mantissa.split(".")[1] or len(mantissa.split(".")[1]) > 6:
            continue  # an integer value, or the full repr of a Python float from item()
        value = float(exact)
        scaled = abs(value) * 10**decimals
        if value == 0 or abs(scaled - round(scaled)) <= 1e-9 * scaled:
            continue  # exact at the digits shown
        distance = abs(scaled - math.floor(scaled) - 0.5) / 10**decimals
        ulps = distance / (abs(value) * 2.0**-23)
        if ulps < MARGIN_ULPS:
            found.append(f"{shown} (float64: {exact}) is {ulps:.1f} float32 ulps from a rounding boundary")
    return found


def torch_version(python: str) -> str:
    proc = subprocess.run(
        [python, "-s", "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=tempfile.gettempdir(),
    )
    if proc.returncode != 0:
        sys.exit(f"record_golden: cannot import torch with {python}:\n{proc.stderr}")
    return proc.stdout.strip()


def run_one(python: str, program: str, timeout: int) -> tuple[str, dict]:
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run(
            [python, "-s", RUNNER, "--real-torch", program],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=child_env(),
            cwd=cwd,
            timeout=timeout,
        )
    return program, {"stdout": proc.stdout, "stderr": proc.stderr, "status": proc.returncode}


def problems_in(text: str) -> list[str]:
    found = []
    for pattern, what in MACHINE_SPECIFIC:
        m = pattern.search(text)
        if m:
            line = text[: m.start()].count("\n") + 1
            found.append(f"line {line}: {what}: {m.group(0)!r}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", help="record only programs whose file names start with these")
    parser.add_argument("--check", action="store_true", help="do not write; report differences")
    parser.add_argument("--margins", action="store_true", help="list fragile printed numbers; do not record")
    parser.add_argument("--python", default=sys.executable, help="interpreter with torch 2.13 (default: this one)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per program")
    args = parser.parse_args()

    version = torch_version(args.python)
    if not version.startswith(REQUIRED_TORCH):
        sys.exit(f"record_golden: refusing to record with torch {version}; the golden outputs are for torch {REQUIRED_TORCH}x")

    programs = sorted(
        os.path.join(PROGRAMS, n)
        for n in os.listdir(PROGRAMS)
        if n.endswith(".py") and not n.startswith("_") and (not args.only or any(n.startswith(o) for o in args.only))
    )
    if not programs:
        sys.exit("record_golden: no program selected")
    print(f"record_golden: torch {version}, {len(programs)} programs", flush=True)

    if args.margins:
        flagged = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for program, found in zip(programs, pool.map(lambda p: fragile_numbers(args.python, p), programs)):
                for line in found:
                    flagged += 1
                    print(f"{os.path.basename(program)}: {line}")
        print(f"record_golden: {flagged} fragile number(s)")
        return 1 if flagged else 0

    failures = []
    changed = []
    outputs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, args.python, p, args.timeout) for p in programs]
        for fut in concurrent.futures.as_completed(futures):
            program, res = fut.result()
            name = os.path.basename(program)
            if res["status"] != 0:
                failures.append(f"{name}: exit status {res['status']}\n{res['stderr']}")
                continue
            text = combine(res["stdout"], res["stderr"], res["status"])
            bad = problems_in(text)
            if bad:
                failures.append(f"{name}: machine-specific output, change the program:\n  " + "\n  ".join(bad))
                continue
            if res["stderr"]:
                print(f"record_golden: note: {name} writes to stderr (recorded after the marker)")
            outputs[name] = text

    os.makedirs(EXPECTED, exist_ok=True)
    for name in sorted(outputs):
        dest = os.path.join(EXPECTED, name[:-3] + ".txt")
        old = open(dest, encoding="utf-8").read() if os.path.exists(dest) else None
        if old == outputs[name]:
            continue
        changed.append(name)
        if args.check:
            diff = difflib.unified_diff(
                (old or "").splitlines(True), outputs[name].splitlines(True), f"expected/{name[:-3]}.txt", "torch"
            )
            sys.stdout.writelines(diff)
        else:
            with open(dest, "w", encoding="utf-8", newline="\n") as f:
                f.write(outputs[name])

    if not args.only:  # expected files whose program is gone
        wanted = {os.path.basename(p)[:-3] + ".txt" for p in programs}
        for n in sorted(os.listdir(EXPECTED)):
            if n.endswith(".txt") and n not in wanted:
                changed.append(n)
                if not args.check:
                    os.remove(os.path.join(EXPECTED, n))
                    print(f"record_golden: removed stale {n}")

    verb = "differ" if args.check else "written"
    print(f"record_golden: {len(outputs)} recorded, {len(changed)} {verb}, {len(failures)} failed")
    for f in failures:
        print("FAILED " + f, file=sys.stderr)
    return 1 if failures or (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
