"""What a kind's controller writes into status: condition types and their reasons, phases, whether the
workload completes and whether it can fail.

The facts are the status part of the controller model (``schemas/controllers/``, read through
:mod:`wmaplint.controllers`), keyed here by group/version/kind. A phase field's values can also come from the
kind's CRD schema (an ``enum`` on the field); :func:`phase_values` merges both. :func:`parse_knowledge` still
reads the older file shape of these facts (kinds keyed by group/version/kind), for tests and tools.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from wmaplint import cache_records, memo
from wmaplint.controllers.paths import normalise_path
from wmaplint.dataclass import dataclass, field
from wmaplint.shipped_data import shipped

if TYPE_CHECKING:
    from wmaplint.controllers import Model
    from wmaplint.definition.model import GVK
    from wmaplint.schema.types import SchemaType
    from wmaplint.source.plain import Json

MODEL_DIR = shipped("schemas") / "controllers"

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

    def never_sets(self, ctype: str) -> bool:
        """Whether a condition of type ``ctype`` never exists on this kind: it is not among the types of an
        exhaustive list, or it is a near-miss of a known type (likely a misspelling) when the list is not
        the whole set."""
        if ctype in self.conditions:
            return False
        return self.exhaustive or closest(ctype, self.conditions) is not None


@dataclass(frozen=True)
class Knowledge:
    """The controllers of a knowledge file, keyed as :func:`gvk_key` spells a kind."""

    kinds: dict[str, Controller]

    def controller(self, group: str, version: str, kind: str) -> Controller | None:
        return self.kinds.get(gvk_key(group, version, kind))


def gvk_key(group: str, version: str, kind: str) -> str:
    return f"{group}/{version}/{kind}" if group else f"{version}/{kind}"


def _strings(value: Json) -> tuple[str, ...]:
    return tuple(str(v) if v is not None else "" for v in value) if isinstance(value, list) else ()


def parse_knowledge(data: object, source: str = "<knowledge>") -> Knowledge:
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


def from_model(model: Model) -> Knowledge:
    """The status facts of every kind and version of the controller model."""
    kinds: dict[str, Controller] = {}
    for kind in model.kinds:
        if kind.status is None:
            continue
        status = kind.status
        for version in kind.versions:
            gvk = kind.gvk(version)
            kinds[gvk] = Controller(
                gvk=gvk,
                source=status.source,
                completes=status.completes,
                exhaustive=status.exhaustive,
                fails=status.fails,
                conditions={t: ConditionType(c.type, c.source, c.reasons)
                            for t, c in status.conditions.items()},
                exclusive=frozenset(frozenset(pair) for pair in status.exclusive),
                phases={key: PhaseField(p.path, p.values, p.source) for key, p in status.phases.items()},
            )
    return Knowledge(kinds)


@memo.lru_cache(maxsize=4)
def load_knowledge(path: str | None = None) -> Knowledge:
    """The status facts of the controller model, or of a file of the older shape at ``path``. Raises
    KnowledgeError when unreadable."""
    if not path:
        from wmaplint.controllers import ModelError, load_model

        try:
            return from_model(load_model())
        except (ModelError, OSError) as exc:
            raise KnowledgeError(str(exc)) from None
    file = Path(path)
    try:
        from wmaplint.source.data import DataError

        data = cache_records.yaml_data("knowledge", file.read_text(encoding="utf-8"), str(file))
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
