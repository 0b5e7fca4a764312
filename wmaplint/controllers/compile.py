"""The command that writes and checks the compiled controller model (``compiled.py``) from the YAML files of
``schemas/controllers/``: apart from the reader, which the model's loader imports, as this imports the loader.

    python -m wmaplint.controllers.compile build [--out FILE]
    python -m wmaplint.controllers.compile check [--file FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wmaplint.controllers.compiled import compiled_file, encode
from wmaplint.controllers.load import MODEL_DIR, model_from_files


def build(model_dir: Path | None = None) -> bytes:
    """The compiled form of the shipped model's YAML files (each validated against the model's schema)."""
    directory = model_dir or MODEL_DIR
    return encode(model_from_files(sorted(directory.glob("*.yaml")), validate=True), directory)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wmaplint.controllers.compile",
                                     description="Compile the shipped controller model.")
    sub = parser.add_subparsers(dest="command", required=True)
    write = sub.add_parser("build", help="write the compiled model from schemas/controllers/")
    write.add_argument("--out", type=Path, default=None)
    check = sub.add_parser("check", help="exit 1 when the compiled model is not what the YAML files give")
    check.add_argument("--file", type=Path, default=None)
    options = parser.parse_args(argv)
    try:
        fresh = build()
    except Exception as exc:  # a model file that does not load: say which, as `make` shows it
        print(f"cannot compile the controller model: {exc}", file=sys.stderr)
        return 2
    if options.command == "build":
        target = options.out or compiled_file()
        target.write_bytes(fresh)
        print(f"wrote {target} ({len(fresh):,} bytes)")
        return 0
    target = options.file or compiled_file()
    if not target.is_file() or target.read_bytes() != fresh:
        print(f"{target} is not what schemas/controllers/ compiles to: run `make controllers`",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
