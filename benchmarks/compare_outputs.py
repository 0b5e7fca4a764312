"""Whether a change of speed changed what wmaplint prints: the outputs of two checkouts, byte for byte.

What it compares: `check catalog/` in every format, `tree` over the 1,000 manifests the tree benchmark uses
in every format, and `test` over upstream's recordings (../shared/recordings, as the suite replays them: the
text and the JUnit report, its times left out), each run by this checkout and by the one given (``--base
DIR``, e.g. a `git archive` of the commit compared with). Both run under the project's interpreter, each with
its own checkout first on the import path and its own empty cache, in a scratch directory where `catalog/`
leads to this checkout's (a child started with `python -m` would import the working directory's package
first). Prints one line a command and exits 1 when any output differs.

    git archive f9ea405 | tar -x -C /tmp/base && python benchmarks/compare_outputs.py --base /tmp/base
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import REPO, environment, manifests_corpus

RECORDINGS = REPO.parent / "shared" / "recordings"
# the entry point of the project's environment: its directory, not the working directory, heads the import
# path, so the checkout named by PYTHONPATH is the one imported
ENTRY = Path(sys.executable).parent / "wmaplint"
_TIMES = re.compile(rb'\s(time|timestamp)="[^"]*"')


def commands(junit: Path) -> list[tuple[str, list[str], Path | None]]:
    """(name, arguments, a file the command writes that is compared too)."""
    manifests = sorted(str(p) for p in manifests_corpus(1000).glob("*.yaml"))
    found: list[tuple[str, list[str], Path | None]] = [
        (f"check catalog/ --format {fmt}", ["check", "catalog/", "--format", fmt], None)
        for fmt in ("text", "json", "sarif", "github")]
    found += [(f"tree over {len(manifests)} manifests --format {fmt}", ["tree", "--format", fmt, *manifests],
               None) for fmt in ("text", "json", "dot")]
    if RECORDINGS.is_dir():
        replay = ["test", str(RECORDINGS), "--junit", str(junit)]
        found.append(("test ../shared/recordings --junit", replay, junit))
    return found


def run(checkout: Path, arguments: list[str], written: Path | None, cache: Path, cwd: Path) -> bytes:
    env = environment(cache)
    env["PYTHONPATH"] = str(checkout)
    env["HOME"] = str(cache / "home")
    done = subprocess.run([str(ENTRY), *arguments], env=env, cwd=cwd, capture_output=True, check=False)
    out = b"exit %d\n" % done.returncode + done.stdout + b"\n-- stderr\n" + done.stderr
    if written is not None:
        out += b"\n-- " + written.name.encode() + b"\n" + (_TIMES.sub(b"", written.read_bytes())
                                                           if written.exists() else b"(not written)")
        written.unlink(missing_ok=True)
    return out.replace(str(checkout).encode(), b"<checkout>")  # a shipped definition is named by its place


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the checkout to compare with")
    args = parser.parse_args()
    differ = 0
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        junit = root / "junit.xml"
        (root / "catalog").symlink_to(REPO / "catalog")
        for name, arguments, written in commands(junit):
            start = time.perf_counter()
            ours = run(REPO, arguments, written, root / "ours", root)
            theirs = run(args.base.resolve(), arguments, written, root / "base", root)
            took = f"{time.perf_counter() - start:.0f} s"
            if ours == theirs:
                print(f"identical  {name} ({len(ours):,} bytes, {took})", flush=True)
                continue
            differ += 1
            print(f"DIFFERENT  {name} ({took})")
            diff = difflib.unified_diff(theirs.decode(errors="replace").splitlines(),
                                        ours.decode(errors="replace").splitlines(), "base", "this",
                                        lineterm="")
            print("\n".join(list(diff)[:40]))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
