#!/usr/bin/env python3
"""Record what PyTorch 2.13 shows for each program of the golden programs and of the tutorial
corpus, the transcripts tests/parity/test_programs.py compares minigrad with.

    python scripts/record_transcripts.py            # record every program of both suites
    python scripts/record_transcripts.py golden     # one suite (golden or corpus)
    python scripts/record_transcripts.py golden 001 044   # programs whose names start so
    python scripts/record_transcripts.py --check    # compare instead of writing; exit 1 on change
    python scripts/record_transcripts.py --margins  # the golden programs' fragile numbers

Programs run with tests/harness/programs.py (each in a process of its own, from a temporary
working directory, PYTHONHASHSEED=0). The script refuses to record with any torch other than
2.13.x, and refuses a golden transcript that ends in an error or looks machine-specific (a file
path or a memory address): change the program so that it prints something portable instead.

--margins reruns the golden programs with float64 as the default dtype and 12-digit printing,
pairs the numbers with those of the recorded transcripts, and lists every printed float32
number that lies within a few float32 ulps of a rounding boundary of the digits shown: a
last-bit difference in an engine (numpy's exp against torch's, another summation order) could
flip such a digit. Change the program's inputs until it reports nothing.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness import programs as runner
from harness.suites import SUITES, Suite

# Things that must not appear in a golden transcript.
MACHINE_SPECIFIC = [
    (re.compile(r"0x[0-9a-fA-F]{6,}"), "a memory address"),
    (re.compile(r"\bat 0x"), "an object repr with an address"),
    (re.compile(r'File "'), "a traceback"),
    (re.compile(r"(^|[\s'\"(=])/(home|work|tmp|usr|opt|root|__w|pytorch|var)/"), "an absolute path"),
    (re.compile(r"site-packages"), "an installed-package path"),
    (re.compile(r"[A-Za-z_]+\.py:\d+"), "a file name with a line number"),
    (re.compile(re.escape(str(ROOT))), "the repository path"),
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


def fragile_numbers(suite: Suite, program: Path) -> list[str]:
    """Printed numbers of a recorded transcript within MARGIN_ULPS float32 ulps of a rounding
    boundary."""
    recorded = NUMBER.findall(suite.transcript(program).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run([sys.executable, "-s", "-c", MARGIN_PRELUDE, str(program)],
                              capture_output=True, text=True, env=runner.environment(), cwd=cwd,
                              check=False)
    precise = NUMBER.findall(done.stdout)
    if len(recorded) != len(precise):
        return [f"cannot pair the numbers ({len(recorded)} recorded, {len(precise)} in "
                "float64): check by hand"]
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
            found.append(f"{shown} (float64: {exact}) is {ulps:.1f} float32 ulps from a "
                         "rounding boundary")
    return found


def problems_in(suite: Suite, result: dict) -> list[str]:
    """Why a transcript cannot be recorded: the program failed, or (golden) its transcript
    would not be the same on another machine."""
    if result["status"] or result["stderr"]:
        return [f"exit status {result['status']}\n{result['stderr']}"]
    found = []
    for pattern, what in MACHINE_SPECIFIC if suite.name == "golden" else ():
        match = pattern.search(result["transcript"])
        if match:
            line = result["transcript"][: match.start()].count("\n") + 1
            found.append(f"line {line}: {what}: {match.group(0)!r}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", nargs="?", choices=sorted(SUITES), help="one suite only")
    parser.add_argument("only", nargs="*", help="only programs whose names start with these")
    parser.add_argument("--check", action="store_true", help="do not write; report differences")
    parser.add_argument("--margins", action="store_true",
                        help="list the golden programs' fragile printed numbers; do not record")
    args = parser.parse_args()

    version = runner.torch_version() or "none"
    if not version.startswith(runner.REFERENCE_VERSION):
        sys.exit(f"record_transcripts: refusing to record with torch {version}; the transcripts "
                 f"are PyTorch {runner.REFERENCE_VERSION}x's")
    suites = [SUITES[args.suite]] if args.suite else list(SUITES.values())
    if args.margins:
        golden = SUITES["golden"]
        chosen = [p for p in golden.programs() if not args.only or p.name.startswith(tuple(args.only))]
        flagged = 0
        with concurrent.futures.ThreadPoolExecutor() as pool:
            for program, found in zip(chosen, pool.map(lambda p: fragile_numbers(golden, p), chosen)):
                for line in found:
                    flagged += 1
                    print(f"{program.name}: {line}")
        print(f"record_transcripts: {flagged} fragile number(s)")
        return 1 if flagged else 0

    failures, changed = [], []
    for suite in suites:
        chosen = [p for p in suite.programs() if not args.only or p.name.startswith(tuple(args.only))]
        print(f"record_transcripts: {suite.name}, {len(chosen)} programs, torch {version}",
              flush=True)
        for program, result in runner.run(chosen, "torch", mkl_sqrt=suite.mkl_sqrt).items():
            problems = problems_in(suite, result)
            if problems:
                failures.append(f"{program.name}: " + "\n  ".join(problems))
                continue
            stored = suite.transcript(program)
            old = stored.read_text(encoding="utf-8") if stored.exists() else None
            if old == result["transcript"]:
                continue
            changed.append(stored.name)
            if args.check:
                sys.stdout.writelines(difflib.unified_diff(
                    (old or "").splitlines(True), result["transcript"].splitlines(True),
                    str(stored.relative_to(ROOT)), "torch"))
            else:
                stored.parent.mkdir(exist_ok=True)
                stored.write_text(result["transcript"], encoding="utf-8", newline="\n")
        if not args.only:  # transcripts whose program is gone
            for stale in suite.stale_transcripts():
                changed.append(stale.name)
                if not args.check:
                    stale.unlink()
                    print(f"record_transcripts: removed stale {stale.relative_to(ROOT)}")

    verb = "differ" if args.check else "written"
    print(f"record_transcripts: {len(changed)} {verb}, {len(failures)} failed")
    for failure in failures:
        print("FAILED " + failure, file=sys.stderr)
    return 1 if failures or (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
