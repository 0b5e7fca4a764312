"""The `tree` benchmark's peer: libjq alone evaluating every expression of the definitions on the manifests.

Usage: peer_jq.py CATALOG_DIR MANIFEST... — reads the definitions and manifests with PyYAML's C loader,
picks each manifest's definition by root kind, compiles each expression once and pulls every output of every
expression on the manifest (errors count as outputs). No schema validation, no tree, no output.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import jq
import yaml

EXPRESSION_KEY = re.compile(r"(?:[Pp]ath|[Ee]xpression)s?$")


def expressions(value: Any, key: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            found.extend(expressions(v, str(k)))
    elif isinstance(value, list):
        for item in value:
            found.extend(expressions(item, key))
    elif isinstance(value, str) and EXPRESSION_KEY.search(key):
        found.append(value)
    return found


def main() -> None:
    by_kind: dict[tuple[str, str], list[str]] = {}
    for path in sorted(Path(sys.argv[1]).glob("*.yaml")):
        for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):
            structure = ((doc or {}).get("spec") or {}).get("structureDefinition") or {}
            root = structure.get("rootComponent") or {}
            kind = root.get("kind") or {}
            group, version = kind.get("group") or "", kind.get("version") or ""
            api = f"{group}/{version}" if group else version
            by_kind[(api, kind.get("kind", ""))] = expressions(doc["spec"])
    programs: dict[str, Any] = {}
    outputs = 0
    for name in sys.argv[2:]:
        for doc in yaml.load_all(Path(name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):
            if not isinstance(doc, dict):
                continue
            text = json.dumps(doc, sort_keys=True, default=str)
            for expression in by_kind.get((str(doc.get("apiVersion")), str(doc.get("kind"))), ()):
                program = programs.get(expression)
                if program is None:
                    try:
                        program = programs[expression] = jq.compile(expression)
                    except ValueError:
                        continue
                try:
                    outputs += len(program.input_text(text).all())
                except ValueError:
                    outputs += 1
    print(outputs)


if __name__ == "__main__":
    main()
