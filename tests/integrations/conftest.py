"""Integration tests that need tools from outside Python are collected always, and skipped, with the reason
and what provides it, where those tools are missing: `make test` builds the wheelhouse first, CI also installs
Debian's neovim (`.ci/run`)."""

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def missing_prerequisites() -> dict[str, str]:
    """Why each test module that needs outside tools cannot run here (module file name -> reason)."""
    reasons = {}
    if shutil.which("nvim") is None:
        reasons["test_neovim.py"] = "nvim is not on PATH (install Neovim, Debian package neovim)"
    pre_commit = []
    if not (REPO / ".wheelhouse" / ".complete").is_file():
        pre_commit.append("no wheelhouse (`make wheelhouse`; `make test` builds it)")
    if not (Path(sys.executable).parent / "pre-commit").is_file():
        pre_commit.append("pre-commit is not installed beside this Python (the test extra)")
    if shutil.which("git") is None:
        pre_commit.append("git is not on PATH")
    if pre_commit:
        reasons["test_pre_commit.py"] = "; ".join(pre_commit)
    return reasons


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reasons = missing_prerequisites()
    for item in items:
        reason = reasons.get(item.path.name)
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
