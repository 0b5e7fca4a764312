"""Navigation in the type interpreter: fields, indexes and iteration, and what they find wrong (a field the
schema lacks, a scalar read as an object or a list, an optional list iterated without a guard)."""

from __future__ import annotations

from typing import Any

from wmaplint.jq import ast as jqast
from wmaplint.jq.inference import guards
from wmaplint.jq.inference.findings import (
    FieldOfNonObject,
    IndexOfScalar,
    IterationOfNonContainer,
    PrunedField,
    UnguardedIteration,
    UnknownField,
)
from wmaplint.jq.inference.values import ANY_VAL, Val, is_never, kinds, scalar_val
from wmaplint.jq.inference.walk import KeySpan, Walk
from wmaplint.schema.served import SERVED_FIELDS, served_member
from wmaplint.schema.types import (
    ANY,
    ANY_KIND,
    ARRAY,
    BOOLEAN,
    INTEGER,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    SchemaType,
    union,
    variants,
)
from wmaplint.spelling import suggestions


class Navigation:
    """Fields, indexes and iteration, for the walk ``it``."""

    __slots__ = ("it", "pruned")

    def __init__(self, it: Walk) -> None:
        self.it = it
        self.pruned: set[int] = set()  # ids of `metadata` types whose members the API server prunes

    def member(self, base: Val, name: str, node: jqast.Node | KeySpan, quiet: bool) -> Val:
        out = self._member(base, name, node, quiet)
        if self.it.recording is not None:
            self.it.recording.member(base, name, node, out)
        return out

    def _member(self, base: Val, name: str, node: jqast.Node | KeySpan, quiet: bool) -> Val:
        if base.is_any or is_never(base):
            return base
        results: list[SchemaType] = []
        optional = base.optional
        path = None if base.path is None else f"{base.path}.{name}" if base.path else name
        absent = base.absent
        missing_in: SchemaType | None = None
        non_object: list[str] = []
        for v in variants(base.type):
            if v.kind == ANY_KIND:
                return ANY_VAL
            if v.kind == OBJECT:
                t = self.object_member(v, name)
                if t is None:
                    missing_in = v
                    continue
                results.append(t)
                prop = v.properties.get(name)
                # a `spec` (the object's, a pod template's) is taken as present: an object without one runs
                # nothing, although the OpenAPI marks it optional; what it requires or defaults is there
                if prop is None or (name not in v.required and not prop.type.has_default and name != "spec"):
                    optional = True
                    absent = (path, "absent") if path is not None else absent
                elif t.nullable:
                    absent = (path, "null") if path is not None else absent
                if t.nullable:
                    optional = True
            elif v.kind == NULL:
                optional = True
            else:
                non_object.append(v.describe())
        if missing_in is not None and not results:
            self.unknown_field(missing_in, name, node)
            return ANY_VAL
        if non_object and not results and not quiet:
            start = getattr(node, "seg_start", node.start)
            self.it.record(FieldOfNonObject(start, node.end, name, tuple(non_object)))
        if not results:
            return Val(SchemaType(NULL), True) if not non_object else ANY_VAL
        return Val(union(*results), optional, path=path, absent=absent if optional else None)

    def object_member(self, parent: SchemaType, name: str) -> SchemaType | None:
        """Member ``name`` of an object type as the API server serves it: an embedded resource's `metadata` is
        ObjectMeta and its `apiVersion` and `kind` strings; a `metadata` declared as an object without
        properties elsewhere is pruned (its members are recorded as such)."""
        if parent.embedded_resource and name in SERVED_FIELDS:
            return served_member(self.it.object_meta, name)
        t = parent.member(name)
        closed_and_empty = t is not None and t.kind == OBJECT and not (t.properties or t.is_open_object())
        if name == "metadata" and closed_and_empty:
            self.pruned.add(id(t))
        return t

    def unknown_field(self, parent: SchemaType, name: str, node: jqast.Node | KeySpan) -> None:
        start = getattr(node, "name_start", node.start)
        end = getattr(node, "name_end", node.end)
        if id(parent) in self.pruned:
            self.it.record(PrunedField(start, end, name))
            return
        valid = sorted(parent.properties)
        suggested = suggestions(name, valid)
        deeper = [] if suggested else nested_paths(parent, name)
        replacement = None
        if self.it.text[start:end] == name:
            if len(deeper) == 1 and "[]" not in deeper[0]:
                replacement = self.it.text[:start] + deeper[0][1:] + self.it.text[end:]
            elif len(suggested) == 1:
                replacement = self.it.text[:start] + suggested[0] + self.it.text[end:]
        declared = (self.it.source, parent.line, parent.column) if parent.line is not None else None
        self.it.record(UnknownField(start, end, name, parent.ref, tuple(valid), tuple(suggested),
                                 tuple(deeper), declared, replacement))

    def index(self, base: Val, idx: Val, node: jqast.Index, quiet: bool) -> Val:
        if base.is_any or is_never(base):
            return base
        if idx.has_const and isinstance(idx.const, str):
            return self.member(base, idx.const, KeySpan(node), quiet)
        base_kinds = base.type.kinds()
        if STRING in base_kinds and kinds(idx) & {INTEGER, NUMBER}:
            return scalar_val(STRING)  # gojq indexes strings by character: `"abc"[1]` is "b" (C jq errors)
        if ARRAY in base_kinds:
            items = [v.items or ANY for v in variants(base.type) if v.kind == ARRAY]
            return Val(union(*items), True)  # an index past the end yields null
        if OBJECT in base_kinds:
            return self.iterate(base, node, True)
        if not quiet and base_kinds and base_kinds <= {STRING, INTEGER, NUMBER, BOOLEAN}:
            self.it.record(IndexOfScalar(node.seg_start, node.end, base.type.describe()))
        return ANY_VAL

    def iterate(self, base: Val, node: jqast.Node, quiet: bool) -> Val:
        if base.is_any or is_never(base):
            return base
        out: list[SchemaType] = []
        bad: list[str] = []
        for v in variants(base.type):
            if v.kind == ANY_KIND:
                return ANY_VAL
            if v.kind == ARRAY:
                out.append(v.items or ANY)
            elif v.kind == OBJECT:
                members = [p.type for p in v.properties.values()]
                if v.is_open_object():
                    members.append(v.additional or ANY)
                out.append(union(*members) if members else ANY)
            elif v.kind != NULL:
                bad.append(v.describe())
        if bad and not out and not quiet:
            start = getattr(node, "seg_start", node.start)
            self.it.record(IterationOfNonContainer(start, node.end, tuple(bad)))
        if not out:
            return ANY_VAL
        return Val(union(*out), path=None if base.path is None else base.path + "[]")

    def null_iteration(self, base: Val, node: jqast.Node, env: dict[str, Any]) -> None:
        """Iterating a value that is null when a field the schema does not require is absent, with no guard
        around it; `[]` can be fixed to `[]?`, which iterates nothing there."""
        absent, path = base.absent, base.path
        if not base.optional or absent is None or path is None:
            return
        if not any(v.kind in (ARRAY, OBJECT) for v in variants(base.type)) or guards.guarded(env, path):
            return
        where, how = absent
        if isinstance(node, jqast.Iterate):
            end = node.end
            fixed = self.it.text[:end] + "?" + self.it.text[end:]
            self.it.record(UnguardedIteration(node.seg_start, end, path, where, how, None, fixed))
        else:
            builtin = getattr(node, "name", "")
            end = getattr(node, "name_end", node.end)
            self.it.record(UnguardedIteration(node.start, end, path, where, how, builtin))


def nested_paths(parent: SchemaType, name: str, max_depth: int = 3, budget: int = 2000) -> list[str]:
    """Where a missing field does exist a few levels down (the RayJob `.spec.workerGroupSpecs` that lives
    under `.spec.rayClusterSpec`): the shallowest paths, breadth first, within a node budget."""
    frontier: list[tuple[SchemaType, str]] = [(parent, "")]
    for _ in range(max_depth):
        found: list[str] = []
        following: list[tuple[SchemaType, str]] = []
        for t, prefix in frontier:
            for v in variants(t):
                if v.kind == OBJECT:
                    for prop_name, prop in v.properties.items():
                        path = f"{prefix}.{prop_name}"
                        if prefix and prop_name == name:
                            found.append(path)
                        following.append((prop.type, path))
                elif v.kind == ARRAY and v.items is not None:
                    following.append((v.items, prefix + "[]"))
            if len(following) > budget:
                break
        if found:
            return sorted(set(found))[:3]
        frontier = following[:budget]
    return []
