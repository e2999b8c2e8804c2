"""Counts the PyTorch API that public teaching code uses, into tests/data/tutorial_api_usage.csv
(name, uses, source, commit); scripts/api_coverage.py then measures minigrad against it offline.

    python scripts/scan_tutorial_api.py [--mirrors DIR]   # needs PyTorch 2.13 in this Python

Each source in SOURCES is read, at its named commit, from a local git copy (bare or not) at
DIR/<owner>+<name>/repo (/work/.mirror by default; a clone or the search tool's `fetch` gives one).
Only the counts are kept: no third-party code enters this repository.

What is read: .py files whole; .ipynb code cells; .rst `code-block:: python` blocks; d2l's .md
```{.python .input}` blocks tabbed `pytorch` or `all`. IPython lines (`%...`, `!...`) are dropped;
a cell that still does not parse is skipped (the run prints how many). Cells of one file share
what is known about names, in order, as a notebook's kernel does.

What is counted, once per occurrence in the code (scripts/tutorial_scanner.py applies it):
- every attribute chain on a name imported from torch, with imports resolved
  (`import torch.nn.functional as F; F.relu` is `torch.nn.functional.relu`, `from torch.nn import
  Linear; Linear` is `torch.nn.Linear`), under its full name, cut after its first object that is
  neither a module nor a class (`torch.__version__.split` counts as `torch.__version__`);
- `r.name` where `r` is a Tensor, as `Tensor.name` (methods and properties alike), when
  torch.Tensor has `name`; likewise `torch.nn.Module.name` on a module, and
  `torch.optim.Optimizer.name` / `torch.optim.lr_scheduler.LRScheduler.name` on those.
Names PyTorch 2.13 does not have (a misread alias, a typo) are dropped; d2l's
`if tab.selected(...)` branches for other frameworks are skipped.

The receiver rule. An expression is a Tensor when it is: a call of a torch function (torch.X,
torch.linalg.X, F.X, nn.init.X, nn.Parameter; not a class, and not one of NOT_TENSOR); a call
of a module (`model(x)`); a Tensor method's result (except the methods in NOT_TENSOR_METHODS);
`.grad`, `.data`, `.T`, `.mT` of a Tensor, `.weight`/`.bias` of a module; a subscript of a
Tensor; arithmetic or a comparison with a Tensor operand; a name or `self.attr` last assigned
one of these; a loop variable over a DataLoader (also through `enumerate`); a parameter of a
Module subclass's `forward`, or one annotated `torch.Tensor`. A module is a call of an nn class
or of a class of the file that subclasses nn.Module, `self` in such a class, and
`.to()`/`.train()`/... of a module. A name imported from another library (np, plt, pd, d2l) is
never a Tensor. A receiver whose kind is not known this way counts as a Tensor only for names
that torch.Tensor has and none of numpy's arrays, modules, optimizers, Python's containers,
matplotlib's and pandas' common methods have (SHARED): `backward`, `requires_grad`, `unsqueeze`,
... (and `item`, `detach`, `numpy`, `tolist`, `clone`, which tutorials call on tensors nearly
always).
"""
from __future__ import annotations

import argparse
import ast
import collections
import csv
import fnmatch
import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from tutorial_scanner import Scanner, api_name

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "data" / "tutorial_api_usage.csv"


@dataclass(frozen=True)
class Source:
    name: str  # the public repository the code comes from
    commit: str
    include: tuple[str, ...]  # fnmatch patterns of the paths read
    exclude: tuple[str, ...] = ()
    mirror: str = ""  # another repository holding the same code, when the original is not at hand
    note: str = ""


SOURCES = (
    Source("pytorch/tutorials", "84b7db6e020c098cf38a0dfaf036007c24057bb1",
           ("beginner_source/*.py", "beginner_source/*.rst", "recipes_source/*.py",
            "recipes_source/*.rst"),
           mirror="PyTorchKorea/tutorials-kr",
           note="pytorch/tutorials' snapshot (5.3 GB) is over the fetch limit; its Korean "
                "translation keeps the same code with translated prose"),
    Source("d2l-ai/d2l-en", "23d7a5aecceee57d1292c56e90cce307f183bb0a", ("chapter_*.md",)),
    Source("phlippe/uvadlc_notebooks", "0da8037c7abc32f478ff6142acceb72dbcf088ee",
           ("docs/tutorial_notebooks/tutorial*.ipynb",), exclude=("*_empty.ipynb",)),
    Source("rasbt/machine-learning-book", "35ab3774e8e249c43a98209d8efd94c060102003",
           ("ch1[2-9]/ch*.py",),
           note="the chapters' scripts, exported from their notebooks (some of which are over "
                "the snapshot's 4 MiB limit)"),
    Source("rasbt/LLMs-from-scratch", "28c65cdfbc3338e2e040016eea4b7fdf556e4d57",
           ("*/01_main-chapter-code/*.ipynb",)),
    Source("fastai/fastbook", "823b69e00aa1e1c1a45fe88bd346f11e8f89c1ff", ("[0-9][0-9]_*.ipynb",),
           mirror="huangyingw/fastai_fastbook",
           note="fastai/fastbook's snapshot (965 MB) is over the fetch limit; this mirror holds "
                "its history up to the commit named"),
    Source("mrdbourke/pytorch-deep-learning", "baa27b691617461c173ecf3439793cd8cde74e13",
           ("[0-9][0-9]_*.ipynb",)),
    # session 5: the courses nearest this one (autograd built by hand, then PyTorch's)
    Source("karpathy/nn-zero-to-hero", "73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde",
           ("lectures/*/*.ipynb",)),
    Source("dvgodoy/PyTorchStepByStep", "d837dec7250dae20d247634c4aba63791bd89b2f",
           ("Chapter*.ipynb", "stepbystep/v*.py")),
    Source("patrickloeber/pytorchTutorial", "69637721ed9fa2ccf81a1093a928a52bbb591439",
           ("[0-9][0-9]_*.py",)),
    # session 6: tutorials read widely outside the official site, and PyTorch's own examples
    Source("yunjey/pytorch-tutorial", "0500d3df5a2a8080ccfccbc00aca0eacc21818db",
           ("tutorials/*/*/*.py",)),
    Source("Atcold/NYU-DLSP20", "3049c83260ba05700e2ab9b7ed13cdbe5ddba0fd",
           ("[0-9][0-9]-*.ipynb", "extra/*.ipynb")),
    Source("udacity/deep-learning-v2-pytorch", "c9404fc86181fc3f0906b368697268257f348535",
           ("*.ipynb", "*.py"), exclude=("*[Ee]xercise*",),
           note="each exercise notebook repeats its solution's code with holes: the solutions "
                "are read"),
    Source("hunkim/PyTorchZeroToAll", "e5a260fac0b4ff1e2ec434fc6f0d962ac97fc289", ("*.py",)),
    Source("pytorch/examples", "77f55b912142e11fcfdf5b530231fb9c52f181e8",
           ("*/*.py", "*/*/*.py"), exclude=("distributed/*", "cpp/*", "docs/*", "fx/*"),
           note="the examples that run in one process; the distributed ones, the C++ ones' "
                "helpers and torch.fx's are left out"),
)


IPYTHON_LINE = re.compile(r"^\s*[%!]")


def _python(code: str) -> str:
    if code.lstrip().startswith("%%") and not code.lstrip().startswith(("%%time", "%%capture")):
        return ""
    return "\n".join(line[:len(line) - len(line.lstrip())] + "pass" if IPYTHON_LINE.match(line)
                     else line for line in code.splitlines())


def _notebook_cells(text: str) -> list[str]:
    cells = json.loads(text).get("cells", [])
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c.get("cell_type") == "code"]


RST_BLOCK = re.compile(r"^(\s*)\.\. code(?:-block)?::\s*(?:python|py|python3)\s*$")


def _rst_blocks(text: str) -> list[str]:
    lines, blocks, i = text.splitlines(), [], 0
    while i < len(lines):
        match = RST_BLOCK.match(lines[i])
        i += 1
        if not match:
            continue
        indent, block = len(match.group(1)), []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > indent):
            if not lines[i].lstrip().startswith(":") or block:
                block.append(lines[i])
            i += 1
        blocks.append(textwrap.dedent("\n".join(block)))
    return blocks


D2L_BLOCK = re.compile(r"```\{\.python \.input[^}]*\}\n(.*?)```", re.S)


def _d2l_blocks(text: str) -> list[str]:
    blocks = []
    for code in D2L_BLOCK.findall(text):
        first, _, rest = code.partition("\n")
        tabs = first.replace("%%tab", "").replace("#@tab", "").replace(",", " ").split()
        if first.startswith(("%%tab", "#@tab")) and ("pytorch" in tabs or "all" in tabs):
            blocks.append(rest)
    return blocks


def code_units(path: str, text: str) -> list[str]:
    if path.endswith(".ipynb"):
        return _notebook_cells(text)
    if path.endswith(".rst"):
        return _rst_blocks(text)
    if path.endswith(".md"):
        return _d2l_blocks(text)
    return [text]


def scan_source(source: Source, mirrors: Path) -> tuple[collections.Counter, int, int, list[str]]:
    """The counts of one source, the number of files read, of cells that did not parse, and the
    files missing from the local copy."""
    repo = mirrors / (source.mirror or source.name).replace("/", "+") / "repo"
    git = ["git", "-C", str(repo)]
    listing = subprocess.run([*git, "ls-tree", "-r", "--name-only", source.commit],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    paths = sorted(p for p in listing
                   if any(fnmatch.fnmatch(p, pattern) for pattern in source.include)
                   and not any(fnmatch.fnmatch(p, pattern) for pattern in source.exclude))
    counts: collections.Counter = collections.Counter()
    unparsed, absent = 0, []
    for path in paths:
        shown = subprocess.run([*git, "show", f"{source.commit}:{path}"], capture_output=True,
                               check=False)
        if shown.returncode:  # a snapshot lacks files of 4 MiB and more
            absent.append(path)
            continue
        text = shown.stdout.decode("utf-8", "replace")
        scanner = Scanner(counts)
        for unit in code_units(path, text):
            try:
                tree = ast.parse(_python(unit))
            except SyntaxError:
                unparsed += 1
                continue
            scanner.visit(tree)
    named: collections.Counter = collections.Counter()
    for name, uses in counts.items():
        if api_name(name) is not None:
            named[api_name(name)] += uses
    return named, len(paths) - len(absent), unparsed, absent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args()
    rows = []
    for source in SOURCES:
        counts, files, unparsed, absent = scan_source(source, args.mirrors)
        print(f"{source.name}@{source.commit[:7]}: {files} files, {sum(counts.values())} uses "
              f"of {len(counts)} names, {unparsed} cells not parsed"
              + "".join(f"\n  not in the local copy: {path}" for path in absent))
        rows += [(name, uses, source.name, source.commit) for name, uses in counts.items()]
    rows.sort(key=lambda r: (-r[1], r[0], r[2]))
    TABLE.parent.mkdir(exist_ok=True)
    with TABLE.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(("name", "uses", "source", "commit"))
        writer.writerows(rows)
    print(f"wrote {TABLE.relative_to(ROOT)} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
