"""The Karta field semantics: what each definition field needs its path to reach (FORMAT.md §2.3-§2.8), and
the checks of a path's result against it (the shape of its target, a replicas default, the fields of the
conditions, a suspend action's value, a byExpression's expected result)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.dataclass import dataclass
from wmaplint.definition.fields import shape_of
from wmaplint.findings import ExpressionFinding
from wmaplint.jq import ast as jqast
from wmaplint.jq.inference.findings import WRONG_PATH
from wmaplint.jq.inference.interpreter import infer
from wmaplint.jq.inference.values import TypeResult, enum_of
from wmaplint.jq.parser import try_parse
from wmaplint.schema.served import served
from wmaplint.schema.shapes import SHAPE_NAMES, is_open, object_variants, shape_ok
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
    UNION,
    SchemaType,
    variants,
)
from wmaplint.source import ScalarNode

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr

@dataclass(frozen=True)
class Expectation:
    """What a definition field needs from its path. ``shape``: the field's shape in the format's model of
    fields (``wmaplint.definition.fields``), or ``any``.

    ``type_field``/``status_field``: a conditions definition's field names; ``value``: a suspend action's JSON
    text; ``expected_result``: a byExpression's expected result.
    """

    shape: str = "any"
    field: str = ""
    type_field: str = "type"
    status_field: str = "status"
    value: str | None = None
    expected_result: str | None = None

    @classmethod
    def for_field(cls, field_name: str, **extra: Any) -> Expectation:
        return cls(shape_of(field_name), field_name, **extra)


def expectation_key(expr: Expr) -> str:
    """The name of an expression's field in the format's model (status and suspend paths, all written
    `path`, have names of their own there)."""
    return expr.format_field.name


def expectation_of(expr: Expr) -> Expectation:
    """What the field of a definition's expression needs, with what the definition says around it."""
    extra: dict[str, Any] = {}
    key = expectation_key(expr)
    if key == "conditionsPath" and expr.component and expr.component.status:
        cond = expr.component.status.conditions_node
        for name, attr in (("typeFieldName", "type_field"), ("statusFieldName", "status_field")):
            node = cond.get(name) if cond is not None else None
            if isinstance(node, ScalarNode) and isinstance(node.value, str) and node.value:
                extra[attr] = node.value
    elif key == "suspendPath":
        value = expr.holder.get("value") if expr.holder is not None else None
        if isinstance(value, ScalarNode) and isinstance(value.value, str):
            extra["value"] = value.value
    elif key == "expression":
        extra["expected_result"] = expr.expected_result
    return Expectation.for_field(key, **extra)


# -- what a result can be wrong about ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class WrongShape(ExpressionFinding):
    """The path of ``field`` reaches ``found`` (a type's description), not ``needed`` (a shape's name)."""

    field: str
    needed: str
    found: str

    @property
    def data(self) -> dict[str, Any]:
        return {"found": self.found}


@dataclass(frozen=True, slots=True, eq=False)
class ConditionsNotAList(ExpressionFinding):
    """The conditions path reaches ``found`` (a type's description), not a list."""

    found: str


@dataclass(frozen=True, slots=True, eq=False)
class ConditionsWithoutFields(ExpressionFinding):
    """The conditions lack the fields ``missing`` that the conditions definition names; ``valid``: the fields
    they have."""

    missing: tuple[str, ...]
    valid: tuple[str, ...]

    @property
    def data(self) -> dict[str, Any]:
        return {"valid": list(self.valid)}


@dataclass(frozen=True, slots=True, eq=False)
class ReplicasWithoutDefault(ExpressionFinding):
    """The replicas path of ``field`` reads a field that may be absent and gives no default."""

    field: str
    replacement: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class SuspendValueOutsideEnum(ExpressionFinding):
    """A suspend action's ``value`` (its JSON text), a string outside the field's enum ``allowed``."""

    value: str
    allowed: tuple[Any, ...]

    @property
    def data(self) -> dict[str, Any]:
        return {"valid": list(self.allowed)}


@dataclass(frozen=True, slots=True, eq=False)
class SuspendValueOfWrongType(ExpressionFinding):
    """A suspend action's ``value`` (its JSON text), of kind ``kind``, for a field of type ``field_type``."""

    value: str
    kind: str
    field_type: str

    @property
    def data(self) -> dict[str, Any]:
        return {"found": self.kind}


@dataclass(frozen=True, slots=True, eq=False)
class UnreachableExpectedResult(ExpressionFinding):
    """A byExpression's ``expected`` result, never one of the texts the expression prints (``possible``)."""

    expected: str
    possible: tuple[str, ...]

    @property
    def data(self) -> dict[str, Any]:
        return {"valid": list(self.possible)}


# -- the check -----------------------------------------------------------------------------------------------


def check_expression(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    *,
    source: str | None = None,
    object_meta: SchemaType | None = None,
) -> list[ExpressionFinding]:
    """The findings of ``text`` typed over ``input_type``, a whole object as the API server serves it (see
    ``wmaplint.schema.served``), and of its result against what its field needs.

    A jq syntax error gives no finding here (the jq checks report it). Results are remembered per expression,
    expectation and schema type (types are compared by identity; the schema store keeps them for its
    lifetime): an editor re-lints mostly unchanged expressions on every keystroke.
    """
    return list(_check_expression_cached(text, expected, input_type, source, object_meta))


@memo.lru_cache(maxsize=8192, pure=True)
def _check_expression_cached(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    source: str | None,
    object_meta: SchemaType | None,
) -> tuple[ExpressionFinding, ...]:
    return tuple(_check_expression(text, expected, input_type, source, object_meta))


def _check_expression(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    source: str | None,
    object_meta: SchemaType | None,
) -> list[ExpressionFinding]:
    node = try_parse(text)
    if not isinstance(node, jqast.Node):
        return []
    result = infer(node, served(input_type, object_meta), text=text, source=source, object_meta=object_meta)
    findings = list(result.findings)
    if any(isinstance(f, WRONG_PATH) for f in findings):
        return findings  # the path is already wrong; its type says nothing more
    t, shape = result.type, expected.shape
    if t.kind == UNION and not t.variants:
        return findings  # no output at all: nothing to say about its type
    end = len(text.rstrip())
    if shape in SHAPE_NAMES and not shape_ok(shape, t):
        findings.append(WrongShape(0, end, expected.field or "path", SHAPE_NAMES[shape], t.describe()))
    elif shape == "replicas" and expected.field == "replicasPath" and result.optional and not t.is_any:
        # a string field is never a count, with a default or not: that is another finding, with no `// 1` fix
        if not _built_in(input_type) and not t.kinds() <= {STRING, NULL}:
            findings.append(_replicas_default(text, node, expected))
    elif shape == "conditions":
        findings.extend(_conditions(t, expected, end))
    elif shape == "suspend" and expected.value is not None:
        findings.extend(_suspend(t, expected.value, end))
    elif shape == "by-expression" and expected.expected_result is not None:
        findings.extend(_expected_result(result, expected.expected_result, end))
    return findings


@memo.lru_cache(maxsize=2048, pure=True)
def reachable_defaults(text: str, input_type: SchemaType,
                       object_meta: SchemaType | None = None) -> frozenset[int]:
    """The offsets of the `//` of ``text`` whose right side can be what they yield over ``input_type``, a
    whole object as the API server serves it: their left side may be null, false or nothing there."""
    node = try_parse(text)
    if not isinstance(node, jqast.Node):
        return frozenset()
    return infer(node, served(input_type, object_meta), text=text, object_meta=object_meta).defaults


def _built_in(t: SchemaType) -> bool:
    """A kind the Kubernetes API itself serves: its API server fills defaults in code that the OpenAPI does
    not declare (a Deployment's replicas, a Job's parallelism), so an optional field there is not known to be
    absent."""
    return (t.ref or "").startswith("io.k8s.")


def _replicas_default(text: str, node: jqast.Node, expected: Expectation) -> ReplicasWithoutDefault:
    """The finding, with the usual default (one pod) as its fix."""
    return ReplicasWithoutDefault(0, len(text.rstrip()), expected.field, _with_default(text, node, "1"))


def with_default(text: str, default: str) -> str | None:
    """The replicas path ``text`` with ``// default`` given to the field it yields, inside any iteration
    (outside, it breaks the instance alignment); None where there is no one place for it."""
    node = try_parse(text)
    return _with_default(text, node, default) if isinstance(node, jqast.Node) else None


def _with_default(text: str, node: jqast.Node, default: str) -> str | None:
    last = node.right if isinstance(node, jqast.Pipe) else node
    if isinstance(last, jqast.Field) and last.target is not None and not isinstance(node, jqast.Pipe):
        base, name = text[last.start : last.seg_start], text[last.seg_start : last.end]
        if any(isinstance(n, jqast.Iterate) for n in jqast.walk(last.target)):
            return f"{base} | ({name} // {default})"
        return f"{text[: last.end]} // {default}"
    if isinstance(last, jqast.Field):
        return text[: last.start] + f"({text[last.start : last.end]} // {default})" + text[last.end :]
    if not isinstance(node, jqast.Pipe):
        return f"{text.strip()} // {default}"
    return None


def _conditions(t: SchemaType, expected: Expectation, end: int) -> list[ExpressionFinding]:
    if is_open(t):
        return []
    lists = [v for v in variants(t) if v.kind == ARRAY]
    if not lists:
        return [ConditionsNotAList(0, end, t.describe())]
    for lst in lists:
        items = lst.items or ANY
        if is_open(items):
            continue
        missing = [
            f
            for f in (expected.type_field, expected.status_field)
            if f and not any(f in v.properties or v.is_open_object() for v in object_variants(items))
        ]
        if missing:
            valid = sorted({p for v in object_variants(items) for p in v.properties})
            return [ConditionsWithoutFields(0, end, tuple(missing), tuple(valid))]
    return []


def _suspend(t: SchemaType, value_text: str, end: int) -> list[ExpressionFinding]:
    try:
        value = json.loads(value_text)
    except ValueError:
        return []  # invalid JSON is another rule's concern
    if is_open(t) or value is None:
        return []
    kinds = t.kinds()
    need = (
        BOOLEAN
        if isinstance(value, bool)
        else INTEGER
        if isinstance(value, int)
        else NUMBER
        if isinstance(value, float)
        else STRING
        if isinstance(value, str)
        else ARRAY
        if isinstance(value, list)
        else OBJECT
    )
    ok = need in kinds or (need == INTEGER and NUMBER in kinds)
    if ok and need == STRING:
        enum = enum_of(t)
        if enum is not None and value not in enum:
            return [SuspendValueOutsideEnum(0, end, value_text, enum)]
    if ok:
        return []
    return [SuspendValueOfWrongType(0, end, value_text, need, t.describe())]


def _expected_result(result: TypeResult, expected: str, end: int) -> list[ExpressionFinding]:
    t = result.type
    if t.is_any or any(v.kind == ANY_KIND for v in variants(t)):
        return []
    possible: set[str] = set()
    for v in variants(t):
        if v.kind == BOOLEAN:
            possible |= {"true", "false"}
        elif v.kind == NULL:
            possible.add("null")
        elif v.kind in (INTEGER, NUMBER):
            try:
                float(expected)
                return []
            except ValueError:
                continue
        elif v.kind == STRING:
            if v.enum is None:
                return []
            possible |= {str(e) for e in v.enum}
        else:
            return []  # objects and lists print as JSON: not worth guessing
    if result.optional:
        possible.add("null")
    if expected in possible:
        return []
    return [UnreachableExpectedResult(0, end, expected, tuple(sorted(possible)))]
