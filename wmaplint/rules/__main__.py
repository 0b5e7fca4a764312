"""`python -m wmaplint.rules`: write rules/index.py again (after a rule module is added, removed or
changed)."""

from pathlib import Path

from wmaplint.rules import index_source

Path(__file__).with_name("index.py").write_text(index_source(), encoding="utf-8")
