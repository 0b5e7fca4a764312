"""WM303 incompatible-operands: values of kinds that cannot be compared or combined meet in an operator."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import (
    ComparisonOfKinds,
    UncombinableOperands,
    ValueOutsideEnum,
    with_article,
)
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM303", "incompatible-operands", "warning",
    "Two values of types that cannot be compared or combined meet in an operator.",
    why="Values of different kinds never compare by value in jq: between an integer and a string `==` is "
    "always false, `!=` always true, and `<` or `>` follow the order of kinds (every number sorts before "
    "every string); adding them is an error. A status expression or replica formula built that way never "
    "does what it says.",
    bad=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0) > \"0\"'"),
    good=JOB,
    fix="Compare values of the same type (convert with tonumber or tostring if needed).",
)


@reports(RULE, ComparisonOfKinds)
@reports(RULE, ValueOutsideEnum)
@reports(RULE, UncombinableOperands)
def message(finding: ComparisonOfKinds | ValueOutsideEnum | UncombinableOperands) -> str:
    if isinstance(finding, ComparisonOfKinds):
        return (f"comparing {with_article(finding.left)} with {with_article(finding.right)}: `{finding.op}` "
                f"is {_type_order_outcome(finding.op)}")
    if isinstance(finding, ValueOutsideEnum):
        allowed = ", ".join(map(str, finding.allowed))
        return f"{finding.value!r} is not one of the values the schema allows ({allowed})"
    return f"`{finding.op}` cannot combine {with_article(finding.left)} and {with_article(finding.right)}"


def _type_order_outcome(op: str) -> str:
    """What comparing values of two different kinds gives: jq orders kinds (null < false < true < numbers <
    strings < arrays < objects) before values."""
    if op == "==":
        return "always false"
    if op == "!=":
        return "always true"
    return "decided by type order, not value"
