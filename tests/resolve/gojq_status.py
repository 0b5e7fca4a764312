"""A second implementation of the runtime's status matching: a definition's statusDefinition compiled into one
jq program and run by gojq itself (Debian's ``gojq``), independent of wmaplint's code.

The semantics are those of ../shared/FORMAT.md §2.5 and of the runtime's code (dsx-ai-factory/workload-map
``pkg/resource/accessor.go``@17a7919, ``ExtractStatus`` and ``matchStatus``): byPhase compares the first
output of ``phaseDefinition.path``; byConditions looks conditions up by type (a later duplicate wins) and
compares status and reason as strings; byExpression compares the first output of ``(<expression>) |
tostring`` with ``expectedResult``. Fields of one matcher are ANDed in that order, each read only when the
ones before matched, the entries of a list ORed until one matches, and an empty matcher always matches.
Every output of an expression is collected, so an error anywhere in one fails the whole status extraction,
as does a phase that is not a string or conditions that are not lists of objects. The program prints, for
each input object, the matching statuses in the runtime's order (Resuming, Suspending, Suspended, Running,
Failed, Completed, Initializing, Degraded), ``["Undefined"]`` when none matches and ``["<error>"]`` when the
extraction fails.

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


def _outputs(expression: str) -> str:
    """Every output of an expression on the object, as a list; an error propagates, as in the runtime's
    Evaluate, which collects all outputs or fails."""
    return f"($obj | [\n{expression}\n])"


def _phase_matches(wanted: str) -> str:
    """byPhase: unset when empty; else the phase (the first output) must be there and equal it."""
    if wanted == "":
        return "true"
    return f"($phase != null and $phase == {_literal(wanted)})"


def _condition_matches(entry: Any, fields: dict[str, str | None]) -> str:
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return "false"
    condition = f"$bytype[{_literal(entry['type'])}]"
    tests = [f"($bytype | has({_literal(entry['type'])}))"]
    for key in ("status", "reason"):
        wanted = entry.get(key)
        if not isinstance(wanted, str) or wanted == "":
            continue  # an empty expectation is not compared
        tests.append(f"(({condition}.{key} // \"\") == {_literal(wanted)})")
    return "(" + " and ".join(tests) + ")"


def _expression_matches(by_expression: Any) -> str:
    if not isinstance(by_expression, dict):
        return "false"
    if "expression" not in by_expression or "expectedResult" not in by_expression:
        raise NotCompilable("byExpression needs expression and expectedResult")
    results = _outputs(f"({by_expression['expression']}\n) | tostring")
    return f"({results} as $r | ($r | length) > 0 and $r[0] == {_literal(by_expression['expectedResult'])})"


def _matcher(matcher: Any, fields: dict[str, str | None]) -> str:
    """One matcher: byPhase, then byConditions, then byExpression, each read only when the ones before
    matched (jq's `and` is short-circuit, as the runtime's early returns); an empty matcher matches."""
    if not isinstance(matcher, dict):
        return "false"
    tests = []
    if isinstance(matcher.get("byPhase"), str):
        tests.append(_phase_matches(matcher["byPhase"]))
    if "byConditions" in matcher:
        listed = matcher["byConditions"]
        if isinstance(listed, list):
            tests.extend(_condition_matches(entry, fields) for entry in listed)
        else:
            tests.append("false")
    if "byExpression" in matcher:
        tests.append(_expression_matches(matcher["byExpression"]))
    return "(" + " and ".join(tests) + ")" if tests else "true"


# a value read as a Go string: a string as it is, null as "" (JSON null leaves a Go string empty), anything
# else fails the conversion
AS_STRING = 'if . == null then "" elif type == "string" then . else error("not a string: \\(type)") end'
# the conditions path's outputs read as [][]map[string]any and flattened
AS_CONDITIONS = (
    'map(if . == null then [] elif type == "array" then . else error("conditions: not a list") end)'
    ' | add // []'
    ' | map(if . == null then {} elif type == "object" then . else error("condition: not an object") end)'
)


def compile_status(definition: dict[str, Any]) -> str:
    """One jq program: the object in, the list of matching statuses out (``["Undefined"]`` when none match,
    ``["<error>"]`` when the runtime's status extraction fails)."""
    status = definition["spec"]["structureDefinition"]["rootComponent"].get("statusDefinition")
    if not isinstance(status, dict):
        return '["Undefined"]'
    lines = [". as $obj"]
    phase = status.get("phaseDefinition")
    if isinstance(phase, dict) and isinstance(phase.get("path"), str):
        lines.append(f"| ({_outputs(phase['path'])} | map({AS_STRING}) | .[0]) as $phase")
    else:
        lines.append("| null as $phase")
    conditions = status.get("conditionsDefinition")
    fields: dict[str, str | None] = dict(FIELD_DEFAULTS)
    if isinstance(conditions, dict) and isinstance(conditions.get("path"), str):
        for key in FIELD_DEFAULTS:
            if key in conditions:
                fields[key] = conditions[key] if conditions[key] not in ("null", "~") else None
        lines.append(f"| ({_outputs(conditions['path'])} | {AS_CONDITIONS}) as $conditions")
    else:
        lines.append("| [] as $conditions")
    # each condition as the runtime keeps it: its type, status and reason as strings ("" or absent when the
    # field is missing or not a string; no reason without reasonFieldName); a later type wins
    def read(name: str | None) -> str:
        if name is None:
            return "null"
        return f'(.[{_literal(name)}] | if type == "string" then . else null end)'

    lines.append(
        f"| (reduce ($conditions[] | {{type: ({read(fields['typeFieldName'])} // \"\"),"
        f" status: {read(fields['statusFieldName'])}, reason: {read(fields['reasonFieldName'])}}})"
        " as $c ({}; .[$c.type] = $c)) as $bytype"
    )
    mappings = status.get("statusMappings") if isinstance(status.get("statusMappings"), dict) else {}
    listed = []
    for key, name in ORDER:
        matchers = mappings.get(key)
        if not isinstance(matchers, list) or not matchers:
            continue
        any_of = " or ".join(_matcher(m, fields) for m in matchers)
        listed.append(f"(if {any_of} then {_literal(name)} else empty end)")
    lines.append("| [" + ", ".join(listed) + '] | if length == 0 then ["Undefined"] else . end')
    return "try (\n" + "\n".join(lines) + '\n) catch ["<error>"]'


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
