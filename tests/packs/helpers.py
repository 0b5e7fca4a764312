"""Helpers: write a pack and a configuration that uses it, lint a definition with them."""

from __future__ import annotations

from pathlib import Path

from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import Options, lint_text
from wmaplint.rules.examples import JOB

PACK_HEAD = """\
apiVersion: wmaplint.dev/v1
kind: RulePack
metadata: {name: acme}
rules:
"""


def acme_rule(given: str, assertion: str, *, rule_id: str = "ACME001", extra: str = "") -> str:
    quoted = f"'{assertion}'" if assertion in ("true", "false") else assertion  # keep it a YAML string
    return (
        f"  - id: {rule_id}\n"
        "    name: acme-rule\n"
        "    severity: warning\n"
        "    message: acme says no\n"
        "    docs: Because.\n"
        f"    given: {given}\n"
        f"    assert: {quoted}\n" + extra
    )


class PackLab:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs = 0

    def pack(self, text: str, name: str = "acme.yaml") -> Path:
        path = self.root / name
        path.write_text(text, encoding="utf-8")
        return path

    def lint(
        self, definition: str = JOB, packs: tuple[str, ...] = ("acme.yaml",), extra_config: str = ""
    ) -> list[Diagnostic]:
        self.runs += 1  # explicit configuration files are cached by path: a fresh name per run
        config = self.root / f"wmaplint-{self.runs}.yaml"
        config.write_text("rule-packs: [" + ", ".join(packs) + "]\n" + extra_config, encoding="utf-8")
        return lint_text(definition, str(self.root / "def.yaml"), Options(config_file=str(config)))
