"""Record the golden DOT files of tests/engine/test_viz.py: run each graph in its CASES and write
what minigrad.viz draws to tests/golden/viz/<case>.dot.

    python scripts/record_viz_golden.py           # rewrite every file
    python scripts/record_viz_golden.py --check   # only report which files would change

Re-record after an intended change of the diagrams' look, and read the diff before committing."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "viz"


def load_cases() -> dict:
    spec = importlib.util.spec_from_file_location("test_viz", ROOT / "tests" / "test_viz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing, report changes")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, case in sorted(load_cases().items()):
        path = OUT / f"{name}.dot"
        text = case()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            changed.append(name)
            if not args.check:
                path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "rewritten"
    print(f"{len(changed)} golden file(s) {verb}: {', '.join(changed) or '-'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
