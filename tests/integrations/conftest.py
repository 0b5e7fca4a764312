"""Integration tests that need tools from outside Python are collected only where those tools are: CI installs
them (`.ci/run`: Debian's neovim, `make wheelhouse` for pre-commit)."""

import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

collect_ignore = []
if shutil.which("nvim") is None:
    collect_ignore.append("test_neovim.py")
if (
    not (REPO / ".wheelhouse" / ".complete").is_file()
    or not (Path(sys.executable).parent / "pre-commit").is_file()
    or shutil.which("git") is None
):
    collect_ignore.append("test_pre_commit.py")
