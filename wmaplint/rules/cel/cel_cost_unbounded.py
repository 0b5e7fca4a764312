"""WM608 cel-cost-unbounded: a validation rule is not run on an object its cost may pass the limits on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import ValidationRuleNotEvaluated
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check, reported, reports
from wmaplint.rules.examples import crd_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext


def _widget(count: int) -> str:
    """The example CRD, its rule looping over spec.sizes four deep, then a Widget with ``count`` sizes."""
    loops = "self.sizes.all(a, self.sizes.all(b, self.sizes.all(c, self.sizes.all(d, a <= b + c + d))))"
    sizes = "              sizes: {type: array, items: {type: integer}}\n"
    crd = crd_with(f"            - rule: {loops}\n", sizes)
    widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
    return f"{crd}---\n{widget}spec:\n  sizes: [{', '.join(['1'] * count)}]\n"


RULE = define(
    "WM608",
    "cel-cost-unbounded",
    "warning",
    "A validation rule was not evaluated: on this object its cost may pass the API server's runtime limits.",
    why="The API server counts the cost of every rule evaluation: one evaluation may cost at most 1,000,000, "
    "and all rules of one object share 10,000,000; past either it stops validating and rejects the object. "
    "wmaplint bounds each evaluation's cost before running it, with the cost model's rules and this "
    "object's real list, map and string sizes; a rule whose bound passes a limit is not run (nor, past the "
    "shared budget, any rule after it). The bound is an upper bound, so the server, counting actual costs, "
    "may still accept the object. The same finding reports a rule stopped by the evaluator wmaplint uses, "
    "which runs at most 10,000 loop iterations per evaluation (the API server has no such cap).",
    bad=_widget(32),
    good=_widget(8),
    fix="Make the lists the rule loops over shorter, or simplify the rule (no nested loops over one list); "
    "maxItems and maxLength in the schema let the server reject oversized objects up front.",
    tags=("cel", "crd", "cost"),
    example_mode="crd-object",
)


@reports(RULE, ValidationRuleNotEvaluated)
def message(finding: ValidationRuleNotEvaluated) -> str:
    return finding.message


@definition_check(RULE)
def karta_crd_rules(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.karta_crd import karta_crd_findings

    findings = ctx.shared(karta_crd_findings, ctx.path, ctx.document, ctx.definition, ctx.store)
    return reported(ValidationRuleNotEvaluated, findings)
