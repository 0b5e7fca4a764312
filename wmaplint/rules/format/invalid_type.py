"""WM110 invalid-type: a field has a value of the wrong type."""

from __future__ import annotations

from wmaplint.definition.structure import InvalidType
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode
from wmaplint.source.edits import replace_scalar

RULE = define(
    "WM110", "invalid-type", "error",
    "A field has a value of the wrong type.",
    why="The API server rejects the definition, and a non-string where a jq expression or a status value is "
    "expected (for example an unquoted true) is not what the runtime compares against.",
    bad=job_with('expectedResult: "true"', "expectedResult: true"),
    good=JOB,
    fix="Write the value with the expected type; quote values that must be strings (\"true\", \"1\").",
)

_TYPE_WORDS = {"string": "a string", "object": "a mapping", "array": "a list"}


def _kind_of(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    assert isinstance(node, ScalarNode)
    value = node.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({node.text})"
    if isinstance(value, (int, float)):
        return f"a number ({node.text})"
    return "a string"


@reports(RULE, InvalidType)
def diagnostic(finding: InvalidType) -> Diagnostic:
    node = finding.node
    message = f"{finding.where} must be {_TYPE_WORDS[finding.expected]}, not {_kind_of(node)}"
    found = finding.diagnostic(RULE, message)
    if finding.expected == "string" and isinstance(node, ScalarNode) and node.value is not None:
        found.message += f"; quote it: \"{node.text}\""
        found.fixes = tuple(fix("quote the value", replace_scalar(node, node.text)))
    return found
