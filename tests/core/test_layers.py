"""The layers of the package (pyproject.toml, ``[tool.importlinter]``), checked by import-linter: the package
keeps them, an upward import anywhere breaks them, and docs/architecture.md shows exactly them and maps every
module; and no modules of one package import each other in a circle."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import wmaplint

PACKAGE = Path(wmaplint.__file__).parent
REPO = PACKAGE.parent
ARCHITECTURE = REPO / "docs" / "architecture.md"


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter run on the package under ``root`` with the project's contracts, in a fresh interpreter
    that finds that package first."""
    if root != REPO:
        shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", script, "--no-cache"], capture_output=True, text=True,
                          cwd=root, env=env, timeout=120)


def test_the_package_keeps_its_layers() -> None:
    run = lint_imports(REPO)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken." in run.stdout


def _planted(tmp_path: Path, module: str, text: str) -> Path:
    """A copy of the package with ``text`` appended to ``module`` (created when missing)."""
    shutil.copytree(PACKAGE, tmp_path / "wmaplint", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "wmaplint" / module
    before = target.read_text(encoding="utf-8") if target.exists() else ""
    target.write_text(before + text, encoding="utf-8")
    return tmp_path


def test_an_upward_import_inside_a_function_breaks_the_layers(tmp_path) -> None:
    # The regression the contract exists for: an analysis wording its findings through the rules package.
    worded = """

def _worded(findings):
    from wmaplint.rules import diagnostics_of

    return diagnostics_of(findings)
"""
    root = _planted(tmp_path, "resolve/loading.py", worded)
    run = lint_imports(root)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "wmaplint.resolve is not allowed to import wmaplint.rules:" in run.stdout
    assert re.search(r"- wmaplint\.resolve\.loading -> wmaplint\.rules \(l\.\d+\)", run.stdout)


def test_an_upward_import_for_type_checking_breaks_the_layers(tmp_path) -> None:
    typed = "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from wmaplint.report import text\n"
    root = _planted(tmp_path, "source/nodes.py", typed)
    run = lint_imports(root)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "wmaplint.source is not allowed to import wmaplint.report:" in run.stdout


def test_a_module_the_contract_does_not_place_breaks_it(tmp_path) -> None:
    root = _planted(tmp_path, "unplaced.py", '"""A module no layer names."""\n')
    run = lint_imports(root)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "wmaplint.unplaced" in run.stdout


def test_a_type_only_import_closing_a_circle_breaks_the_package(tmp_path) -> None:
    # The circle the type interpreter had: a part typing its interpreter by the class that holds the part.
    typed = ("\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
             "    from wmaplint.jq.inference import interpreter\n")
    root = _planted(tmp_path, "jq/inference/navigation.py", typed)
    run = lint_imports(root)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "No cycles are allowed in wmaplint.jq.inference." in run.stdout


def contract_layers() -> list[list[str]]:
    """The contract's layers from the top down, each a list of the modules it holds."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]


def drawn_layers() -> list[list[str]]:
    """The layers docs/architecture.md draws (the block under "The layers"), from the top down."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = re.search(r"## The layers\n.*?```\n(.*?)```", text, re.S)
    assert block is not None, "docs/architecture.md has no block of layers"
    layers = []
    for line in block.group(1).splitlines():
        modules = re.split(r"\s{2,}", line.strip())[0]
        if modules:
            layers.append([name.strip().removesuffix(".py").removesuffix("/") for name in modules.split("|")])
    return layers


def test_the_architecture_page_draws_the_contracts_layers() -> None:
    assert drawn_layers() == contract_layers()


def map_rows() -> dict[str, str]:
    """The rows of the map in docs/architecture.md: each name of its first column (``source/``,
    ``engine.py``) with the row's text."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    rows: dict[str, str] = {}
    for line in text[text.index("## The map"):].splitlines():
        cells = line.split("|")
        if len(cells) > 2 and "`" in cells[1]:
            rows.update((name, line) for name in re.findall(r"`([^`]+)`", cells[1]))
    return rows


def unmapped() -> list[str]:
    """Every module of the package the map leaves out: a module at the top by its row, a package by its row
    naming each of its modules (``nodes.py`` in the row of ``source/``); the concern folders of ``rules/``
    are named in its row, their modules one rule each as the layout tests keep them."""
    rows = map_rows()
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        folder = relative.parent.as_posix() + "/"
        if re.fullmatch(r"rules/\w+/", folder):
            if f"`{relative.parent.name}/`" not in rows.get("rules/", ""):
                missing.append(folder)
        elif folder == "./":
            if relative.name not in rows and relative.name != "__init__.py":
                missing.append(relative.name)
        elif folder not in rows:
            missing.append(folder)
        elif relative.name != "__init__.py" and f"`{relative.name}`" not in rows[folder]:
            missing.append(relative.as_posix())
    return sorted(set(missing))


def test_every_module_is_on_the_map() -> None:
    assert unmapped() == []


def test_an_analysis_words_its_findings_from_a_fresh_interpreter_without_importing_the_rules_first() -> None:
    # the package root installs the rule loader, so no entry point has to import wmaplint.rules beforehand
    program = """
import sys
from wmaplint.diagnostics import Span
from wmaplint.findings import diagnostics_of
from wmaplint.source.faults import YamlSyntax
assert "wmaplint.rules" not in sys.modules
(found,) = diagnostics_of([YamlSyntax("a.yaml", Span(2, 3, 2, 4), "mapping values are not allowed here")])
print(found.span.start_line, found.span.start_col, found.message)
"""
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True)
    assert run.stdout == "2 3 YAML syntax error: mapping values are not allowed here\n"
