"""Matchers as conjunctions of facts about one object: condition states, the phase and expression results.

A matcher holds when all of its facts hold; a status key holds when any of its matchers does. Expressions
are opaque (only their text and expected result are known) unless they merely compare the phase, in which
case they become phase facts. With this model two matchers *certainly* overlap when their facts are jointly
satisfiable and neither relies on an expression result the other does not also require.
"""

from __future__ import annotations

import re

from wmaplint.definition.model import Matcher, StatusDefinition
from wmaplint.source import ScalarNode
from wmaplint.status.knowledge import KindFacts, normalise_path
from wmaplint.structs import dataclass, field

# StatusMappings.Entries() order; all matching statuses are listed in this order, callers usually take the
# first.
EVALUATION_ORDER = (
    "resuming",
    "suspending",
    "suspended",
    "running",
    "failed",
    "completed",
    "initializing",
    "degraded",
)
CONDITION_STATUSES = ("True", "False", "Unknown")


@dataclass(frozen=True, order=True)
class Fact:
    """One requirement: ``kind`` is cond (status of a type), exists (type present), reason, phase or expr."""

    kind: str
    key: str  # condition type, expression text, or "" for the phase
    value: str | None = None
    positive: bool = True

    def describe(self) -> str:
        if self.kind == "cond":
            return f"{self.key}={self.value}"
        if self.kind == "exists":
            return f"a {self.key} condition"
        if self.kind == "reason":
            return f"{self.key} with reason {self.value}"
        if self.kind == "phase":
            return f"phase {self.value!r}" if self.positive else f"phase not {self.value!r}"
        return f"expression `{_short(self.key)}` giving {self.value!r}"


@dataclass(eq=False)
class Conjunction:
    matcher: Matcher
    key: str
    index: int
    facts: frozenset[Fact] = frozenset()
    # why the matcher can never match regardless of the object (empty when it can)
    never: str = ""
    empty: bool = False

    @property
    def label(self) -> str:
        return f"{self.key}[{self.index}]"

    @property
    def opaque(self) -> frozenset[Fact]:
        return frozenset(f for f in self.facts if f.kind == "expr")


@dataclass
class StatusModel:
    conjunctions: dict[str, list[Conjunction]] = field(default_factory=dict)

    def ordered(self) -> list[tuple[str, list[Conjunction]]]:
        known = [(k, self.conjunctions[k]) for k in EVALUATION_ORDER if k in self.conjunctions]
        return known


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _scalar_text(node: object) -> str | None:
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        return node.value
    return None


def build_model(status: StatusDefinition) -> StatusModel:
    has_phase = status.phase_path is not None
    phase_path = normalise_path(status.phase_path.text) if status.phase_path is not None else None
    has_conditions = status.conditions_path is not None
    reason_field = False
    if status.conditions_node is not None:
        r = status.conditions_node.get("reasonFieldName")
        reason_field = isinstance(r, ScalarNode) and isinstance(r.value, str) and bool(r.value)
    model = StatusModel()
    for key, matchers in status.mappings.items():
        model.conjunctions[key] = [
            matcher_conjunction(m, key, i, phase_path, has_phase, has_conditions, reason_field)
            for i, m in enumerate(matchers)
        ]
    return model


def matcher_conjunction(
    matcher: Matcher,
    key: str,
    index: int,
    phase_path: str | None,
    has_phase: bool,
    has_conditions: bool,
    reason_field: bool,
) -> Conjunction:
    conj = Conjunction(matcher, key, index)
    facts: set[Fact] = set()
    if not matcher.node.pairs:
        conj.empty = True
        return conj
    if matcher.by_phase is not None:
        if not has_phase:
            conj.never = "byPhase without phaseDefinition"
        facts.add(Fact("phase", "", matcher.by_phase.value))
    elif matcher.node.get("byPhase") is not None:
        conj.never = "byPhase is not a string"
    for entry in matcher.by_conditions:
        ctype = _scalar_text(entry.get("type"))
        if ctype is None:
            continue
        if not has_conditions:
            conj.never = "byConditions without conditionsDefinition"
        status_node = entry.get("status")
        reason_node = entry.get("reason")
        if status_node is None and reason_node is None:
            facts.add(Fact("exists", ctype))
        if status_node is not None:
            value = _scalar_text(status_node)
            if value is None:
                conj.never = f"status of {ctype} is not a string"
            facts.add(
                Fact("cond", ctype, value if value is not None else str(getattr(status_node, "value", "")))
            )
        if reason_node is not None:
            value = _scalar_text(reason_node)
            if not reason_field:
                conj.never = "reason without reasonFieldName"
            facts.add(
                Fact("reason", ctype, value if value is not None else str(getattr(reason_node, "value", "")))
            )
    if matcher.expression is not None:
        expected = matcher.expected_result.value if matcher.expected_result is not None else None
        if expected is None:
            conj.never = conj.never or "byExpression without expectedResult"
        else:
            facts.add(expression_fact(matcher.expression.text, expected, phase_path))
    conj.facts = frozenset(facts)
    return conj


_EQ = re.compile(r'^\(?\s*(?P<lhs>.+?)\s*\)?\s*(?P<op>==|!=)\s*"(?P<lit>[^"\\]*)"\s*$')
_EQ_REV = re.compile(r'^\s*"(?P<lit>[^"\\]*)"\s*(?P<op>==|!=)\s*\(?\s*(?P<lhs>.+?)\s*\)?\s*$')


def expression_fact(text: str, expected: str, phase_path: str | None) -> Fact:
    """A phase fact when the expression only reads or compares the phase, else an opaque expression fact."""
    if phase_path:
        if normalise_path(text) == phase_path:
            return Fact("phase", "", expected)
        for pattern in (_EQ, _EQ_REV):
            m = pattern.match(" ".join(text.split()))
            if m and normalise_path(m.group("lhs")) == phase_path and expected in ("true", "false"):
                positive = (m.group("op") == "==") == (expected == "true")
                return Fact("phase", "", m.group("lit"), positive)
    return Fact("expr", " ".join(text.split()), expected)


def conflict(facts: frozenset[Fact] | set[Fact], kind_facts: KindFacts | None = None) -> str | None:
    """Why no object can satisfy all ``facts`` (None when one can)."""
    statuses: dict[str, set[str]] = {}
    reasons: dict[str, set[str]] = {}
    phase_is: set[str] = set()
    phase_not: set[str] = set()
    results: dict[str, set[str]] = {}
    for f in facts:
        if f.kind == "cond":
            statuses.setdefault(f.key, set()).add(f.value or "")
        elif f.kind == "reason":
            reasons.setdefault(f.key, set()).add(f.value or "")
        elif f.kind == "phase":
            (phase_is if f.positive else phase_not).add(f.value or "")
        elif f.kind == "expr":
            results.setdefault(f.key, set()).add(f.value or "")
    for ctype, values in sorted(statuses.items()):
        if len(values) > 1:
            return f"condition {ctype} cannot be {' and '.join(sorted(values))} at once"
    for ctype, values in sorted(reasons.items()):
        if len(values) > 1:
            return f"condition {ctype} cannot have reasons {' and '.join(sorted(values))} at once"
    if len(phase_is) > 1:
        return f"the phase cannot be {' and '.join(repr(p) for p in sorted(phase_is))} at once"
    if phase_is & phase_not:
        return f"the phase cannot be {sorted(phase_is)[0]!r} and not {sorted(phase_is)[0]!r}"
    for text, values in sorted(results.items()):
        if len(values) > 1:
            return f"`{_short(text)}` cannot give {' and '.join(repr(v) for v in sorted(values))}"
    if kind_facts is not None:
        true_types = sorted(t for t, v in statuses.items() if v == {"True"})
        for i, a in enumerate(true_types):
            for b in true_types[i + 1 :]:
                if kind_facts.never_true_together(a, b):
                    return f"the {kind_facts.gvk} controller never sets {a}=True and {b}=True together"
    return None


def implies(facts: frozenset[Fact], fact: Fact) -> bool:
    """Every object satisfying ``facts`` satisfies ``fact``."""
    if fact in facts:
        return True
    if fact.kind == "exists":
        return any(f.key == fact.key and f.kind in ("cond", "reason", "exists") for f in facts)
    if fact.kind == "phase" and not fact.positive:
        return any(f.kind == "phase" and f.positive and f.value != fact.value for f in facts)
    return False


def subsumes(general: Conjunction, specific: Conjunction) -> bool:
    """Every object ``specific`` matches is also matched by ``general``."""
    return all(implies(specific.facts, f) for f in general.facts)


def certain_overlap(a: Conjunction, b: Conjunction, kind_facts: KindFacts | None) -> frozenset[Fact] | None:
    """The facts of an object both matchers certainly match, or None when there is none or it is unknown."""
    if a.empty or b.empty or a.never or b.never:
        return None
    if a.opaque != b.opaque:  # an expression one of them needs could exclude the other's facts
        return None
    union = a.facts | b.facts
    if conflict(union, kind_facts) is not None:
        return None
    return union


def describe_object(facts: frozenset[Fact]) -> str:
    reasons = {f.key: f.value for f in facts if f.kind == "reason"}
    names = []
    for f in sorted(x for x in facts if x.kind in ("cond", "exists")):
        reason = reasons.pop(f.key, None)
        text = f.describe() if f.kind == "cond" else f.key
        names.append(f"{text} (reason {reason})" if reason else text)
    names.extend(f"{key} with reason {value}" for key, value in sorted(reasons.items()))
    other = sorted(f for f in facts if f.kind not in ("cond", "exists", "reason"))
    parts = []
    if names:
        joined = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append("conditions " + joined)
    parts.extend(f.describe() for f in other)
    return "; ".join(parts) if parts else "any object"
