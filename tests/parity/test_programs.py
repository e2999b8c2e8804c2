"""Programs written for PyTorch, run unchanged with minigrad as `torch`, show what PyTorch 2.13
showed: the golden programs (tests/golden/programs/: one rule of `.grad` each) and the tutorial
corpus (tests/corpus/: programs from the public tutorials learners know, each naming its source
and edits at its top). PyTorch's transcripts are stored (scripts/record_transcripts.py); with
PyTorch 2.13 installed, each is also checked to be what PyTorch shows today.

Every program of a test session runs once per library, in one batch (tests/harness/programs.py):
one process imports the library, then forks a child per program, a CPU each.

To see one program's transcript:  python tests/harness/programs.py [--torch] PROGRAM.py"""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import numpy as np
import pytest

from harness import programs as runner
from harness.suites import MKL_SQRT, SUITES, Suite

NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")
RECORD = "python scripts/record_transcripts.py"


def _cases() -> list:
    return [pytest.param(suite, program, id=f"{suite.name}/{program.stem}",
                         marks=[pytest.mark.slow] if suite.is_slow(program) else [])
            for suite in SUITES.values() for program in suite.programs()]


CASES = _cases()


@pytest.fixture(scope="session")
def transcripts(request: pytest.FixtureRequest) -> dict:
    """What each program of this session shows, by library: the programs of the tests selected
    from this file, all run at the first test that asks, in one batch per library."""
    by_library: dict[str, dict] = {}

    def get(library: str, program: Path) -> dict:
        if library not in by_library:
            wanted = sorted({item.callspec.params["program"] for item in request.session.items
                             if getattr(item, "module", None) is not None  # not nbval's cells
                             and item.module.__name__ == __name__
                             and item.originalname == LIBRARY_TESTS[library]})
            by_library[library] = runner.run(wanted, library, mkl_sqrt=MKL_SQRT)
        return by_library[library][program]

    return get


def _differs(suite: Suite, program: Path, result: dict, library: str) -> str | None:
    """Why the transcript is not PyTorch's stored one, or None."""
    stored = suite.transcript(program)
    if not stored.exists():
        return f"no transcript of PyTorch's for {program.name}: run {RECORD} {suite.name}"
    if result["status"] or result["stderr"]:
        return (f"{program.name} on {library} did not run to its end (exit status "
                f"{result['status']}):\n{result['stderr']}")
    expected, got = stored.read_text(encoding="utf-8"), result["transcript"]
    if program.stem in suite.float_order:
        return _differs_beyond_float32_rounding(got, expected)
    if got == expected:
        return None
    diff = "".join(difflib.unified_diff(
        expected.splitlines(True), got.splitlines(True),
        fromfile=f"{stored.relative_to(stored.parents[2])} (torch 2.13)",
        tofile=f"{program.name} ({library})"))
    return (f"{program.name} shows something else on {library} than PyTorch 2.13 showed\n"
            f"(rerun: python tests/harness/programs.py{' --torch' * (library == 'torch')} "
            f"{program})\n"
            f"{diff}")


def _differs_beyond_float32_rounding(got: str, expected: str) -> str | None:
    """The same text with every number replaced by #, and numbers that agree as np.isclose."""
    if NUMBER.sub("#", got) != NUMBER.sub("#", expected):
        diff = difflib.unified_diff(NUMBER.sub("#", expected).splitlines(True),
                                    NUMBER.sub("#", got).splitlines(True))
        return "the text around the numbers differs:\n" + "".join(diff)
    got_numbers = [float(n) for n in NUMBER.findall(got)]
    expected_numbers = [float(n) for n in NUMBER.findall(expected)]
    close = np.isclose(got_numbers, expected_numbers)
    if not close.all():
        return "numbers differ beyond float32 rounding: " + str(
            [(g, e) for g, e, ok in zip(got_numbers, expected_numbers, close) if not ok])
    return None


@pytest.mark.parametrize(("suite", "program"), CASES)
def test_minigrad_shows_what_pytorch_showed(suite: Suite, program: Path, transcripts) -> None:
    why = _differs(suite, program, transcripts("minigrad", program), "minigrad")
    if why:
        pytest.fail(why, pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize(("suite", "program"), CASES)
def test_pytorch_shows_it_today(suite: Suite, program: Path, transcripts, torch) -> None:
    """The stored transcript is what PyTorch 2.13 shows now (FLOAT_ORDER programs up to float32
    rounding, which for PyTorch too varies with the CPU: MKL's sgemm/sdot take another code
    path on an AVX-512 machine than on the one they were recorded on; MKL_SQRT programs with
    PyTorch's float32 sqrt correctly rounded where this CPU's MKL does not round it so)."""
    why = _differs(suite, program, transcripts("torch", program), "torch")
    if why:
        pytest.fail(f"{why}\n(re-record: {RECORD} {suite.name} {program.stem})", pytrace=False)


LIBRARY_TESTS = {"minigrad": test_minigrad_shows_what_pytorch_showed.__name__,
                 "torch": test_pytorch_shows_it_today.__name__}


@pytest.mark.parametrize("suite", SUITES.values(), ids=SUITES)
def test_every_transcript_has_a_program(suite: Suite) -> None:
    stale = [t.name for t in suite.stale_transcripts()]
    assert not stale, f"transcripts without a program (rerun {RECORD} {suite.name}): {stale}"


def test_the_corpus_is_broad() -> None:
    """At least 15 programs from at least 6 sources (the file name's first word)."""
    programs = SUITES["corpus"].programs()
    sources = {p.stem.split("_")[0] for p in programs}
    assert len(programs) >= 15 and len(sources) >= 6, (len(programs), sorted(sources))


@pytest.mark.parametrize("program", SUITES["corpus"].programs(), ids=lambda p: p.stem)
def test_a_corpus_program_names_its_source_and_edits(program: Path) -> None:
    head = program.read_text().splitlines()[:12]
    assert head[0].startswith("# Source: "), f"{program.name} must start with '# Source: ...'"
    assert any(re.match(r"# Edits: ", line) for line in head), f"{program.name} lists no edits"
    code = [line for line in program.read_text().splitlines()
            if not line.lstrip().startswith("#")]
    assert not any("minigrad" in line for line in code), (
        f"{program.name} must be PyTorch code: the runner swaps minigrad in")


def test_float32_rounding_comparison_rejects_a_different_result() -> None:
    """The looser comparison still fails on a wrong digit that is not rounding, or other text."""
    expected = "99 582.650390625\nResult: y = -0.2765 + 0.4315 x\n"
    assert _differs_beyond_float32_rounding(
        "99 582.6502685546875\nResult: y = -0.2765 + 0.4315 x\n", expected) is None
    for wrong in ("99 582.7502685546875\nResult: y = -0.2765 + 0.4315 x\n",
                  "99 582.650390625\nResult: y = 0.2765 + 0.4315 x\n",
                  "99 582.650390625\nResult: y = -0.2765 + 0.4315 x^2\n"):
        assert _differs_beyond_float32_rounding(wrong, expected) is not None


def test_a_transcript_shows_prints_warnings_and_the_error_in_order(tmp_path: Path) -> None:
    """What the runner gives: the program's lines, each warning where it was raised (every
    time), the uncaught error last, a node's address dropped."""
    program = tmp_path / "program.py"
    program.write_text(
        "import warnings, torch\n"
        "print('first')\n"
        "for _ in range(2):\n"
        "    warnings.warn('careful')\n"
        "print(torch.tensor([1.0], requires_grad=True).exp().grad_fn)\n"
        "raise ValueError('the end')\n"
        "print('never')\n")
    result = runner.run([program], "minigrad")[program]
    assert result == {"status": 0, "stderr": "", "transcript": (
        "first\nUserWarning: careful\nUserWarning: careful\n<ExpBackward0 object>\n"
        "ValueError: the end\n")}


def test_a_name_minigrad_lacks_shows_only_its_error(tmp_path: Path) -> None:
    """minigrad's module __getattr__ imports relatively; under the name torch it must not warn
    that __package__ != __spec__.parent (the runner gives each aliased module its own spec)."""
    program = tmp_path / "missing.py"
    program.write_text("import torch\nprint(torch.ones(1))\ntorch.no_such_name\n")
    result = runner.run([program], "minigrad")[program]
    assert result["transcript"] == (
        "tensor([1.])\nAttributeError: module 'torch' has no attribute 'no_such_name' "
        "(minigrad is a subset of PyTorch: docs/api.md lists what it has)\n")


def test_correctly_rounded_sqrt_is_the_only_change(tmp_path: Path, torch) -> None:
    """How MKL_SQRT programs run on PyTorch where this CPU's MKL rounds sqrt otherwise: float32
    sqrt's values correctly rounded, and float64, gradients and every other operation left to
    PyTorch."""
    program = tmp_path / "sqrt.py"
    program.write_text(
        "import numpy as np, torch\n"
        "x = np.random.default_rng(1).random(3000, dtype=np.float32) * 50\n"
        "exact = np.sqrt(x.astype(np.float64)).astype(np.float32)\n"
        "t = torch.from_numpy(x.copy())\n"
        "with torch.no_grad():\n"
        "    print(np.array_equal(t.sqrt().numpy(), exact),\n"
        "          np.array_equal(torch.sqrt(t).numpy(), exact),\n"
        "          np.array_equal(t.clone().sqrt_().numpy(), exact))\n"
        "w = torch.tensor([4.0, 9.0], requires_grad=True)\n"
        "w.sqrt().sum().backward()\n"
        "print(w.grad, torch.tensor([2.0], dtype=torch.float64).sqrt(), (t * 2).exp().sum() > 0)\n")
    result = runner.run([program], "torch", mkl_sqrt={"sqrt"}, rounded_sqrt="always")[program]
    assert (result["status"], result["stderr"]) == (0, ""), result
    assert result["transcript"] == ("True True True\ntensor([0.2500, 0.1667]) tensor([1.4142], "
                                    "dtype=torch.float64) tensor(True)\n")
