"""The VS Code extension's manifest: what the packager and the marketplace need, and where it activates.
(`make vscode` compiles, tests and packages it with the real packager; CI runs it.)"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "vscode-extension"
PACKAGE = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


def test_license_and_repository_are_the_projects() -> None:
    assert PACKAGE["license"] == "Apache-2.0"
    assert PACKAGE["repository"]["url"] == "https://github.com/wmaplint/wmaplint"
    # the packager looks for the license beside package.json; it is the project's, word for word
    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert (EXTENSION / "LICENSE").read_text(encoding="utf-8") == license_text


def test_packaging_compiles_the_code_it_ships() -> None:
    assert PACKAGE["scripts"]["vscode:prepublish"] == "npm run compile"
    assert PACKAGE["main"] == "./out/extension.js"
    ignored = (EXTENSION / ".vscodeignore").read_text(encoding="utf-8").split()
    assert "out/**" not in ignored and "src/**" in ignored


def test_activates_on_yaml_only() -> None:
    assert PACKAGE["activationEvents"] == ["onLanguage:yaml"]
    assert PACKAGE["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"] == [
        "wmaplint.path",
        "wmaplint.interpreter",
        "wmaplint.args",
    ]
    assert PACKAGE["capabilities"]["untrustedWorkspaces"]["supported"] == "limited"


def test_types_do_not_outrun_the_engine() -> None:
    """The packager refuses @types/vscode newer than engines.vscode."""
    engine = PACKAGE["engines"]["vscode"].lstrip("^~")
    types = PACKAGE["devDependencies"]["@types/vscode"].lstrip("^~")
    assert tuple(map(int, types.split("."))) <= tuple(map(int, engine.split(".")))
