"""What a kind's controller writes into status: condition types and their reasons, phases, whether the
workload completes and whether it can fail.

The knowledge file ``schemas/conditions.yaml`` records it by group/version/kind. A phase field's values can
also come from the kind's CRD schema (an ``enum`` on the field); :func:`phase_values` merges both.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from wmaplint import records
from wmaplint.resources import shipped
from wmaplint.structs import dataclass, field

if TYPE_CHECKING:
    from wmaplint.definition.model import GVK
    from wmaplint.schema.types import SchemaType

KNOWLEDGE_FILE = shipped("schemas") / "conditions.yaml"

# The statuses of every Kubernetes condition, compared as strings.
CONDITION_STATUSES = ("True", "False", "Unknown")


class KnowledgeError(Exception):
    """The knowledge file cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class ConditionType:
    """A condition type a controller sets, where that is documented, and the reasons it gives it."""

    type: str
    source: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class PhaseField:
    """A phase-like field a controller sets (``path`` as a phaseDefinition writes it) and its values."""

    path: str
    values: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Controller:
    """What the controller of one kind (``gvk``, as the knowledge file keys it) writes into status.

    ``exhaustive``: the conditions are all it ever sets. ``exclusive``: pairs of condition types it never has
    True at once. ``phases`` are keyed by their normalised path."""

    gvk: str
    source: str
    completes: bool
    exhaustive: bool
    fails: bool = True  # False: the controller has no failure state, so nothing can map `failed`
    conditions: dict[str, ConditionType] = field(default_factory=dict)
    exclusive: frozenset[frozenset[str]] = frozenset()
    phases: dict[str, PhaseField] = field(default_factory=dict)

    def never_true_together(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.exclusive


@dataclass(frozen=True)
class Knowledge:
    """The controllers of a knowledge file, keyed as :func:`gvk_key` spells a kind."""

    kinds: dict[str, Controller]

    def controller(self, group: str, version: str, kind: str) -> Controller | None:
        return self.kinds.get(gvk_key(group, version, kind))


def gvk_key(group: str, version: str, kind: str) -> str:
    return f"{group}/{version}/{kind}" if group else f"{version}/{kind}"


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) if v is not None else "" for v in value) if isinstance(value, list) else ()


def parse_knowledge(data: Any, source: str = "<knowledge>") -> Knowledge:
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        raise KnowledgeError(f"{source}: expected a mapping with `kinds`")
    kinds: dict[str, Controller] = {}
    for key, raw in data["kinds"].items():
        if not isinstance(raw, dict):
            raise KnowledgeError(f"{source}: {key}: expected a mapping")
        conditions = {}
        for ctype, c in (raw.get("conditions") or {}).items():
            c = c if isinstance(c, dict) else {}
            conditions[str(ctype)] = ConditionType(
                str(ctype), str(c.get("source", "")), _strings(c.get("reasons"))
            )
        phases = {}
        for path, p in (raw.get("phases") or {}).items():
            p = p if isinstance(p, dict) else {}
            phases[normalise_path(str(path))] = PhaseField(
                str(path), _strings(p.get("values")), str(p.get("source", ""))
            )
        exclusive = frozenset(
            frozenset(_strings(pair)) for pair in raw.get("exclusive") or [] if len(pair) == 2
        )
        kinds[str(key)] = Controller(
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
        from wmaplint.source.data import DataError

        data = records.yaml_data("knowledge", file.read_text(encoding="utf-8"), str(file))
    except (OSError, yaml.YAMLError, DataError) as exc:
        raise KnowledgeError(f"{file}: {exc}") from None
    return parse_knowledge(data, str(file))


def controller_of(gvk: GVK | None) -> Controller | None:
    """What the bundled knowledge file says the controller of ``gvk`` writes (None when it does not know the
    kind, or cannot be read: then nothing is assumed)."""
    if gvk is None:
        return None
    try:
        knowledge = load_knowledge()
    except KnowledgeError:
        return None
    return knowledge.controller(gvk.group, gvk.version, gvk.kind)


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name that ``name`` most likely means: the same but for case, else the closest spelling."""
    known = list(known)
    lowered = {k.lower(): k for k in known}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None


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


def schema_enum(schema_type: SchemaType | None, path: str) -> tuple[str, ...]:
    """The enum a CRD schema declares at a simple path such as ``.status.state`` (empty when none)."""
    path = normalise_path(path)
    if schema_type is None or not _SIMPLE_PATH.match(path):
        return ()
    found = schema_type
    for name in path.split(".")[1:]:
        member = found.member(name)
        if member is None:
            return ()
        found = member
    return tuple(str(v) for v in found.enum if v is not None) if found.enum else ()


def phase_values(
    controller: Controller | None, path: str, schema_types: Iterable[SchemaType] = ()
) -> tuple[tuple[str, ...], str]:
    """(known values, where they come from) of the phase at ``path``; empty when nothing is known."""
    key = normalise_path(path)
    values: dict[str, None] = {}
    sources = []
    phase = controller.phases.get(key) if controller else None
    if phase is not None:
        values.update(dict.fromkeys(phase.values))
        sources.append(f"{controller.gvk if controller else ''}: {phase.source}")
    for t in schema_types:
        enum = schema_enum(t, key)
        if enum:
            values.update(dict.fromkeys(enum))
            sources.append(f"the CRD schema's enum at {key}")
            break
    return tuple(values), "; ".join(sources)
