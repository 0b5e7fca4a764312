"""WM536 replicas-path-not-a-count: a replicas path reads a field that is not a replica count (a string such
as a name, a retry or history limit, a number of seconds)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.reading import counted_field
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import a, source_of
from wmaplint.rules.examples import JOB

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext
    from wmaplint.schema.types import SchemaType

RULE = define(
    "WM536", "replicas-path-not-a-count", "error",
    "A replicas path reads a field that is not a replica count: a string, a retry or history limit, seconds.",
    why="Replica paths size the tree, the GPU totals and the gangs. A string field (a name) is never a "
    "number, on any kind, and a default after it (`// 1`) does not make it one; an integer that limits "
    "retries or kept history, or counts seconds, has nothing to do with how many pods run. Which integer "
    "fields count replicas is the controller model's (schemas/controllers/, `fields`, e.g. batch/v1 Job "
    "`.spec.backoffLimit` is a retry limit, kubernetes/kubernetes staging/src/k8s.io/api/batch/v1/types.go); "
    "string fields are the kind's schema's.",
    bad=JOB.replace("replicasPath: '.spec.parallelism // 1'", "replicasPath: '.spec.backoffLimit // 6'"),
    good=JOB,
    fix="Read the field that counts the component's pods (the message lists them).",
)

WHAT = {"retry-limit": "a retry limit", "history-limit": "a history limit", "seconds": "a number of seconds",
        "limit": "a limit", "index": "an index", "other": "not a replica count"}


def _type_at(t: SchemaType, path: str) -> SchemaType | None:
    for part in path.removeprefix(".").replace("[]", ".[]").split("."):
        if not part:
            continue
        found = t.items if part == "[]" else t.member(part)
        if found is None:
            return None
        t = found
    return t


@definition_check(RULE)
def replicas_path_not_a_count(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    model = ctx.root_model
    counts = ", ".join(f.path for f in model.replica_count_fields()) if model is not None else ""
    instead = f"; the replica counts of {a(model.kind)} are {counts}" if model is not None and counts else ""
    schemas = ctx.schemas
    for component in ctx.definition.components:
        for name, expr in component.scale_paths.items():
            found = counted_field(expr.text)
            if found is None:
                continue
            path, start, end = found
            span = expr.node.span_of(start, end)
            known = model.integer_field(path) if model is not None else None
            if known is not None and not known.is_count:
                yield ctx.diag(RULE, span, f"{name} reads {path}, {WHAT.get(known.what, known.what)} of "
                                           f"{a(model.kind) if model else 'a workload'}, not a replica count"
                                           f"{instead} ({source_of(model, known.source) if model else ''})")
                continue
            if schemas is None or known is not None:
                continue
            from wmaplint.schema.served import served

            for root in schemas.roots:
                t = _type_at(served(root.type, schemas.object_meta), path)
                kinds = t.kinds() if t is not None and not t.is_any else frozenset()
                if "string" in kinds and kinds <= {"string", "null"}:
                    yield ctx.diag(RULE, span, f"{name} reads {path}, a string field, never a replica "
                                               f"count: a default after it does not make it one{instead}")
                    break
