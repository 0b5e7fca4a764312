from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import PackLab


@pytest.fixture
def lab(tmp_path: Path) -> PackLab:
    return PackLab(tmp_path)
