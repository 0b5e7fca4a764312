"""WM535 suspend-writes-resume-value: a suspend action writes the value that resumes the workload (or a
resume action the value that suspends it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.controllers.paths import field_path
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import a, source_of
from wmaplint.rules.examples import JOB_SUSPENDABLE
from wmaplint.source import MappingNode, ScalarNode, SequenceNode

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM535", "suspend-writes-resume-value", "error",
    "A suspend action writes the value that resumes the workload, or a resume action the suspend value.",
    why="The platform suspends a workload by applying its suspend actions; one that writes the resume value "
    "(or the same value as the resume actions) leaves the workload running, and resuming does nothing. "
    "Which field suspends a kind and with which values is the controller model's (schemas/controllers/, "
    "`suspend`, e.g. batch/v1 Job `.spec.suspend: true`, kubernetes/kubernetes "
    "pkg/controller/job/job_controller.go).",
    bad=JOB_SUSPENDABLE.replace('suspendActions: [{path: .spec.suspend, value: "true"}]',
                                'suspendActions: [{path: .spec.suspend, value: "false"}]'),
    good=JOB_SUSPENDABLE,
    fix="Write the suspend value in suspendActions and the resume value in resumeActions.",
)

_MISSING = object()


def _json(text: object) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else _MISSING
    except ValueError:
        return _MISSING


def _actions(suspend: MappingNode, key: str) -> list[tuple[str, ScalarNode, Any]]:
    """(path as .a.b, the value node, the decoded value) of each action of the list ``key``."""
    found = []
    seq = suspend.get(key)
    for item in seq.items if isinstance(seq, SequenceNode) else []:
        if not isinstance(item, MappingNode):
            continue
        path, value = item.get("path"), item.get("value")
        if isinstance(path, ScalarNode) and isinstance(value, ScalarNode) and isinstance(path.value, str):
            plain = field_path(path.value)
            decoded = _json(value.value if isinstance(value.value, str) else value.text)
            if plain is not None and decoded is not _MISSING:
                found.append((plain, value, decoded))
    return found


@definition_check(RULE)
def suspend_writes_resume_value(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    root = ctx.definition.root
    if root is None or root.suspend_node is None:
        return
    suspends = _actions(root.suspend_node, "suspendActions")
    resumes = _actions(root.suspend_node, "resumeActions")
    model = ctx.root_model
    fact = model.suspend if model is not None else None
    known = fact is not None and fact.supported and fact.path and None not in (fact.suspend, fact.resume)
    if model is not None and fact is not None and known:
        on, off = _json(fact.suspend), _json(fact.resume)
        for actions, wrong, right, what in ((suspends, off, on, "suspend"), (resumes, on, off, "resume")):
            for path, node, value in actions:
                if path == fact.path and value == wrong and value != right:
                    yield ctx.diag(RULE, node, (
                        f"this {what} action writes {node.value} to {path}, which "
                        f"{'resumes' if what == 'suspend' else 'suspends'} {a(model.kind)}: the controller "
                        f"suspends on {fact.suspend} and resumes on {fact.resume} "
                        f"({source_of(model, fact.source)})"))
        return
    resumed = {(path, json.dumps(value, sort_keys=True)) for path, _, value in resumes}
    for path, node, value in suspends:
        if (path, json.dumps(value, sort_keys=True)) in resumed:
            message = (f"this suspend action writes {node.value} to {path}, the value a resume action "
                       "writes too: suspending and resuming leave the field the same")
            yield ctx.diag(RULE, node, message)
