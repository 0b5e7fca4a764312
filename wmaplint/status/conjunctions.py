"""Matchers as conjunctions of requirements on one object: condition states, the phase, expression results.

A matcher holds when all of its requirements hold; a status holds when any of its matchers does. Expressions
are opaque (only their text and expected result are known) unless they merely compare the phase, in which
case they become phase requirements. With this model two matchers *certainly* overlap when their
requirements are jointly satisfiable and neither relies on an expression result the other does not also
require.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path
from wmaplint.dataclass import dataclass
from wmaplint.definition.model import Matcher, StatusDefinition
from wmaplint.source import ScalarNode
from wmaplint.status.mappings import reads_reasons

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel


@dataclass(frozen=True, order=True)
class Requirement:
    """One thing a matcher requires of an object: ``kind`` is cond (a condition type has a status), exists (a
    condition type is present), reason, phase or expr (an expression gives a result)."""

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
    """The requirements of the matcher at ``index`` under the status ``key``."""

    matcher: Matcher
    key: str
    index: int
    requirements: frozenset[Requirement] = frozenset()
    # why the matcher can never match regardless of the object (empty when it can)
    never: str = ""
    empty: bool = False

    @property
    def label(self) -> str:
        return f"{self.key}[{self.index}]"

    @property
    def opaque(self) -> frozenset[Requirement]:
        return frozenset(r for r in self.requirements if r.kind == "expr")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _scalar_text(node: object) -> str | None:
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        return node.value
    return None


def conjunctions_of(status: StatusDefinition) -> dict[str, list[Conjunction]]:
    """Each status of the mappings with its matchers as conjunctions, in the order written."""
    has_phase = status.phase_path is not None
    phase_path = normalise_path(status.phase_path.text) if status.phase_path is not None else None
    has_conditions = status.conditions_path is not None
    reason_field = reads_reasons(status)
    return {
        key: [
            matcher_conjunction(m, key, i, phase_path, has_phase, has_conditions, reason_field)
            for i, m in enumerate(matchers)
        ]
        for key, matchers in status.mappings.items()
    }


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
    found: set[Requirement] = set()
    if not matcher.node.pairs:
        conj.empty = True
        return conj
    if matcher.by_phase is not None:
        if not has_phase:
            conj.never = "byPhase without phaseDefinition"
        found.add(Requirement("phase", "", matcher.by_phase.value))
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
            found.add(Requirement("exists", ctype))
        if status_node is not None:
            value = _scalar_text(status_node)
            if value is None:
                conj.never = f"status of {ctype} is not a string"
            found.add(Requirement(
                "cond", ctype, value if value is not None else str(getattr(status_node, "value", ""))
            ))
        if reason_node is not None:
            value = _scalar_text(reason_node)
            if not reason_field:
                conj.never = "reason without reasonFieldName"
            found.add(Requirement(
                "reason", ctype, value if value is not None else str(getattr(reason_node, "value", ""))
            ))
    if matcher.expression is not None:
        expected = matcher.expected_result.value if matcher.expected_result is not None else None
        if expected is None:
            conj.never = conj.never or "byExpression without expectedResult"
        else:
            found.add(expression_requirement(matcher.expression.text, expected, phase_path))
    conj.requirements = frozenset(found)
    return conj


_EQ = re.compile(r'^\(?\s*(?P<lhs>.+?)\s*\)?\s*(?P<op>==|!=)\s*"(?P<lit>[^"\\]*)"\s*$')
_EQ_REV = re.compile(r'^\s*"(?P<lit>[^"\\]*)"\s*(?P<op>==|!=)\s*\(?\s*(?P<lhs>.+?)\s*\)?\s*$')


def expression_requirement(text: str, expected: str, phase_path: str | None) -> Requirement:
    """A phase requirement when the expression only reads or compares the phase, else an opaque one."""
    if phase_path:
        if normalise_path(text) == phase_path:
            return Requirement("phase", "", expected)
        for pattern in (_EQ, _EQ_REV):
            m = pattern.match(" ".join(text.split()))
            if m and normalise_path(m.group("lhs")) == phase_path and expected in ("true", "false"):
                positive = (m.group("op") == "==") == (expected == "true")
                return Requirement("phase", "", m.group("lit"), positive)
    return Requirement("expr", " ".join(text.split()), expected)


def conflict(
    requirements: frozenset[Requirement] | set[Requirement], controller: KindModel | None = None
) -> str | None:
    """Why no object can meet all ``requirements`` (None when one can); with ``controller``, also by what it
    never sets at once."""
    statuses: dict[str, set[str]] = {}
    reasons: dict[str, set[str]] = {}
    phase_is: set[str] = set()
    phase_not: set[str] = set()
    results: dict[str, set[str]] = {}
    for r in requirements:
        if r.kind == "cond":
            statuses.setdefault(r.key, set()).add(r.value or "")
        elif r.kind == "reason":
            reasons.setdefault(r.key, set()).add(r.value or "")
        elif r.kind == "phase":
            (phase_is if r.positive else phase_not).add(r.value or "")
        elif r.kind == "expr":
            results.setdefault(r.key, set()).add(r.value or "")
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
    if controller is not None and controller.status is not None:
        true_types = sorted(t for t, v in statuses.items() if v == {"True"})
        for i, a in enumerate(true_types):
            for b in true_types[i + 1 :]:
                if controller.status.never_true_together(a, b):
                    return f"the {controller.gvk()} controller never sets {a}=True and {b}=True together"
    return None


def implies(requirements: frozenset[Requirement], requirement: Requirement) -> bool:
    """Every object meeting ``requirements`` meets ``requirement``."""
    if requirement in requirements:
        return True
    if requirement.kind == "exists":
        return any(r.key == requirement.key and r.kind in ("cond", "reason", "exists") for r in requirements)
    if requirement.kind == "phase" and not requirement.positive:
        return any(r.kind == "phase" and r.positive and r.value != requirement.value for r in requirements)
    return False


def subsumes(general: Conjunction, specific: Conjunction) -> bool:
    """Every object ``specific`` matches is also matched by ``general``."""
    return all(implies(specific.requirements, r) for r in general.requirements)


def certain_overlap(
    a: Conjunction, b: Conjunction, controller: KindModel | None
) -> frozenset[Requirement] | None:
    """What an object both matchers certainly match has, or None when there is none or it is unknown."""
    if a.empty or b.empty or a.never or b.never:
        return None
    if a.opaque != b.opaque:  # an expression one of them needs could exclude the other's requirements
        return None
    union = a.requirements | b.requirements
    if conflict(union, controller) is not None:
        return None
    return union


def describe_object(requirements: frozenset[Requirement]) -> str:
    """An object that meets ``requirements``, in words (``conditions Complete=True and Failed=True``)."""
    reasons = {r.key: r.value for r in requirements if r.kind == "reason"}
    names = []
    for r in sorted(x for x in requirements if x.kind in ("cond", "exists")):
        reason = reasons.pop(r.key, None)
        text = r.describe() if r.kind == "cond" else r.key
        names.append(f"{text} (reason {reason})" if reason else text)
    names.extend(f"{key} with reason {value}" for key, value in sorted(reasons.items()))
    other = sorted(r for r in requirements if r.kind not in ("cond", "exists", "reason"))
    parts = []
    if names:
        joined = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append("conditions " + joined)
    parts.extend(r.describe() for r in other)
    return "; ".join(parts) if parts else "any object"
