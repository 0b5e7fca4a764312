"""Crude but useful: find the navigation chains of a jq expression that start from the root object, and walk
them through the target kind's schema. Catches the wrong-path class of bugs (a field that is not in the CRD,
a missing intermediate object such as RayJob's .spec.rayClusterSpec)."""

from __future__ import annotations

import re
from typing import Any

# a chain: .a.b[]?.c["key"][0] ... (field names, quoted keys, iterations and indexes)
_CHAIN = re.compile(r'(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\]|\[\]\??|\[\d+\]\??)+')
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
# functions whose argument is evaluated against each element, not the root
_RELATIVE_CALLS = {
    "select",
    "any",
    "all",
    "map",
    "map_values",
    "with_entries",
    "first",
    "last",
    "min_by",
    "max_by",
    "sort_by",
    "group_by",
    "unique_by",
    "paths",
    "path",
    "tostring",
    "ltrimstr",
}


def root_chains(expr: str) -> list[list[str]]:
    """Navigation chains evaluated against the root input, as token lists ("a", "[]", "key")."""
    chains: list[list[str]] = []
    stack = [True]  # per bracket level: is `.` the root object here?
    text = expr
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            end = _STRING.match(text, i)
            i = end.end() if end else len(text)
            continue
        if ch in "([":
            word = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", text[:i])
            relative = ch == "(" and word is not None and word.group(1) in _RELATIVE_CALLS
            if ch == "[" and i > 0 and re.match(r"[\]\w?\"]", text[i - 1]):
                relative = False  # an index/iteration suffix, handled by the chain regex
            stack.append(stack[-1] and not relative)
            i += 1
            continue
        if ch in ")]":
            if len(stack) > 1:
                stack.pop()
            i += 1
            continue
        if ch == "|" and not text.startswith("|=", i):
            # `E as $x | body` keeps the input; any other pipe changes it
            before = text[:i].rstrip()
            if not re.search(r"\bas\s+\$[A-Za-z_][A-Za-z0-9_]*$", before):
                stack[-1] = False
            i += 1
            continue
        if ch == "." and (i == 0 or not re.match(r"[\w\]\)\"?$]", text[i - 1])):
            match = _CHAIN.match(text, i)
            if match and stack[-1]:
                chains.append(_tokens(match.group(0)))
            if match:
                i = match.end()
                continue
        i += 1
    return [c for c in chains if c]


def _tokens(chain: str) -> list[str]:
    out = []
    for part in re.finditer(r'\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]|\[\d*\]\??', chain):
        if part.group(1):
            out.append(part.group(1))
        elif part.group(2) is not None:
            out.append(part.group(2))
        else:
            out.append("[]")
    return out


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    for _ in range(50):  # bounded: $ref chains in the Kubernetes OpenAPI are short
        if "$ref" in schema:
            ref = schema["$ref"]
        elif len(schema.get("allOf", [])) == 1 and "$ref" in schema["allOf"][0]:
            ref = schema["allOf"][0]["$ref"]
        else:
            return schema
        node: Any = root
        for key in ref.lstrip("#/").split("/"):
            node = node[key]
        schema = node
    return schema


def missing_step(schema: dict[str, Any], chain: list[str]) -> str | None:
    """None when the chain exists in the schema, else the part that does not."""
    root = schema
    node = _resolve(schema, root)
    for depth, token in enumerate(chain):
        if node.get("x-kubernetes-preserve-unknown-fields") or (
            node.get("type") == "object" and "properties" not in node and "additionalProperties" not in node
        ):
            return None  # free-form (e.g. ObjectMeta inside CRDs): nothing more to check
        if token == "[]":
            if "items" in node:
                node = _resolve(node["items"], root)
            elif isinstance(node.get("additionalProperties"), dict):
                node = _resolve(node["additionalProperties"], root)
            else:
                return ".".join(chain[: depth + 1])
        elif token in (node.get("properties") or {}):
            node = _resolve(node["properties"][token], root)
        elif isinstance(node.get("additionalProperties"), dict):
            node = _resolve(node["additionalProperties"], root)
        else:
            return ".".join(chain[: depth + 1])
    return None
