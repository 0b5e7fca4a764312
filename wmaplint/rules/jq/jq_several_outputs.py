"""WM222 jq-several-outputs: an expression that must yield exactly one value can yield several."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import field_path
from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.names import resolve
from wmaplint.jq.parser import try_parse
from wmaplint.jq.streams import leak_description, leak_span, output_leaks
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.schema.shapes import is_open, object_variants
from wmaplint.schema.types import OBJECT, union, variants

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.jq.roles import ExprRole
    from wmaplint.rules.context import DefinitionContext
    from wmaplint.schema.types import SchemaType

RULE = define(
    "WM222",
    "jq-several-outputs",
    "warning",
    "An expression that must yield exactly one value can yield several (an iteration or `,`).",
    why="Pod selector id and replica paths, gang keys and filters must give exactly one value per pod (the "
    "runtime fails with `expected single query result`), and each spec or scale path of a component without "
    "`instanceIdPath` exactly one per object (`instance ids count (1) does not match results count`). An "
    "iteration over an object of which the operator's admission lets at most one of some keys be present "
    "(the controller model's `admission`, holds `one-of`), followed by a `select` that every other member of "
    "the object fails as its schema declares it, yields at most one: not reported (KServe admits exactly one "
    "predictor implementation on create and update, kserve/kserve@1fb7810 "
    "`pkg/apis/serving/v1beta1/inference_service_validation.go`, `component.go` "
    "`validateExactlyOneImplementation`, and only the implementations declare `storageUri`, so "
    "`.spec.predictor | .[]? | select(type == \"object\" and .storageUri)` yields one). A member the "
    "`select` reads a field of is taken to fail it where its schema declares no such field; a map's entries "
    "(labels, annotations) are the user's names, not fields, and are not counted.",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec.template, .spec.template'}"
    ),
    good=JOB,
    fix="Select one element (`[0]`, `first(...)`), or add `instanceIdPath` if the component really has "
    "several instances.",
    tags=("jq", "cardinality"),
)


def _one_value(role: ExprRole) -> bool:
    """Whether the role takes exactly one output: a field of one value, or a per-instance path of a component
    with one instance (no instanceIdPath)."""
    return role.cardinality == "one" or (role.cardinality == "per-instance" and not role.has_instances)


def _not_admitted_one(ctx: DefinitionContext, expr: Expr, finding: ExpressionDiagnostic) -> bool:
    """Whether the iteration found can yield several outputs in this definition: not where it iterates an
    object the workload's admission holds to one of some keys and a `select` drops every other member."""
    model = ctx.root_model
    one_of = [a for a in model.admission if a.holds == "one-of"] if model is not None else []
    roots = ctx.root_schema_types
    tree = try_parse(expr.text) if one_of and roots else None
    if not isinstance(tree, jqast.Node):
        return True
    found = _iterated_then_selected(tree, expr.text, finding)
    admitted = [a for a in one_of if found is not None and a.path == found[0]]
    if found is None or not admitted:
        return True
    path, condition = found
    # a source that declares nothing there (an open or pruned-down schema of the kind) says nothing of it
    typed = [t for t in (_type_at(root, path) for root in roots) if t is not None and not is_open(t)]
    return not typed or not all(_only_keys_pass(t, set(admitted[0].of), condition) for t in typed)


def _stages(node: jqast.Node) -> list[jqast.Node]:
    """``node`` as the stages of one pipeline (parentheses and nesting do not count)."""
    if isinstance(node, jqast.Pipe):
        return _stages(node.left) + _stages(node.right)
    return [node]


def _iterated_then_selected(tree: jqast.Node, text: str,
                            finding: ExpressionDiagnostic) -> tuple[str, jqast.Node] | None:
    """The plain path of the object the iteration found walks (``.spec.predictor`` in ``.spec.predictor |
    .[]? | select(c)``) and the condition of the builtin `select` right after it; None for any other shape."""
    stages = _stages(tree)
    for i, stage in enumerate(stages):
        if not (isinstance(stage, jqast.Iterate) and leak_span(stage) == (finding.start, finding.end)):
            continue
        head = [*stages[:i], *([stage.target] if stage.target is not None else [])]
        parts = [field_path(text[node.start : node.end]) for node in head]
        after = stages[i + 1] if i + 1 < len(stages) else None
        if (not head or any(p is None or "[]" in p for p in parts) or not isinstance(after, jqast.FuncCall)
                or after.name != "select" or len(after.args) != 1
                or resolve(tree).definition_of(after) is not None):
            return None
        return "".join(p for p in parts if p), after.args[0]
    return None


def _type_at(t: SchemaType, path: str) -> SchemaType | None:
    for name in path.removeprefix(".").split("."):
        found = [m for v in object_variants(t) if (m := v.member(name)) is not None]
        if not found:
            return None
        t = union(*found)
    return t


def _only_keys_pass(t: SchemaType, keys: set[str], condition: jqast.Node) -> bool:
    """Whether every member of the object of type ``t`` but ``keys`` fails ``condition``."""
    for v in object_variants(t):
        if v.preserve_unknown or (v.additional is not None and v.properties):
            return False  # members the schema does not name
        if any(name not in keys and not _fails(prop.type, condition)
               for name, prop in v.properties.items()):
            return False
    return bool(object_variants(t))


def _conjuncts(node: jqast.Node) -> list[jqast.Node]:
    if isinstance(node, jqast.Binary) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _objects_only(node: jqast.Node) -> bool:
    """``type == "object"``, either way round."""
    if not (isinstance(node, jqast.Binary) and node.op == "=="):
        return False
    sides = (node.left, node.right)
    return (any(isinstance(s, jqast.FuncCall) and s.name == "type" and not s.args for s in sides)
            and any(isinstance(s, jqast.Literal) and s.value == "object" for s in sides))


def _field_required(node: jqast.Node) -> str | None:
    """The field a conjunct needs to be there and not null or false: ``.f``, ``.f != null``, ``has("f")``."""
    if isinstance(node, jqast.Field) and node.target is None:
        return node.name
    if (isinstance(node, jqast.Binary) and node.op == "!=" and isinstance(node.right, jqast.Literal)
            and node.right.value is None):
        return _field_required(node.left)
    if (isinstance(node, jqast.FuncCall) and node.name == "has" and len(node.args) == 1
            and isinstance(node.args[0], jqast.Literal) and isinstance(node.args[0].value, str)):
        return node.args[0].value
    return None


def _fails(member: SchemaType, condition: jqast.Node) -> bool:
    """Whether every value of type ``member`` fails ``condition``, as far as its conjuncts tell: a value that
    is not an object fails a `type == "object"` read before any field; an object fails a field its schema
    does not declare (a map's entries are the user's names, not fields)."""
    conjuncts = _conjuncts(condition)
    guard = next((i for i, c in enumerate(conjuncts) if _objects_only(c)), None)
    fields = [(i, name) for i, c in enumerate(conjuncts) if (name := _field_required(c)) is not None]
    if guard is None and not fields:
        return False
    for v in variants(member):
        if v.kind != OBJECT:
            if guard is None or (fields and fields[0][0] < guard):
                return False  # reading a field of it first is an error, not a dropped member
            continue
        if v.preserve_unknown or not fields:
            return False
        if v.additional is not None and not v.properties:
            continue  # a map: an entry named like the field is data, not the field
        if all(name in v.properties for _, name in fields):
            return False
    return True


@expression_check(RULE, _one_value, confirm=_not_admitted_one)
def several_outputs(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    leaks = output_leaks(tree, resolve(tree).definition_of)
    if not leaks:
        return
    first = leaks[0]
    desc = leak_description(first, text)
    if role.cardinality == "per-instance":
        message = (
            f"{desc} can yield several outputs, but this component has no instanceIdPath, so exactly one is "
            "expected (the runtime reports `instance ids count (1) does not match results count`)"
        )
    else:
        message = f"{desc} can yield several outputs, but `{role.field}` must yield exactly one value"
    yield ExpressionDiagnostic(RULE.id, message, *leak_span(first))
