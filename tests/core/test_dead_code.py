"""Code nothing uses: vulture (run by `make lint`) finds none, and vulture_whitelist.py names exactly what
it would find without the list, each used in a way vulture cannot see; and the package's one did-you-mean."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from wmaplint.spelling import closest, suggestions

REPO = Path(__file__).resolve().parents[2]
WHITELIST = REPO / "vulture_whitelist.py"


def _vulture(*paths: str) -> set[str]:
    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["vulture"]
    decorators = ",".join(settings["ignore_decorators"])
    run = subprocess.run([sys.executable, "-m", "vulture", *paths, "--ignore-decorators", decorators],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode in (0, 3), run.stderr
    return set(re.findall(r"unused \w+ '([^']+)'", run.stdout))


def test_the_whitelist_names_exactly_what_vulture_finds_without_it() -> None:
    lines = WHITELIST.read_text(encoding="utf-8").splitlines()
    listed = {line.split("#")[0].strip() for line in lines} - {""}
    assert _vulture("wmaplint", "benchmarks") == listed
    assert _vulture("wmaplint", "benchmarks", WHITELIST.name) == set()


def test_every_whitelisted_name_says_how_it_is_used() -> None:
    for line in WHITELIST.read_text(encoding="utf-8").splitlines():
        name, _, how = line.partition("#")
        assert not name.strip() or ": " in how, f"{line!r}: name the file and say how it is used"


def test_a_misspelt_name_is_offered_the_names_it_most_likely_means() -> None:
    assert closest("Replicas", ["replica", "replicas"]) == "replicas"  # a case away leads
    assert suggestions("$b", ["$a", "$bb", "$long"]) == ["$a", "$bb"]  # short names: one edit
    assert suggestions("podTemplateSpec", ["podTemplateSpecPath", "podSpecPath"]) == ["podTemplateSpecPath"]
    assert suggestions("lenght", ["length", "ltrimstr", "keys"]) == ["length"]
    assert closest("Running", ["Running", "Pending"]) is None  # never the name itself
    assert closest("zzz", ["Complete", "Failed"]) is None
