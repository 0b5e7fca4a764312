"""What the packaging claims is what installs: the lowest Python, the version and its changelog entry, the
install lines of the docs, and the action's hashed requirements."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

import wmaplint

REPO = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))

# cel-expr-python 0.1.3 on PyPI: wheels cp311 to cp314, no sdist (`pip download --no-deps --only-binary=:all:
# --python-version 3.10 cel-expr-python` finds nothing, 3.11 finds a cp311 wheel). Installs start at 3.11.
LOWEST_INSTALLABLE = (3, 11)


def _lowest_claimed() -> tuple[int, int]:
    bound = re.fullmatch(r">=\s*(\d+)\.(\d+)", PROJECT["project"]["requires-python"])
    assert bound, PROJECT["project"]["requires-python"]
    return int(bound[1]), int(bound[2])


def test_the_lowest_python_claimed_is_one_that_installs_and_every_tool_targets_it() -> None:
    lowest = _lowest_claimed()
    assert lowest >= LOWEST_INSTALLABLE
    dotted = f"{lowest[0]}.{lowest[1]}"
    assert PROJECT["tool"]["ruff"]["target-version"] == f"py{lowest[0]}{lowest[1]}"
    assert PROJECT["tool"]["mypy"]["python_version"] == dotted
    assert f"Needs Python {dotted}+" in (REPO / "README.md").read_text(encoding="utf-8")
    assert f"Python {dotted}+" in (REPO / "Makefile").read_text(encoding="utf-8")
    # CI runs on that version and says so (.ci/run compares python3 with requires-python)
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'" in ci
    assert f"lowest Python the package claims (requires-python, {dotted})" in ci


def test_the_version_has_a_changelog_entry_and_the_docs_install_what_exists() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    top = re.search(r"^## (\S+) — (.+)$", changelog, re.MULTILINE)
    assert top and top[1] == wmaplint.__version__
    docs = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")),
            REPO / "vscode-extension" / "README.md"]
    text = "\n".join(path.read_text(encoding="utf-8") for path in docs)
    if top[2] == "unreleased":  # no tag, no package yet: the docs install from the repository
        assert f"@v{wmaplint.__version__}" not in text and f"rev: v{wmaplint.__version__}" not in text
        assert not re.search(r"pip install wmaplint(?![=\w-])", text)
        assert 'pip install "git+https://github.com/wmaplint/wmaplint@COMMIT"' in text


def test_the_action_requirements_pin_every_dependency_with_hashes() -> None:
    text = (REPO / "requirements" / "action.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([a-z0-9-]+)==(\S+) \\$", text, re.MULTILINE))
    entries = re.split(r"\n(?=[a-z0-9-]+==)", text.split("\n\n", 1)[1].strip())
    assert all("--hash=sha256:" in entry for entry in entries) and len(entries) == len(pins)
    wanted = [*PROJECT["project"]["dependencies"], *PROJECT["build-system"]["requires"]]
    for line in wanted:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate({"python_version": "3.11"}):
            continue
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{name} is not in requirements/action.txt (make requirements)"
        assert requirement.specifier.contains(pins[name]), (name, pins[name], str(requirement.specifier))
