"""What controllers write into status: condition types, reasons, phases, completion.

The facts live in ``schemas/conditions.yaml``, keyed by group/version/kind. Phase values can also come from
the target CRD's schema (an ``enum`` on the phase field); :func:`phase_values` merges both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from wmaplint import records
from wmaplint.resources import shipped
from wmaplint.structs import dataclass, field

KNOWLEDGE_FILE = shipped("schemas") / "conditions.yaml"


class KnowledgeError(Exception):
    """The knowledge file cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class ConditionFact:
    type: str
    source: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class PhaseFact:
    path: str
    values: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class KindFacts:
    gvk: str
    source: str
    completes: bool
    exhaustive: bool
    fails: bool = True  # False: the controller has no failure state, so nothing can map `failed`
    conditions: dict[str, ConditionFact] = field(default_factory=dict)
    exclusive: frozenset[frozenset[str]] = frozenset()
    phases: dict[str, PhaseFact] = field(default_factory=dict)

    def never_true_together(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.exclusive


@dataclass(frozen=True)
class Knowledge:
    kinds: dict[str, KindFacts]

    def facts(self, group: str, version: str, kind: str) -> KindFacts | None:
        return self.kinds.get(gvk_key(group, version, kind))


def gvk_key(group: str, version: str, kind: str) -> str:
    return f"{group}/{version}/{kind}" if group else f"{version}/{kind}"


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) if v is not None else "" for v in value) if isinstance(value, list) else ()


def parse_knowledge(data: Any, source: str = "<knowledge>") -> Knowledge:
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        raise KnowledgeError(f"{source}: expected a mapping with `kinds`")
    kinds: dict[str, KindFacts] = {}
    for key, raw in data["kinds"].items():
        if not isinstance(raw, dict):
            raise KnowledgeError(f"{source}: {key}: expected a mapping")
        conditions = {}
        for ctype, c in (raw.get("conditions") or {}).items():
            c = c if isinstance(c, dict) else {}
            conditions[str(ctype)] = ConditionFact(
                str(ctype), str(c.get("source", "")), _strings(c.get("reasons"))
            )
        phases = {}
        for path, p in (raw.get("phases") or {}).items():
            p = p if isinstance(p, dict) else {}
            phases[normalise_path(str(path))] = PhaseFact(
                str(path), _strings(p.get("values")), str(p.get("source", ""))
            )
        exclusive = frozenset(
            frozenset(_strings(pair)) for pair in raw.get("exclusive") or [] if len(pair) == 2
        )
        kinds[str(key)] = KindFacts(
            gvk=str(key),
            source=str(raw.get("source", "")),
            completes=bool(raw.get("completes", False)),
            exhaustive=bool(raw.get("exhaustive", True)),
            fails=bool(raw.get("fails", True)),
            conditions=conditions,
            exclusive=exclusive,
            phases=phases,
        )
    return Knowledge(kinds)


@lru_cache(maxsize=4)
def load_knowledge(path: str | None = None) -> Knowledge:
    """The knowledge file (the bundled one by default). Raises KnowledgeError when unreadable."""
    file = Path(path) if path else KNOWLEDGE_FILE
    try:
        data = records.yaml_data("knowledge", file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeError(f"{file}: {exc}") from None
    return parse_knowledge(data, str(file))


_WS = re.compile(r"\s+")
_DEFAULT = re.compile(r'^(.*?)//(""|null)$')


def normalise_path(text: str) -> str:
    """A phase path without blanks, outer parentheses or a trailing `// ""` default, for comparing paths."""
    text = _WS.sub("", text)
    for _ in range(8):  # a few layers of `( ... // "" )` at most; more is not a plain path anyway
        before = text
        if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
            text = text[1:-1]
        m = _DEFAULT.match(text)
        if m:
            text = m.group(1)
        if text == before:
            break
    return text


_SIMPLE_PATH = re.compile(r"^(\.[A-Za-z_][A-Za-z0-9_]*)+$")


def schema_enum(schema_type: Any, path: str) -> tuple[str, ...]:
    """The enum a CRD schema declares at a simple path such as ``.status.state`` (empty when none)."""
    path = normalise_path(path)
    if schema_type is None or not _SIMPLE_PATH.match(path):
        return ()
    t = schema_type
    for name in path.split(".")[1:]:
        member = getattr(t, "member", None)
        t = member(name) if member else None
        if t is None:
            return ()
    enum = getattr(t, "enum", None)
    return tuple(str(v) for v in enum if v is not None) if enum else ()


def phase_values(
    facts: KindFacts | None, path: str, schema_types: Iterable[Any] = ()
) -> tuple[tuple[str, ...], str]:
    """(known values, where they come from) of the phase at ``path``; empty when nothing is known."""
    key = normalise_path(path)
    values: dict[str, None] = {}
    sources = []
    fact = facts.phases.get(key) if facts else None
    if fact is not None:
        values.update(dict.fromkeys(fact.values))
        sources.append(f"{facts.gvk if facts else ''}: {fact.source}")
    for t in schema_types:
        enum = schema_enum(t, key)
        if enum:
            values.update(dict.fromkeys(enum))
            sources.append(f"the CRD schema's enum at {key}")
            break
    return tuple(values), "; ".join(sources)
