"""A second implementation of the runtime's status matching: a definition's statusDefinition compiled into one
jq program and run by gojq itself (Debian's ``gojq``), independent of wmaplint's code.

The semantics are those of ../shared/FORMAT.md §2.5: byPhase compares the first output of
``phaseDefinition.path``; byConditions looks conditions up by type (a later duplicate wins) and compares
status and reason as strings; byExpression compares the first output of ``(<expression>) | tostring`` with
``expectedResult``. Fields of one matcher are ANDed, the entries of a list ORed, and an empty matcher always
matches. The program prints, for each input object, the list of matching statuses in the runtime's order
(Resuming, Suspending, Suspended, Running, Failed, Completed, Initializing, Degraded).

The definition is read with YAML's base loader, so every scalar is the text of its value, as the runtime's
string-typed fields hold it; the objects are JSON. One gojq process evaluates one definition on every
object (a JSON stream on standard input, one output line per object).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

GOJQ = shutil.which("gojq")

# the runtime's order of evaluation when it lists the matching statuses (FORMAT.md §2.5)
ORDER = (
    ("resuming", "Resuming"),
    ("suspending", "Suspending"),
    ("suspended", "Suspended"),
    ("running", "Running"),
    ("failed", "Failed"),
    ("completed", "Completed"),
    ("initializing", "Initializing"),
    ("degraded", "Degraded"),
)
# the CRD's defaults of conditionsDefinition, which the API server fills in
FIELD_DEFAULTS = {"typeFieldName": "type", "statusFieldName": "status", "reasonFieldName": "reason"}


class NotCompilable(Exception):
    """A statusDefinition the API server would refuse (a required field missing): not part of the test."""


def read_definitions(path: Path) -> list[dict[str, Any]]:
    """The Karta documents of a file, every scalar as its text."""
    return [
        d for d in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
        if isinstance(d, dict) and d.get("kind") in ("Karta", "ResourceInterface")
    ]


def root_kind(definition: dict[str, Any]) -> tuple[str, str]:
    kind = definition["spec"]["structureDefinition"]["rootComponent"]["kind"]
    return kind.get("group", ""), kind["kind"]


def _literal(value: str) -> str:
    return json.dumps(value)


# the runtime's string form of a value: a string as it is, anything else as its JSON text
TEXT_OF = 'if type == "string" then . else tojson end'


def _first(expression: str) -> str:
    """``[first output]`` of an expression on the object, ``[]`` when it yields nothing or fails."""
    return f"($obj | try [first(\n{expression}\n)] catch [])"


def _phase_matches(wanted: str) -> str:
    """The first output of the phase path, when there is one and it is not null, equals the text wanted."""
    first = f"(($phase[0] | {TEXT_OF}) == {_literal(wanted)})"
    return f"(($phase | length) > 0 and $phase[0] != null and {first})"


def _condition_matches(entry: Any, fields: dict[str, str | None]) -> str:
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return "false"
    condition = f"$bytype[{_literal(entry['type'])}]"
    tests = [f"({condition} != null)"]
    for key, field_key in (("status", "statusFieldName"), ("reason", "reasonFieldName")):
        if key not in entry:
            continue
        name = fields[field_key]
        if not name or name == "null":
            return "false"  # no field to read it from
        value = f"{condition}[{_literal(name)}]"
        tests.append(f'({value} as $v | ($v | type) == "string" and $v == {_literal(entry[key])})')
    return "(" + " and ".join(tests) + ")"


def _expression_matches(by_expression: Any) -> str:
    if not isinstance(by_expression, dict):
        return "false"
    if "expression" not in by_expression or "expectedResult" not in by_expression:
        raise NotCompilable("byExpression needs expression and expectedResult")
    first = _first(f"({by_expression['expression']}\n) | tostring")
    return f"({first} as $r | ($r | length) > 0 and $r[0] == {_literal(by_expression['expectedResult'])})"


def _matcher(matcher: Any, fields: dict[str, str | None]) -> str:
    if not isinstance(matcher, dict):
        return "false"
    tests = []
    if "byPhase" in matcher:
        tests.append(_phase_matches(matcher["byPhase"]) if isinstance(matcher["byPhase"], str) else "false")
    if "byConditions" in matcher:
        listed = matcher["byConditions"]
        if isinstance(listed, list):
            tests.extend(_condition_matches(entry, fields) for entry in listed)
        else:
            tests.append("false")
    if "byExpression" in matcher:
        tests.append(_expression_matches(matcher["byExpression"]))
    return "(" + " and ".join(tests) + ")" if tests else "true"  # an empty matcher always matches


def compile_status(definition: dict[str, Any]) -> str:
    """One jq program: the object in, the list of matching statuses out."""
    status = definition["spec"]["structureDefinition"]["rootComponent"].get("statusDefinition")
    if not isinstance(status, dict):
        return "[]"
    lines = [". as $obj"]
    phase = status.get("phaseDefinition")
    if isinstance(phase, dict) and isinstance(phase.get("path"), str):
        lines.append(f"| {_first(phase['path'])} as $phase")
    else:
        lines.append("| [] as $phase")
    conditions = status.get("conditionsDefinition")
    fields: dict[str, str | None] = dict(FIELD_DEFAULTS)
    if isinstance(conditions, dict) and isinstance(conditions.get("path"), str):
        for key in FIELD_DEFAULTS:
            if key in conditions:
                fields[key] = conditions[key] if isinstance(conditions[key], str) else None
        every = f"($obj | try [\n{conditions['path']}\n] catch [])"
        lines.append(
            f'| ({every} | map(if type == "array" then .[] else . end) | map(select(type == "object")))'
            " as $conditions"
        )
    else:
        lines.append("| [] as $conditions")
    type_name = fields["typeFieldName"]
    if type_name and type_name != "null":
        lines.append(
            f"| (reduce $conditions[] as $c ({{}}; ($c[{_literal(type_name)}]) as $t"
            ' | if ($t | type) == "string" then .[$t] = $c else . end)) as $bytype'
        )
    else:
        lines.append("| {} as $bytype")
    mappings = status.get("statusMappings") if isinstance(status.get("statusMappings"), dict) else {}
    listed = []
    for key, name in ORDER:
        matchers = mappings.get(key)
        if not isinstance(matchers, list) or not matchers:
            continue
        any_of = " or ".join(_matcher(m, fields) for m in matchers)
        listed.append(f"(if {any_of} then {_literal(name)} else empty end)")
    lines.append("| [" + ", ".join(listed) + "]")
    return "try (\n" + "\n".join(lines) + '\n) catch ["<program error: \\(.)>"]'


def gojq_matches(program: str, objects: list[Any]) -> list[list[str]]:
    """The program's output on every object, by one gojq process."""
    assert GOJQ is not None
    stream = "\n".join(json.dumps(o) for o in objects) + "\n"
    done = subprocess.run(
        [GOJQ, "-c", program], input=stream, capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        raise AssertionError(f"gojq failed ({done.returncode}): {done.stderr.strip()}\n{program}")
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(outputs) != len(objects):
        raise AssertionError(f"gojq gave {len(outputs)} outputs for {len(objects)} objects")
    return outputs
