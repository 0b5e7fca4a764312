"""Document kind and structure: types, required and unknown fields, list keys, sizes.

The walk is driven by wmaplint's own schema of the format (``wmaplint.definition.format``); messages are
written for people, with a did-you-mean for misspelled keys.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from wmaplint.checks import Context, check, fix
from wmaplint.definition.fields import STATUS_KEYS
from wmaplint.definition.format import DEFINITION_SCHEMA
from wmaplint.definition.model import DEFINITION_KINDS, KARTA
from wmaplint.diagnostics import Diagnostic, Fix, define
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode
from wmaplint.source.edits import replace_scalar

LEGACY_KIND = define(
    "WM104", "legacy-kind", "warning",
    "The definition uses the pre-release kind ResourceInterface.",
    why="ResourceInterface (optimization.nvidia.com/v1alpha1) was renamed to Karta (run.ai/v1alpha1) in "
    "v0.1.0; current operators and schedulers only look up Karta objects, so the legacy document is never "
    "used.",
    bad=JOB.replace("apiVersion: run.ai/v1alpha1\nkind: Karta", "apiVersion: "
                    "optimization.nvidia.com/v1alpha1\nkind: ResourceInterface"),
    good=JOB,
    fix="Change apiVersion to run.ai/v1alpha1 and kind to Karta; the body is the same.",
    tags=("migration",),
)

API_VERSION = define(
    "WM105", "api-version-mismatch", "error",
    "The apiVersion does not belong to the definition's kind.",
    why="Karta objects are served only as run.ai/v1alpha1 (ResourceInterface as "
    "optimization.nvidia.com/v1alpha1); kubectl rejects any other pairing and consumers never see the "
    "definition.",
    bad=JOB.replace("apiVersion: run.ai/v1alpha1", "apiVersion: run.ai/v1"),
    good=JOB,
    fix="Use apiVersion run.ai/v1alpha1 with kind Karta.",
)

INVALID_TYPE = define(
    "WM110", "invalid-type", "error",
    "A field has a value of the wrong type.",
    why="The API server rejects the definition, and a non-string where a jq expression or a status value is "
    "expected (for example an unquoted true) is not what the runtime compares against.",
    bad=job_with('expectedResult: "true"', "expectedResult: true"),
    good=JOB,
    fix="Write the value with the expected type; quote values that must be strings (\"true\", \"1\").",
)

MISSING_FIELD = define(
    "WM111", "missing-field", "error",
    "A required field is missing.",
    why="The API server rejects definitions without their required fields (for example a component's name, "
    "byExpression's expectedResult or a condition's type).",
    bad=job_with("      name: job\n", ""),
    good=JOB,
    fix="Add the field.",
)

UNKNOWN_FIELD = define(
    "WM112", "unknown-field", "warning",
    "A field that the format does not have (often a misspelling).",
    why="kubectl refuses the definition: `--validate=strict`, its default since 1.27, has the API server "
    "reject unknown fields. With `--validate=warn` or `false`, and from clients that do not ask for strict "
    "validation, the API server prunes the field (at most with a warning), and the Go decoder of "
    "`kli validate` (non-strict sigs.k8s.io/yaml) ignores it. Either way a misspelled specDefinition, or a "
    "proposed status key such as pending, does nothing.",
    bad=job_with("specDefinition:", "specDefiniton:"),
    good=JOB,
    fix="Correct the spelling (the message suggests the closest field) or remove the field.",
)

DUPLICATE_ENTRY = define(
    "WM113", "duplicate-entry", "error",
    "A list that must have unique keys or values has a repeat.",
    why="childComponents and podGroups are list maps keyed by name, additionalChildKinds by kind, gang "
    "members and podGroup sub-groups by componentName, and groupByKeyPaths and filters are sets: the API "
    "server rejects repeats (the Karta CRD's x-kubernetes-list-type and list-map-keys, FORMAT.md §3.1).",
    bad=JOB.replace(
        "    rootComponent:",
        "    additionalChildKinds:\n    - {group: apps, version: v1, kind: Deployment}\n"
        "    - {group: apps, version: v1, kind: Deployment}\n    rootComponent:",
    ),
    good=JOB,
    fix="Remove the repeat or give it a distinct key.",
)

EMPTY_VALUE = define(
    "WM114", "empty-value", "error",
    "A list, map or string that must not be empty is empty.",
    why="The API server enforces minimum sizes: suspend and resume need at least one action, a type "
    "selector's keyPath and matchLabels must not be empty.",
    bad=JOB.replace(
        "      statusDefinition:",
        "      suspendDefinition:\n        suspendActions: []\n        resumeActions: [{path: .spec.suspend, "
        "value: \"false\"}]\n      statusDefinition:",
    ),
    good=JOB,
    fix="Add an entry, or remove the field.",
)

STATUS_BLOCK = define(
    "WM115", "status-in-input", "info",
    "The file carries a status block, which the operator writes.",
    why="status is written by the Karta operator; a status copied from a cluster into a definition file is "
    "ignored on apply and goes stale.",
    bad=JOB + "status:\n  conditions: []\n",
    good=JOB,
    fix="Remove the status block from the definition file.",
)

_DEFS = DEFINITION_SCHEMA["$defs"]
_TYPE_WORDS = {"string": "a string", "object": "a mapping", "array": "a list", "integer": "an integer",
               "number": "a number", "boolean": "a boolean"}


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        return _DEFS[ref.rsplit("/", 1)[1]]
    return schema


def _kind_of(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    assert isinstance(node, ScalarNode)
    value = node.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({node.text})"
    if isinstance(value, (int, float)):
        return f"a number ({node.text})"
    return "a string"


def _pointer_text(pointer: tuple[str | int, ...]) -> str:
    out = ""
    for part in pointer:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "document"


@check
def document_kind(ctx: Context) -> Iterator[Diagnostic]:
    d = ctx.definition
    doc = d.document_node
    kind_node = doc.get("kind")
    api_node = doc.get("apiVersion")
    expected_api = DEFINITION_KINDS[d.kind]
    if d.legacy and isinstance(kind_node, ScalarNode):
        edits = [replace_scalar(kind_node, KARTA[1])]
        if isinstance(api_node, ScalarNode) and api_node.value != KARTA[0]:
            edits.append(replace_scalar(api_node, KARTA[0]))
        yield ctx.diag(
            LEGACY_KIND, kind_node,
            "ResourceInterface is the pre-release name of Karta: current consumers only read kind Karta, "
            "apiVersion run.ai/v1alpha1",
            fixes=fix("migrate to kind Karta, apiVersion run.ai/v1alpha1", *edits),
        )
    if isinstance(api_node, ScalarNode) and api_node.value != expected_api:
        yield ctx.diag(
            API_VERSION, api_node,
            f"kind {d.kind} is served as apiVersion {expected_api}, not {api_node.text!r}",
            fixes=fix(f"use {expected_api}", replace_scalar(api_node, expected_api)),
        )
    status = doc.key_node("status")
    if status is not None:
        value = doc.get("status")
        if not (isinstance(value, MappingNode) and not value.pairs) and not (
            isinstance(value, ScalarNode) and value.value is None
        ):
            yield ctx.diag(STATUS_BLOCK, status, "the status block is written by the operator and ignored on "
                           "apply")


@check
def structure(ctx: Context) -> Iterator[Diagnostic]:
    root = ctx.definition.document_node
    stack: list[tuple[Node, dict[str, Any], tuple[str | int, ...], Node]] = [
        (root, DEFINITION_SCHEMA, (), root)]
    while stack:
        node, schema, pointer, anchor = stack.pop()
        schema = _resolve(schema)
        expected = schema.get("type")
        if isinstance(node, ScalarNode) and node.value is None and pointer:
            continue  # null is "absent" to the API server; required-ness is checked by the parent
        if expected == "object":
            if not isinstance(node, MappingNode):
                yield _type_error(ctx, node, pointer, "object")
                continue
            yield from _object(ctx, node, schema, pointer, anchor, stack)
        elif expected == "array":
            if not isinstance(node, SequenceNode):
                yield _type_error(ctx, node, pointer, "array")
                continue
            yield from _array(ctx, node, schema, pointer, anchor, stack)
        elif expected == "string":
            if not (isinstance(node, ScalarNode) and isinstance(node.value, str)):
                yield _type_error(ctx, node, pointer, "string")
                continue
            if schema.get("minLength") and len(node.value) < schema["minLength"]:
                yield ctx.diag(EMPTY_VALUE, node, f"{_pointer_text(pointer)} must not be empty")


def _type_error(ctx: Context, node: Node, pointer: tuple[str | int, ...], expected: str) -> Diagnostic:
    where = _pointer_text(pointer)
    message = f"{where} must be {_TYPE_WORDS[expected]}, not {_kind_of(node)}"
    fixes: list[Fix] = []
    if expected == "string" and isinstance(node, ScalarNode) and node.value is not None:
        message += f"; quote it: \"{node.text}\""
        fixes = fix("quote the value", replace_scalar(node, node.text))
    return ctx.diag(INVALID_TYPE, node, message, fixes=fixes)


def _object(ctx: Context, node: MappingNode, schema: dict[str, Any], pointer: tuple[str | int, ...],
            anchor: Node, stack: list) -> Iterator[Diagnostic]:
    props: dict[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    present = set()
    for key, value in node.pairs:
        name = key.value if isinstance(key.value, str) else key.text
        present.add(name)
        if name in props:
            stack.append((value, props[name], (*pointer, name), key))
        elif isinstance(extra, dict):
            stack.append((value, extra, (*pointer, name), key))
        elif extra is False:
            yield _unknown(ctx, key, name, sorted(props), pointer)
    for name in schema.get("required", ()):
        given = node.get(name)
        if name not in present or (isinstance(given, ScalarNode) and given.value is None):
            where = _pointer_text(pointer)
            target = anchor if anchor is not node else node
            yield ctx.diag(MISSING_FIELD, _head(target), f"{where} is missing the required field {name!r}",
                           data={"field": name})
    if schema.get("minProperties") and len(node.pairs) < schema["minProperties"]:
        yield ctx.diag(EMPTY_VALUE, _head(anchor), f"{_pointer_text(pointer)} must have at least one entry")


def _head(node: Node) -> Node | Any:
    """A mapping's first line rather than its whole block, so underlines stay readable."""
    if isinstance(node, MappingNode) and node.pairs:
        return node.pairs[0][0]
    return node


def _unknown(ctx: Context, key: ScalarNode, name: str, valid: list[str], pointer: tuple[str | int, ...]
             ) -> Diagnostic:
    suggestions = difflib.get_close_matches(name, valid, n=3, cutoff=0.6)
    lowered = {v.lower(): v for v in valid}
    if name.lower() in lowered and lowered[name.lower()] not in suggestions:
        suggestions.insert(0, lowered[name.lower()])
    where = _pointer_text(pointer)
    if pointer and pointer[-1] == "statusMappings":
        message = (f"{name!r} is not a status of the format (known: {', '.join(STATUS_KEYS)}); "
                   "kubectl's strict validation refuses it, the API server prunes it otherwise, and no "
                   "status maps to it")
    else:
        message = f"unknown field {name!r} in {where}"
    if suggestions:
        message += f"; did you mean {suggestions[0]!r}?"
    fixes = fix(f"rename to {suggestions[0]}", replace_scalar(key, suggestions[0])) if suggestions else []
    return ctx.diag(UNKNOWN_FIELD, key, message, fixes=fixes,
                    data={"suggestions": suggestions, "valid": valid})


def _array(ctx: Context, node: SequenceNode, schema: dict[str, Any], pointer: tuple[str | int, ...],
           anchor: Node, stack: list) -> Iterator[Diagnostic]:
    items = schema.get("items", {})
    if schema.get("minItems") and len(node.items) < schema["minItems"]:
        yield ctx.diag(EMPTY_VALUE, anchor, f"{_pointer_text(pointer)} needs at least {schema['minItems']} "
                       f"entry")
    for i, item in enumerate(node.items):
        stack.append((item, items, (*pointer, i), item))
    list_type = schema.get("x-kubernetes-list-type")
    keys = schema.get("x-kubernetes-list-map-keys") or []
    seen: dict[Any, Node] = {}
    for item in node.items:
        if list_type == "set" and isinstance(item, ScalarNode):
            marker: Any = item.value
            label = f"{item.text!r}"
        elif list_type == "map" and keys and isinstance(item, MappingNode):
            parts = [item.get(k) for k in keys]
            if any(not isinstance(p, ScalarNode) for p in parts):
                continue
            marker = tuple(p.value for p in parts)  # type: ignore[union-attr]
            label = ", ".join(f"{k} {p.text!r}" for k, p in zip(keys, parts, strict=True))  # type: ignore[union-attr]
        else:
            continue
        first = seen.get(marker)
        if first is None:
            seen[marker] = item
            continue
        where = _pointer_text(pointer)
        note = ""
        if pointer[-1:] == ("additionalChildKinds",):
            note = " (the list is keyed by kind alone, so the same kind from two groups is rejected too)"
        yield ctx.diag(DUPLICATE_ENTRY, _head(item), f"{where} has {label} twice{note}",
                       related=[ctx.here(_head(first), "first entry")])
