"""The hostile-input suite on a fixed seed: every family's generated inputs through the real command line,
each run held to exit 0/1/2, no traceback, the time bound and the memory bound (``fuzz.py``; `make fuzz` runs
the long version)."""

from __future__ import annotations

import pytest

from .fuzz import run_family
from .generators import FAMILIES

SEED = 20251201
# inputs per family, each a whole process (~0.5-1 s): a sample on a fixed seed, `make fuzz` the long version
COUNTS: dict[str, int] = {}  # per family; the rest run this many:
DEFAULT_COUNT = 6


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_holds_the_promise(tmp_path, family: str) -> None:
    tally, failures = run_family(family, SEED, COUNTS.get(family, DEFAULT_COUNT), tmp_path)
    assert tally.runs == COUNTS.get(family, DEFAULT_COUNT)
    assert not failures, "\n\n".join(str(outcome) for outcome in failures)


def test_the_runner_measures_and_judges(tmp_path) -> None:
    from .fuzz import MEMORY_BOUND, Outcome, environment, run_case
    from .generators import Case

    big = "a: [" + ", ".join(["x" * 100] * 50_000) + "]\n"  # a 5 MB document: its nodes take memory
    env = environment(tmp_path)
    small = run_case(Case("t", "small", {"d.yaml": "a: 1\n"}, ["check", "d.yaml"]), tmp_path, env)
    large = run_case(Case("t", "large", {"d.yaml": big}, ["check", "d.yaml"]), tmp_path, env)
    assert small.ok and large.ok and 0 < small.peak_bytes < large.peak_bytes
    broken = Outcome(small.case, 1, 0.1, small.peak_bytes, "", "Traceback (most recent call last):\n")
    assert not broken.ok and not Outcome(small.case, None, 31.0, 0, "", "").ok
    assert not Outcome(small.case, 0, 0.1, MEMORY_BOUND + 1, "", "").ok


def test_the_runner_finds_a_secret_shown(tmp_path) -> None:
    from .fuzz import SECRET_FILE, SECRET_VARIABLE, _snapshot, environment, run_case
    from .generators import Case

    env = environment(tmp_path)
    secret = env[SECRET_VARIABLE]
    assert secret.startswith("canary-") and environment(tmp_path)[SECRET_VARIABLE] != secret
    # the command line is trusted: a configuration it names beside the case is read, and its key quoted
    shown = run_case(Case("t", "named", {"d.yaml": "a: 1\n"}, ["check", "--config", f"../{SECRET_FILE}",
                                                                 "d.yaml"]), tmp_path, env)
    assert shown.returncode == 2 and not shown.ok and shown.leaked == ["standard error"], str(shown)
    home = tmp_path / "home"
    home.mkdir()
    (home / SECRET_FILE).write_text(f"{secret}: {secret}\n")
    (home / "report.txt").write_bytes(b"x" * ((1 << 20) - 3) + secret.encode())  # across a read's chunks
    leaked: list[str] = []
    _snapshot(home, secret, leaked)
    assert leaked == ["file report.txt"]



def test_the_readme_and_the_threat_model_name_every_family() -> None:
    # the README's list fell behind: it had neither `caches`, `configfiles`, `outputs` nor `lsp-frames`
    import re

    from .helpers import REPO

    readme = (REPO / "README.md").read_text()
    paragraph = readme[readme.index("hostile-input suite"):readme.index("[docs/security.md]")]
    assert set(FAMILIES) <= set(re.findall(r"`([a-z-]+)`", paragraph)), paragraph
    security = (REPO / "docs" / "security.md").read_text()
    table = security[security.index("## The fuzz families"):security.index("## What is not promised")]
    rows = {name for line in table.splitlines() if line.startswith("| `")
            for name in re.findall(r"`([a-z-]+)`", line.split("|")[1])}
    assert rows == set(FAMILIES), rows
