"""WM307 suspend-value-type: a suspend or resume action writes a value the target field does not accept."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.jq.inference.facts import with_article
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import job_with
from wmaplint.rules.schema import typed_path_diagnostics
from wmaplint.typecheck.expectations import SuspendValueOfWrongType, SuspendValueOutsideEnum

RULE = define(
    "WM307", "suspend-value-type", "error",
    "A suspend or resume action writes a value the target field's type does not accept.",
    why="The value is decoded as JSON and written into the object; the API server rejects the update "
    "(for example the string \"yes\" into a boolean), so the workload can never be suspended.",
    bad=job_with("      statusDefinition:",
                 "      suspendDefinition:\n"
                 "        suspendActions: [{path: .spec.suspend, value: '\"yes\"'}]\n"
                 "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    good=job_with("      statusDefinition:",
                  "      suspendDefinition:\n"
                  "        suspendActions: [{path: .spec.suspend, value: 'true'}]\n"
                  "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    fix="Write a JSON value of the field's type (`true`, `0`, `\"Paused\"`, `null`).",
)


FACTS = (SuspendValueOutsideEnum, SuspendValueOfWrongType)


@definition_check(RULE)
def suspend_values(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    return typed_path_diagnostics(ctx, RULE, message, FACTS)


def message(fact: SuspendValueOutsideEnum | SuspendValueOfWrongType) -> str:
    if isinstance(fact, SuspendValueOutsideEnum):
        return f"value {fact.value} is not one of {', '.join(map(str, fact.allowed))}"
    return f"value {fact.value} is {with_article(fact.kind)} but the field is {with_article(fact.field_type)}"
