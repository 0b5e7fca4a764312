"""WM112 unknown-field: a field that the format does not have (often a misspelling)."""

from __future__ import annotations

from wmaplint.definition.fields import STATUS_KEYS
from wmaplint.definition.structure import UnknownKey
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source.edits import replace_scalar

RULE = define(
    "WM112", "unknown-field", "warning",
    "A field that the format does not have (often a misspelling).",
    why="kubectl refuses the definition: `--validate=strict`, its default since 1.27, has the API server "
    "reject unknown fields. With `--validate=warn` or `false`, and from clients that do not ask for strict "
    "validation, the API server prunes the field (at most with a warning), and the Go decoder of "
    "`kli validate` (non-strict sigs.k8s.io/yaml) ignores it. Either way a misspelled specDefinition, or a "
    "proposed status key such as pending, does nothing.",
    bad=job_with("specDefinition:", "specDefiniton:"),
    good=JOB,
    fix="Correct the spelling (the message suggests the closest field) or remove the field.",
)


@reports(RULE, UnknownKey)
def diagnostic(finding: UnknownKey) -> Diagnostic:
    if finding.pointer[-1:] == ("statusMappings",):
        message = (f"{finding.name!r} is not a status of the format (known: {', '.join(STATUS_KEYS)}); "
                   "kubectl's strict validation refuses it, the API server prunes it otherwise, and no "
                   "status maps to it")
    else:
        message = f"unknown field {finding.name!r} in {finding.where}"
    suggestions = list(finding.suggestions)
    if suggestions:
        message += f"; did you mean {suggestions[0]!r}?"
    found = finding.diagnostic(RULE, message)
    if suggestions:
        # no fix when the edit cannot be made safely, e.g. when the right key is there already
        found.fixes = tuple(fix(f"rename to {suggestions[0]}", replace_scalar(finding.key, suggestions[0])))
    found.data = {"suggestions": suggestions, "valid": list(finding.valid)}
    return found
