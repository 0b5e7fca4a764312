"""WM440 expression-unknown-condition-type: a byExpression compares a condition type with a value the
controller never sets."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import job_with
from wmaplint.spelling import closest
from wmaplint.status.compared import compares_type, string_comparisons
from wmaplint.status.mappings import matchers, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

_EXPR = ("""'any(.status.conditions[]?; .type == "Complete" and .status == "True")'""")

RULE = define(
    "WM440", "expression-unknown-condition-type", "warning",
    "A byExpression compares a condition's type with a value the workload's controller never sets.",
    why="Condition types are compared exactly; a type the controller never writes (a typo, another "
    "framework's name) inside an expression makes it false, or true, for every object, so its status is "
    "never (or always) reported. The same type in byConditions is found by unknown-condition-type. Known "
    "types are the controller model's (schemas/controllers/, `status.conditions`, e.g. batch/v1 Job's "
    "Complete and Failed, kubernetes/kubernetes pkg/controller/job/job_controller.go); kinds whose list is "
    "not exhaustive are "
    "not checked.",
    bad=job_with("completed: [{byConditions: [{type: Complete, status: \"True\"}]}]",
                 "completed: [{byExpression: {expression: " + _EXPR.replace("Complete", "Completed")
                 + ", expectedResult: \"true\"}}]"),
    good=job_with("completed: [{byConditions: [{type: Complete, status: \"True\"}]}]",
                  "completed: [{byExpression: {expression: " + _EXPR + ", expectedResult: \"true\"}}]"),
    fix="Compare with a type the message lists (case matters).",
)


@definition_check(RULE)
def expression_unknown_condition_type(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    model = ctx.root_model
    facts = model.status if model is not None else None
    if found is None or model is None or facts is None or not facts.exhaustive:
        return
    _, status = found
    type_field = status.type_field or "type"
    path = status.conditions_path.text if status.conditions_path else ".status.conditions"
    conditions = re.sub(r"\s+", "", path)
    trees = {id(p.expr): p.tree for p in ctx.expressions}
    known = sorted(facts.conditions)
    for key, matcher in matchers(status):
        expr = matcher.expression
        tree = trees.get(id(expr)) if expr is not None else None
        if expr is None or tree is None or conditions.rstrip("[]?") not in re.sub(r"\s+", "", expr.text):
            continue
        for compared in string_comparisons(tree, expr.text):
            if not compares_type(tree, compared, type_field) or compared.value in facts.conditions:
                continue
            suggestion = closest(compared.value, known)
            message = (f"{key!r} compares the condition type with {compared.value!r}, which "
                       f"{model.gvk()} never sets (types: {', '.join(known) or 'none'}; "
                       f"{facts.source})")
            if suggestion:
                message += f"; did you mean {suggestion!r}?"
            yield ctx.diag(RULE, expr.node.span_of(compared.start, compared.end), message)
