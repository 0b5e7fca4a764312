"""The tests that need outside tools are never left out without a word: collected always, skipped with the
reason where a tool is missing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_missing_tools_skip_with_a_reason_instead_of_vanishing(tmp_path: Path) -> None:
    # a PATH without nvim or git: both modules are still collected, each test skipped with what provides it
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs",
         "tests/integrations/test_neovim.py", "tests/integrations/test_pre_commit.py", "--co"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert "test_neovim.py: " in done.stdout and "test_pre_commit.py: " in done.stdout, done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs",
         "tests/integrations/test_neovim.py", "tests/integrations/test_pre_commit.py"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nvim is not on PATH (install Neovim, Debian package neovim)" in done.stdout
    assert "git is not on PATH" in done.stdout
    progress = done.stdout.splitlines()[0]
    assert re.fullmatch(r"s+ +\[100%\]", progress), progress  # every test skipped, none run or left out
