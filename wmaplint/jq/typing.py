"""Abstract interpretation of a jq AST over schema types: what an expression yields, and what is wrong.

``infer`` walks the expression with the *type* of its input instead of a value. Each step maps a type to
the type of its outputs (the union over the output stream); findings carry offsets into the expression.
Unknown stays ``any`` and never yields a finding: precision where the schema is known, silence elsewhere.

``check_expression`` adds what a definition field needs from its path (FORMAT.md §2.3-§2.8), recognising
Kubernetes types by their structure because CRDs inline them.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from wmaplint.jq import ast as A
from wmaplint.jq import guards
from wmaplint.jq.guards import null_tests, path_key, paths_in
from wmaplint.jq.parser import try_parse
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
    Property,
    SchemaType,
    union,
)
from wmaplint.structs import dataclass, field

try:
    from wmaplint.jq.findings import JqFinding
except ImportError:  # pragma: no cover - same shape, kept for a tree without the analysis module

    @dataclass(frozen=True)
    class JqFinding:  # type: ignore[no-redef]
        rule: str
        message: str
        start: int
        end: int
        severity: Any = None
        data: dict | None = None
        replacement: str | None = None


UNKNOWN_FIELD = "WM301"
NOT_ITERABLE = "WM302"
INCOMPATIBLE_OPERANDS = "WM303"
NON_BOOLEAN_CONDITION = "WM304"
OPTIONAL_WITHOUT_DEFAULT = "WM305"
WRONG_TARGET_TYPE = "WM306"
SUSPEND_VALUE_TYPE = "WM307"
UNREACHABLE_EXPECTED_RESULT = "WM308"

MAX_DEPTH = 300  # the parser bounds trees at 220 levels; this only guards against surprises
MAX_CALL_DEPTH = 8  # user-defined functions are inlined this deep, then ``any``


@dataclass(frozen=True, slots=True)
class Val:
    """The type of a stream of values; ``optional``: some output may be null because a field is absent.

    ``path``: where the values are, from the expression's input (see ``guards``), when reached by plain
    navigation. ``absent``: the deepest field on that path the schema lets be missing ("absent": neither
    required nor defaulted) or null ("null"), as (path, how); None when no schema field makes it so.
    """

    type: SchemaType
    optional: bool = False
    const: Any = None
    has_const: bool = False
    path: str | None = None
    absent: tuple[str, str] | None = None

    # Written out: an expression's typing makes one per step (wmaplint.structs).
    def __init__(self, type: SchemaType, optional: bool = False, const: Any = None, has_const: bool = False,
                 path: str | None = None, absent: tuple[str, str] | None = None) -> None:
        set_field = object.__setattr__
        set_field(self, "type", type)
        set_field(self, "optional", optional)
        set_field(self, "const", const)
        set_field(self, "has_const", has_const)
        set_field(self, "path", path)
        set_field(self, "absent", absent)

    @property
    def is_any(self) -> bool:
        return self.type.kind == ANY_KIND


ANY_VAL = Val(ANY)
# the type of a stream with no outputs (`empty`, `error`): a union of nothing, absorbed by any other type
NEVER = SchemaType(UNION, variants=())
NEVER_VAL = Val(NEVER)


def _is_never(v: Val) -> bool:
    return v.type.kind == UNION and not v.type.variants


def _solid(v: Val) -> Val:
    """``v``, or any for a stream without outputs (where a value is needed, e.g. list items)."""
    return ANY_VAL if _is_never(v) else v


def _scalar(kind: str, const: Any = None, has_const: bool = False) -> Val:
    return Val(SchemaType(kind), False, const, has_const)


@dataclass
class TypeResult:
    """What an expression yields (``type``, maybe-absent ``optional``) and what is wrong with it."""

    type: SchemaType
    optional: bool
    findings: list[JqFinding] = field(default_factory=list)

    @property
    def enum(self) -> tuple[Any, ...] | None:
        """The enum of the yielded strings when the schema declares one (phase values for status analysis)."""
        values: list[Any] = []
        for v in _variants(self.type):
            if v.kind == ANY_KIND or v.enum is None:
                return None
            values.extend(v.enum)
        return tuple(values) if values else None


def _narrow(v: Val, node: A.Node, tested: set[str]) -> Val:
    if v.optional and path_key(node) in tested:
        return Val(v.type, False, v.const, v.has_const)
    return v


def _variants(t: SchemaType) -> tuple[SchemaType, ...]:
    return t.variants if t.kind == UNION else (t,)


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _kinds(v: Val) -> frozenset[str]:
    k = v.type.kinds()
    if NUMBER in k or INTEGER in k:
        k = k | {NUMBER}
    return k | {NULL} if v.optional else k


def _nested_paths(parent: SchemaType, name: str, max_depth: int = 3, budget: int = 2000) -> list[str]:
    """Where a missing field does exist a few levels down (the RayJob `.spec.workerGroupSpecs` that lives
    under `.spec.rayClusterSpec`): the shallowest paths, breadth first, within a node budget."""
    frontier: list[tuple[SchemaType, str]] = [(parent, "")]
    for _ in range(max_depth):
        found: list[str] = []
        following: list[tuple[SchemaType, str]] = []
        for t, prefix in frontier:
            for v in _variants(t):
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


class _Interp:
    def __init__(self, text: str, source: str | None, object_meta: SchemaType | None = None) -> None:
        self.text = text
        self.source = source
        self.object_meta = object_meta
        self.findings: list[JqFinding] = []
        self._seen: set[tuple[str, int, int]] = set()
        self._pruned: set[int] = set()  # ids of `metadata` types whose members the API server prunes

    def report(
        self,
        rule: str,
        message: str,
        start: int,
        end: int,
        data: dict | None = None,
        replacement: str | None = None,
    ) -> None:
        key = (rule, start, end)
        if key in self._seen:  # functions and reduce bodies are visited more than once
            return
        self._seen.add(key)
        self.findings.append(JqFinding(rule, message, start, end, None, data, replacement))

    # -- the walk --------------------------------------------------------------------------------

    def eval(self, node: A.Node, inp: Val, env: dict[str, Any], depth: int = 0, quiet: bool = False) -> Val:
        if depth > MAX_DEPTH:
            return ANY_VAL
        d = depth + 1
        if isinstance(node, A.Identity):
            return inp
        if isinstance(node, A.Field):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            return self.member(base, node.name, node, quiet or node.optional)
        if isinstance(node, A.Index):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            idx = self.eval(node.index, inp, env, d, quiet)
            return self.index(base, idx, node, quiet or node.optional)
        if isinstance(node, A.Slice):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            return Val(base.type, base.optional)
        if isinstance(node, A.Iterate):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            if not (quiet or node.optional):
                self.null_iteration(base, node, env)
            return self.iterate(base, node, quiet or node.optional)
        if isinstance(node, A.Optional):
            return self.eval(node.term, inp, env, d, True)
        if isinstance(node, A.Try):
            body = self.eval(node.body, inp, env, d, True)
            if node.catch is not None:
                caught = self.eval(node.catch, ANY_VAL, env, d, quiet)
                return Val(union(body.type, caught.type), body.optional)
            return body
        if isinstance(node, A.Pipe):
            left = self.eval(node.left, inp, env, d, quiet)
            if _is_never(left):
                return left
            cond = guards.select_condition(node.left)
            if cond is not None:  # what follows `select(c) |` sees only inputs where c holds
                env = guards.proven(env, guards.tested_paths(cond), inp.path)
            return self.eval(node.right, left, env, d, quiet)
        if isinstance(node, A.Comma):
            left = self.eval(node.left, inp, env, d, quiet)
            right = self.eval(node.right, inp, env, d, quiet)
            return Val(union(left.type, right.type), left.optional or right.optional)
        if isinstance(node, A.Literal):
            return self.literal(node.value)
        if isinstance(node, (A.StringInterp, A.Format)):
            if isinstance(node, A.StringInterp):
                for part in node.parts:
                    if isinstance(part, A.Node):
                        self.eval(part, inp, env, d, quiet)
            return _scalar(STRING)
        if isinstance(node, A.Neg):
            self.eval(node.term, inp, env, d, quiet)
            return _scalar(NUMBER)
        if isinstance(node, A.Binary):
            return self.binary(node, inp, env, d, quiet)
        if isinstance(node, A.ArrayCons):
            items = _solid(self.eval(node.body, inp, env, d, quiet)).type if node.body is not None else ANY
            return Val(SchemaType(ARRAY, items=items))
        if isinstance(node, A.ObjectCons):
            return self.object(node, inp, env, d, quiet)
        if isinstance(node, A.FuncCall):
            return self.call(node, inp, env, d, quiet)
        if isinstance(node, A.VarRef):
            bound = env.get("$" + node.name)
            return bound if isinstance(bound, Val) else ANY_VAL
        if isinstance(node, A.Bind):
            src = self.eval(node.source, inp, env, d, quiet)
            inner = dict(env)
            for pattern in node.patterns:
                self.bind(pattern, src, inner)
            return self.eval(node.body, inp, inner, d, quiet)
        if isinstance(node, (A.Reduce, A.Foreach)):
            src = self.eval(node.source, inp, env, d, quiet)
            inner = dict(env)
            self.bind(node.pattern, src, inner)
            state = self.eval(node.init, inp, env, d, quiet)
            updated = self.eval(node.update, state, inner, d, quiet)
            # one more round: the state after an update feeds the next update
            again = self.eval(node.update, Val(union(state.type, updated.type)), inner, d, quiet)
            result = Val(union(state.type, updated.type, again.type))
            if isinstance(node, A.Foreach) and node.extract is not None:
                return self.eval(node.extract, result, inner, d, quiet)
            return result
        if isinstance(node, A.If):
            return self.if_(node, inp, env, d, quiet)
        if isinstance(node, A.FuncDef):
            inner = dict(env)
            inner[f"{node.name}/{len(node.params)}"] = (node, env)
            inner[f"{node.name}/{len(node.params)}"] = (node, inner)  # recursive definitions see themselves
            return self.eval(node.rest, inp, inner, d, quiet) if node.rest is not None else inp
        if isinstance(node, A.Label):
            return self.eval(node.body, inp, env, d, quiet)
        if isinstance(node, A.Import):
            rest = getattr(node, "rest", None)
            return self.eval(rest, inp, env, d, quiet) if isinstance(rest, A.Node) else ANY_VAL
        for child in A.children(node):  # Assign, RecurseDefault, Break...: visit for findings, yield any
            if not isinstance(child, (A.VarPattern, A.ArrayPattern, A.ObjectPattern)):
                self.eval(child, inp, env, d, quiet)
        return ANY_VAL

    # -- navigation -----------------------------------------------------------------------------

    def member(self, base: Val, name: str, node: A.Node | _KeySpan, quiet: bool) -> Val:
        if base.is_any or _is_never(base):
            return base
        results: list[SchemaType] = []
        optional = base.optional
        path = None if base.path is None else f"{base.path}.{name}" if base.path else name
        absent = base.absent
        missing_in: SchemaType | None = None
        non_object: list[str] = []
        for v in _variants(base.type):
            if v.kind == ANY_KIND:
                return ANY_VAL
            if v.kind == OBJECT:
                t = self.object_member(v, name)
                if t is None:
                    missing_in = v
                    continue
                results.append(t)
                prop = v.properties.get(name)
                # WM309 takes a `spec` (the object's, a pod template's) as present: an object without one runs
                # nothing, although the OpenAPI marks it optional
                if prop is None or (name not in v.required and not prop.type.has_default):
                    optional = True
                    absent = (path, "absent") if path is not None and name != "spec" else absent
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
            self.report(
                NOT_ITERABLE, f"cannot read field {name!r} of {_a(' or '.join(non_object))}", start, node.end
            )
        if not results:
            return Val(SchemaType(NULL), True) if not non_object else ANY_VAL
        return Val(union(*results), optional, path=path, absent=absent if optional else None)

    def object_member(self, parent: SchemaType, name: str) -> SchemaType | None:
        """Member ``name`` of an object type as the API server serves it: an embedded resource's `metadata` is
        ObjectMeta and its `apiVersion` and `kind` strings; a `metadata` declared as an object without
        properties elsewhere is pruned (its members are reported as such)."""
        if parent.embedded_resource and name in _SERVED:
            return (self.object_meta or ANY) if name == "metadata" else SchemaType(STRING)
        t = parent.member(name)
        closed_and_empty = t is not None and t.kind == OBJECT and not (t.properties or t.is_open_object())
        if name == "metadata" and closed_and_empty:
            self._pruned.add(id(t))
        return t

    def unknown_field(self, parent: SchemaType, name: str, node: A.Node | _KeySpan) -> None:
        if id(parent) in self._pruned:
            self.pruned_field(name, node)
            return
        valid = sorted(parent.properties)
        suggestions = difflib.get_close_matches(name, valid, n=3, cutoff=0.6)
        if not suggestions:
            lowered = {v.lower(): v for v in valid}
            if name.lower() in lowered:
                suggestions = [lowered[name.lower()]]
        start = getattr(node, "name_start", node.start)
        end = getattr(node, "name_end", node.end)
        where = f" of {parent.ref}" if parent.ref else ""
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        data: dict[str, Any] = {"suggestions": suggestions, "valid": valid}
        if parent.line is not None:
            data["declared"] = {"file": self.source, "line": parent.line, "column": parent.column}
        deeper = [] if suggestions else _nested_paths(parent, name)
        if deeper:
            data["nested"] = deeper
            hint = f"; it exists deeper, at {' and '.join(repr(p) for p in deeper)} below this object"
        message = f"field {name!r} does not exist in the schema{where}{hint}"
        replacement = None
        if len(deeper) == 1 and "[]" not in deeper[0] and self.text[start:end] == name:
            replacement = self.text[:start] + deeper[0][1:] + self.text[end:]
        elif len(suggestions) == 1 and self.text[start:end] == name:
            replacement = self.text[:start] + suggestions[0] + self.text[end:]
        self.report(UNKNOWN_FIELD, message, start, end, data, replacement)

    def pruned_field(self, name: str, node: A.Node | _KeySpan) -> None:
        start = getattr(node, "name_start", node.start)
        end = getattr(node, "name_end", node.end)
        self.report(
            UNKNOWN_FIELD,
            f"field {name!r} never reaches the cluster: the schema declares this `metadata` as an object "
            "without properties, and the API server prunes every field under it when the object is written, "
            "so the path yields null (controller-gen writes template metadata this way unless its "
            "generateEmbeddedObjectMeta option is on)",
            start,
            end,
            {"pruned": True},
        )

    def index(self, base: Val, idx: Val, node: A.Index, quiet: bool) -> Val:
        if base.is_any or _is_never(base):
            return base
        if idx.has_const and isinstance(idx.const, str):
            return self.member(base, idx.const, _KeySpan(node, self.text), quiet)
        kinds = base.type.kinds()
        if STRING in kinds and _kinds(idx) & {INTEGER, NUMBER}:
            return _scalar(STRING)  # gojq indexes strings by character: `"abc"[1]` is "b" (C jq errors)
        if ARRAY in kinds:
            items = [v.items or ANY for v in _variants(base.type) if v.kind == ARRAY]
            return Val(union(*items), True)  # an index past the end yields null
        if OBJECT in kinds:
            return self.iterate(base, node, True)
        if not quiet and kinds and kinds <= {STRING, INTEGER, NUMBER, BOOLEAN}:
            self.report(NOT_ITERABLE, f"cannot index {_a(base.type.describe())}", node.seg_start, node.end)
        return ANY_VAL

    def iterate(self, base: Val, node: A.Node, quiet: bool) -> Val:
        if base.is_any or _is_never(base):
            return base
        out: list[SchemaType] = []
        bad: list[str] = []
        for v in _variants(base.type):
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
            self.report(NOT_ITERABLE, f"cannot iterate over {_a(' or '.join(bad))}", start, node.end)
        if not out:
            return ANY_VAL
        return Val(union(*out), path=None if base.path is None else base.path + "[]")

    def null_iteration(self, base: Val, node: A.Node, env: dict[str, Any]) -> None:
        """WM309: iterating a value that is null when a field the schema does not require is absent, with no
        guard around it."""
        absent, path = base.absent, base.path
        if not base.optional or absent is None or path is None:
            return
        if not any(v.kind in (ARRAY, OBJECT) for v in _variants(base.type)) or guards.guarded(env, path):
            return
        found = guards.finding(self.text, node, path, absent)
        self.report(found.rule, found.message, found.start, found.end, found.data, found.replacement)

    # -- values and operators -------------------------------------------------------------------

    def literal(self, value: Any) -> Val:
        if value is None:
            return Val(SchemaType(NULL), False, None, True)
        if isinstance(value, bool):
            return _scalar(BOOLEAN, value, True)
        if isinstance(value, int):
            return _scalar(INTEGER, value, True)
        if isinstance(value, float):
            return _scalar(NUMBER, value, True)
        if isinstance(value, str):
            t = SchemaType(STRING, enum=(value,))
            return Val(t, False, value, True)
        return ANY_VAL

    def object(self, node: A.ObjectCons, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        t = SchemaType(OBJECT)
        for entry in node.entries:
            key = entry.key
            value = (
                self.eval(entry.value, inp, env, d, quiet)
                if entry.value is not None
                else self.eval(key, inp, env, d, quiet)
                if entry.key_kind == "var"
                else None
            )
            named = entry.key_kind in ("ident", "string")
            if named and isinstance(key, A.Literal) and isinstance(key.value, str):
                if value is None:  # shorthand {a}: .a of the input
                    value = self.member(inp, key.value, key, quiet)
                t.properties[key.value] = Property(key.value, value.type)
                if not value.optional:
                    t.required = t.required | {key.value}
            else:
                if entry.key_kind == "expr":
                    self.eval(key, inp, env, d, quiet)
                t.additional = ANY
        return Val(t)

    def binary(self, node: A.Binary, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        left = self.eval(node.left, inp, env, d, quiet)
        right_env = env
        if node.op in ("and", "or"):  # the right side runs only where the left holds (and), or fails (or)
            right_env = guards.proven(env, guards.tested_paths(node.left), inp.path)
        right = self.eval(node.right, inp, right_env, d, quiet)
        op = node.op
        if op == "//":
            lt = [v for v in _variants(left.type) if v.kind != NULL]
            return Val(union(*lt, right.type) if lt else right.type, right.optional)
        if op in ("and", "or"):
            self.condition(left, node.left)
            self.condition(right, node.right)
            return _scalar(BOOLEAN)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            self.comparable(left, right, node)
            return _scalar(BOOLEAN)
        return self.arithmetic(op, left, right, node)

    def comparable(self, left: Val, right: Val, node: A.Binary) -> None:
        if left.is_any or right.is_any:
            return
        lk, rk = _kinds(left) - {NULL}, _kinds(right) - {NULL}
        if ANY_KIND in lk or ANY_KIND in rk or not lk or not rk or lk & rk:
            if node.op in ("==", "!=") and left.has_const != right.has_const:
                typed, const = (left, right) if right.has_const else (right, left)
                self.enum_mismatch(typed, const, node)
            return
        self.report(
            INCOMPATIBLE_OPERANDS,
            f"comparing {_a(left.type.describe())} with {_a(right.type.describe())}: "
            f"`{node.op}` is "
            f"{_type_order_outcome(node.op)}",
            node.start,
            node.end,
        )

    def enum_mismatch(self, typed: Val, const: Val, node: A.Binary) -> None:
        enum = TypeResult(typed.type, typed.optional).enum
        if enum is not None and typed.type.kind == STRING and const.const not in enum:
            self.report(
                INCOMPATIBLE_OPERANDS,
                f"{const.const!r} is not one of the values the schema allows ({', '.join(map(str, enum))})",
                node.right.start if const is not typed else node.left.start,
                node.end,
                {"valid": list(enum)},
            )

    def arithmetic(self, op: str, left: Val, right: Val, node: A.Binary) -> Val:
        if left.is_any or right.is_any:
            return ANY_VAL
        lk, rk = _kinds(left) - {NULL}, _kinds(right) - {NULL}
        if ANY_KIND in lk or ANY_KIND in rk:
            return ANY_VAL
        numeric = {INTEGER, NUMBER}
        if op == "+":
            if not lk:
                return right
            if not rk:
                return left
            if lk & rk:
                common = lk & rk
                if common <= numeric:
                    return _scalar(
                        INTEGER
                        if INTEGER in lk
                        and INTEGER in rk
                        and NUMBER not in (left.type.kinds() | right.type.kinds())
                        else NUMBER
                    )
                return left
        elif op == "-":
            if (lk | rk) <= numeric or (lk == {ARRAY} and rk == {ARRAY}):
                return left if lk == {ARRAY} else _scalar(NUMBER)
            if lk & rk & numeric:
                return _scalar(NUMBER)
        elif op == "*":
            if lk & numeric and rk & numeric:
                return _scalar(NUMBER)
            if (STRING in lk and rk & numeric) or (STRING in rk and lk & numeric):
                return _scalar(STRING)
            if OBJECT in lk and OBJECT in rk:
                return left
        elif op == "/":
            if lk & numeric and rk & numeric:
                return _scalar(NUMBER)
            if STRING in lk and STRING in rk:
                return Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        elif op == "%":
            if lk & numeric and rk & numeric:
                return _scalar(INTEGER)
        else:
            return ANY_VAL
        if not lk or not rk:
            return ANY_VAL
        self.report(
            INCOMPATIBLE_OPERANDS,
            f"`{op}` cannot combine {_a(left.type.describe())} and {_a(right.type.describe())}",
            node.start,
            node.end,
        )
        return ANY_VAL

    def condition(self, cond: Val, node: A.Node) -> None:
        """A value used as a condition; only a value that is never boolean and never absent is suspicious
        (``select(.optionalField)`` is the usual existence test)."""
        if cond.is_any or cond.optional or _is_never(cond):
            return
        kinds = cond.type.kinds()
        if ANY_KIND in kinds or BOOLEAN in kinds or NULL in kinds:
            return
        self.report(
            NON_BOOLEAN_CONDITION,
            f"condition is {_a(cond.type.describe())}, never a boolean: it is always true",
            node.start,
            node.end,
        )

    def if_(self, node: A.If, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        # A branch returning a path its conditions already tested (`if (.a // 0) == 0 then 1 else .a end`) is
        # taken only when that path has a value: it is not counted as optional.
        branches = []
        tested: set[str] = set()
        guarding: set[str] = set()
        for cond, then in ((node.cond, node.then), *node.elifs):
            self.condition(self.eval(cond, inp, env, d, quiet), cond)
            tested |= paths_in(cond)
            guarding |= guards.tested_paths(cond)
            inner = guards.proven(env, guarding - null_tests(cond), inp.path)
            branches.append(_narrow(self.eval(then, inp, inner, d, quiet), then, tested - null_tests(cond)))
        if node.else_ is not None:
            inner = guards.proven(env, guarding, inp.path)
            branches.append(_narrow(self.eval(node.else_, inp, inner, d, quiet), node.else_, tested))
        else:
            branches.append(inp)
        live = [b for b in branches if not _is_never(b)]
        if not live:
            return NEVER_VAL
        return Val(union(*(b.type for b in live)), any(b.optional for b in live))

    def bind(self, pattern: A.Node, value: Val, env: dict[str, Any]) -> None:
        if isinstance(pattern, A.VarPattern):
            env["$" + pattern.name] = value
            return
        for sub in A.walk(pattern):  # destructuring: the parts are not tracked
            if isinstance(sub, A.VarPattern):
                env["$" + sub.name] = ANY_VAL
            elif isinstance(sub, A.ObjectPatternEntry) and sub.var:
                env["$" + sub.var] = ANY_VAL

    # -- functions ------------------------------------------------------------------------------

    def call(self, node: A.FuncCall, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        name, args = node.name, node.args
        user = env.get(f"{name}/{len(args)}")
        if isinstance(user, tuple):
            return self.user_call(user, node, inp, env, d, quiet)
        if user is None and f"{name}/{len(args)}" in env:  # a filter parameter: its body is not tracked
            return ANY_VAL
        arg = lambda i, v=inp: self.eval(args[i], v, env, d, quiet)  # noqa: E731
        arity = len(args)
        if name == "select" and arity == 1:
            self.condition(arg(0), args[0])
            return inp
        if name in ("empty", "error", "halt", "halt_error"):
            for i in range(arity):
                arg(i)
            return NEVER_VAL
        if name in _ELEMENT_ARGS and arity == 1:  # the argument runs on each element of the input
            if not quiet and name in _ITERATES_INPUT:
                self.null_iteration(inp, node, env)
            item = self.iterate(inp, node, quiet)
            out = arg(0, item)
            if name in ("any", "all"):
                self.condition(out, args[0])
                return _scalar(BOOLEAN)
            if name == "map":
                return Val(SchemaType(ARRAY, items=_solid(out).type))
            if name in ("min_by", "max_by"):
                return Val(item.type) if not _is_never(item) else item
            if name == "group_by":
                return Val(SchemaType(ARRAY, items=inp.type))
            if name == "INDEX":
                return Val(SchemaType(OBJECT, additional=item.type))
            return Val(inp.type)  # map_values, sort_by, unique_by keep the input's shape
        if name in ("any", "all") and arity == 2:  # any(generator; condition)
            gen = arg(0)
            self.condition(arg(1, gen), args[1])
            return _scalar(BOOLEAN)
        if name == "with_entries" and arity == 1:
            arg(0, self._entry(inp))
            return Val(SchemaType(OBJECT, additional=ANY))
        if name == "to_entries" and not args:
            return Val(SchemaType(ARRAY, items=self._entry(inp).type))
        if name in ("first", "last", "min", "max", "add") and not args:
            # null only for an empty list: a definition's lists are built with elements, so not "optional"
            return Val(self.iterate(inp, node, True).type)
        if name in ("first", "last") and arity == 1 or name in ("limit", "nth", "skip") and arity == 2:
            for i in range(arity - 1):
                arg(i)
            return arg(arity - 1)
        if name == "nth" and arity == 1:
            arg(0)
            return Val(self.iterate(inp, node, True).type, True)
        if name in _TYPE_SELECTORS and not args:
            return _select_kinds(inp, _TYPE_SELECTORS[name])
        if name in ("keys", "keys_unsorted") and not args:
            key = SchemaType(INTEGER) if inp.type.kinds() == {ARRAY} else SchemaType(STRING)
            return Val(SchemaType(ARRAY, items=key))
        if name in ("split", "splits") and args:
            for i in range(arity):
                arg(i)
            return _scalar(STRING) if name == "splits" else Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        if name in ("sub", "gsub") and arity >= 2:  # the replacement runs on the object of named captures
            arg(0)
            self.eval(args[1], ANY_VAL, env, d, True)
            for i in range(2, arity):
                arg(i)
            return _scalar(STRING)
        if name in _ANY_INPUT_ARGS:  # arguments run on values the analysis does not follow (walk, recurse...)
            for a in args:
                self.eval(a, ANY_VAL, env, d, True)
            return ANY_VAL if name not in ("debug", "stderr") else inp
        result = _RESULTS.get(name)
        if result is None:  # not a gojq builtin (or not one this table knows): its arguments stay unchecked
            for a in args:
                self.eval(a, ANY_VAL, env, d, True)
            return ANY_VAL
        for i in range(arity):
            arg(i)
        if result == "input":
            return inp
        if result == "list-of-input":
            return Val(SchemaType(ARRAY, items=inp.type))
        if result == "object":
            return Val(SchemaType(OBJECT, additional=ANY))
        if result == "strings":
            return Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        if result == "integers":
            return Val(SchemaType(ARRAY, items=SchemaType(INTEGER)))
        if result == ANY_KIND:
            return ANY_VAL
        return _scalar(result)

    def _entry(self, inp: Val) -> Val:
        value = self.iterate(inp, _NoSpan, True).type
        key = SchemaType(INTEGER) if inp.type.kinds() == {ARRAY} else SchemaType(STRING)
        t = SchemaType(OBJECT, required=frozenset({"key", "value"}))
        t.properties = {
            "key": Property("key", key),
            "value": Property("value", value),
            "name": Property("name", key),
            "k": Property("k", key),
            "v": Property("v", value),
        }
        return Val(t)

    def user_call(
        self,
        user: tuple[A.FuncDef, dict[str, Any]],
        node: A.FuncCall,
        inp: Val,
        env: dict[str, Any],
        d: int,
        quiet: bool,
    ) -> Val:
        fdef, def_env = user
        calls = env.get("#calls", 0)
        if calls >= MAX_CALL_DEPTH:
            return ANY_VAL
        inner = dict(def_env)
        inner["#calls"] = calls + 1
        for param, argument in zip(fdef.params, node.args, strict=False):
            if param.startswith("$"):
                inner[param] = self.eval(argument, inp, env, d, quiet)
            else:  # filter parameters: not tracked, calls to them yield any
                inner[f"{param}/0"] = None
        return self.eval(fdef.body, inp, inner, d, quiet)


# builtins whose single argument runs on each element (or member value) of the input
_ELEMENT_ARGS = frozenset(
    {"any", "all", "map", "map_values", "min_by", "max_by", "sort_by", "group_by", "unique_by", "INDEX"}
)
# those gojq defines over `.[]` (builtin.jq), so that a null input stops them (map_values goes through paths)
_ITERATES_INPUT = _ELEMENT_ARGS - {"map_values"}
# builtins whose arguments run on values this analysis does not follow: they are evaluated over any
_ANY_INPUT_ARGS = frozenset(
    {
        "walk",
        "paths",
        "recurse",
        "until",
        "while",
        "repeat",
        "fromstream",
        "truncate_stream",
        "JOIN",
        "INDEX",
        "debug",
        "stderr",
        "leaf_paths",
    }
)
_NUMERIC = frozenset({NUMBER, INTEGER})
_TYPE_SELECTORS: dict[str, frozenset[str]] = {
    "values": frozenset({OBJECT, ARRAY, STRING, NUMBER, INTEGER, BOOLEAN}),
    "nulls": frozenset({NULL}),
    "booleans": frozenset({BOOLEAN}),
    "numbers": _NUMERIC,
    "finites": _NUMERIC,
    "normals": _NUMERIC,
    "strings": frozenset({STRING}),
    "arrays": frozenset({ARRAY}),
    "objects": frozenset({OBJECT}),
    "iterables": frozenset({ARRAY, OBJECT}),
    "scalars": frozenset({STRING, NUMBER, INTEGER, BOOLEAN, NULL}),
}
_MATH = (
    "floor ceil round sqrt fabs pow log exp abs sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh "
    "nearbyint rint trunc significand cbrt exp10 exp2 expm1 log10 log1p log2 logb gamma tgamma lgamma erf "
    "erfc j0 j1 y0 y1 atan2 copysign drem fdim fmax fmin fmod hypot jn nextafter nexttoward remainder "
    "ldexp scalb scalbln yn fma infinite nan"
)
# what the other builtins yield (their arguments run on the input): a kind, or one of the words below
_RESULTS: dict[str, str] = {
    **dict.fromkeys(
        "any all not has in contains inside startswith endswith test isempty IN isinfinite isnan isnormal "
        "isfinite toboolean".split(),
        BOOLEAN,
    ),
    **dict.fromkeys(
        "tostring tojson ascii_downcase ascii_upcase ltrimstr rtrimstr trimstr trim ltrim rtrim join implode "
        "todate todateiso8601 strftime strflocaltime format type".split(),
        STRING,
    ),
    **dict.fromkeys(f"tonumber fromdate fromdateiso8601 mktime now range {_MATH}".split(), NUMBER),
    **dict.fromkeys("length utf8bytelength bsearch".split(), INTEGER),
    **dict.fromkeys("sort unique reverse del pick setpath delpaths".split(), "input"),
    **dict.fromkeys("from_entries env".split(), "object"),
    "explode": "integers",
    "builtins": "strings",
    **dict.fromkeys(
        "getpath path fromjson input inputs tostream transpose flatten combinations index rindex indices "
        "match capture scan gmtime localtime strptime frexp modf add input_filename modulemeta "
        "input_line_number ascii".split(),
        ANY_KIND,
    ),
}


def _type_order_outcome(op: str) -> str:
    """What comparing values of two different kinds gives: jq orders kinds (null < false < true < numbers <
    strings < arrays < objects) before values."""
    if op == "==":
        return "always false"
    if op == "!=":
        return "always true"
    return "decided by type order, not value"


def _select_kinds(inp: Val, kinds: frozenset[str]) -> Val:
    """``values``, ``strings``...: keep the variants of the selected kinds; nothing else passes."""
    if inp.is_any or _is_never(inp):
        return inp
    kept = [v for v in _variants(inp.type) if v.kind == ANY_KIND or v.kind in kinds]
    may_be_null = NULL in kinds and (inp.optional or NULL in inp.type.kinds())
    if not kept:
        return Val(SchemaType(NULL), True) if may_be_null else NEVER_VAL
    return Val(union(*kept), may_be_null)


class _KeySpan:
    """Span of the key of ``.["key"]`` for unknown-field findings (inside the quotes)."""

    def __init__(self, node: A.Index, text: str) -> None:
        self.start = node.index.start
        self.end = node.index.end
        self.name_start, self.name_end = self.start, self.end
        self.seg_start = node.seg_start


class _NoSpanType:
    start = end = seg_start = 0


_NoSpan: Any = _NoSpanType()


def infer(
    node: A.Node,
    input_type: SchemaType,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    text: str = "",
    source: str | None = None,
    object_meta: SchemaType | None = None,
) -> TypeResult:
    """Evaluate ``node`` over ``input_type``.

    ``roots``: variables bound before the expression (``{"$root": type}``), each a SchemaType.
    ``text``: the expression text (for replacements); ``source``: the schema file, for "declared here" data.
    ``object_meta``: Kubernetes' ObjectMeta, the `metadata` of embedded resources (unknown when None).
    """
    interp = _Interp(text, source, object_meta)
    env: dict[str, Any] = {k if k.startswith("$") else "$" + k: Val(v) for k, v in (roots or {}).items()}
    result = interp.eval(node, Val(input_type, path=""), env)
    return TypeResult(result.type, result.optional, interp.findings)


# -- what definition fields need ---------------------------------------------------------------------------

# field name -> shape the path must reach (FORMAT.md §2.3-§2.8)
FIELD_SHAPES = {
    "podTemplateSpecPath": "pod-template-spec",
    "podSpecPath": "pod-spec",
    "metadataPath": "object-meta",
    "labelsPath": "string-map",
    "annotationsPath": "string-map",
    "resourcesPath": "resource-requirements",
    "containersPath": "containers",
    "containerPath": "container",
    "imagePath": "string",
    "schedulerNamePath": "string",
    "priorityClassNamePath": "string",
    "podAffinityPath": "affinity",
    "nodeAffinityPath": "affinity",
    "resourceClaimsPath": "resource-claims",
    "replicasPath": "replicas",
    "minReplicasPath": "replicas",
    "maxReplicasPath": "replicas",
    "instanceIdPath": "instance-id",
    "conditionsPath": "conditions",
    "phasePath": "phase",
    "suspendPath": "suspend",
    "expression": "by-expression",
}


@dataclass(frozen=True)
class Expectation:
    """What a definition field needs from its path. ``shape``: one of FIELD_SHAPES' values or ``any``.

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
        return cls(FIELD_SHAPES.get(field_name, "any"), field_name, **extra)


def _obj_variants(t: SchemaType) -> list[SchemaType]:
    return [v for v in _variants(t) if v.kind == OBJECT]


def _has(t: SchemaType, *names: str) -> bool:
    return any(all(n in v.properties for n in names) for v in _obj_variants(t))


def _open(t: SchemaType) -> bool:
    """Nothing can be said: any, or an object whose members are not declared."""
    return any(
        v.kind == ANY_KIND or (v.kind == OBJECT and not v.properties and v.is_open_object())
        for v in _variants(t)
    )


def _is_container(t: SchemaType) -> bool:
    return _has(t, "name", "image") or _has(t, "name", "resources")


def _shape_ok(shape: str, t: SchemaType) -> bool:
    if _open(t):
        return True
    kinds = t.kinds() - {NULL}
    if shape == "pod-template-spec":
        return any(
            "spec" in v.properties and _shape_ok("pod-spec", v.properties["spec"].type)
            for v in _obj_variants(t)
        )
    if shape == "pod-spec":
        return any("containers" in v.properties for v in _obj_variants(t))
    if shape == "object-meta":
        meta = {"labels", "annotations", "name", "namespace", "generateName", "ownerReferences", "finalizers"}
        return any(not v.properties or set(v.properties) & meta for v in _obj_variants(t))
    if shape == "string-map":
        return any(
            v.additional is not None and (v.additional.is_any or STRING in v.additional.kinds())
            for v in _obj_variants(t)
        )
    if shape == "resource-requirements":
        return _has(t, "limits") or _has(t, "requests") or _has(t, "claims")
    if shape == "containers":
        return any(
            v.kind == ARRAY and (v.items is None or _open(v.items) or _is_container(v.items))
            for v in _variants(t)
        )
    if shape == "container":
        return _is_container(t)
    if shape in ("string", "phase", "instance-id"):
        return STRING in kinds or (shape == "instance-id" and bool(kinds & {INTEGER, NUMBER}))
    if shape == "affinity":
        return _has(t, "requiredDuringSchedulingIgnoredDuringExecution") or _has(
            t, "preferredDuringSchedulingIgnoredDuringExecution"
        )
    if shape == "resource-claims":
        return any(
            v.kind == ARRAY and (v.items is None or _open(v.items) or _has(v.items, "name"))
            for v in _variants(t)
        )
    if shape == "replicas":
        return bool(kinds & {INTEGER, NUMBER, STRING})
    return True


_SHAPE_NAMES = {
    "pod-template-spec": "a PodTemplateSpec (metadata + spec with containers)",
    "pod-spec": "a PodSpec",
    "object-meta": "pod metadata (ObjectMeta)",
    "string-map": "a map of strings",
    "resource-requirements": "a ResourceRequirements (limits/requests)",
    "containers": "a list of containers",
    "container": "a container",
    "string": "a string",
    "phase": "a string (the phase)",
    "instance-id": "a string id",
    "affinity": "an affinity",
    "resource-claims": "a list of resource claims",
    "replicas": "an integer or a numeric string",
}


def check_expression(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    *,
    source: str | None = None,
    object_meta: SchemaType | None = None,
) -> list[JqFinding]:
    """Type findings of ``text`` evaluated over ``input_type``, a whole object as the API server serves it
    (see ``served``), and what its field needs.

    A jq syntax error gives no finding here (the jq checks report it). Results are remembered per expression,
    expectation and schema type (types are compared by identity; the schema store keeps them for its
    lifetime): an editor re-lints mostly unchanged expressions on every keystroke.
    """
    return list(_check_expression_cached(text, expected, input_type, source, object_meta))


@lru_cache(maxsize=8192)
def _check_expression_cached(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    source: str | None,
    object_meta: SchemaType | None,
) -> tuple[JqFinding, ...]:
    return tuple(_check_expression(text, expected, input_type, source, object_meta))


def _check_expression(
    text: str,
    expected: Expectation,
    input_type: SchemaType,
    source: str | None,
    object_meta: SchemaType | None,
) -> list[JqFinding]:
    node = try_parse(text)
    if not isinstance(node, A.Node):
        return []
    result = infer(node, served(input_type, object_meta), text=text, source=source, object_meta=object_meta)
    findings = list(result.findings)
    if any(f.rule in (UNKNOWN_FIELD, NOT_ITERABLE) for f in findings):
        return findings  # the path is already wrong; its type says nothing more
    t, shape = result.type, expected.shape
    if t.kind == UNION and not t.variants:
        return findings  # no output at all: nothing to say about its type
    end = len(text.rstrip())
    if shape in _SHAPE_NAMES and not _shape_ok(shape, t):
        findings.append(
            JqFinding(
                WRONG_TARGET_TYPE,
                f"{expected.field or 'path'} must reach {_SHAPE_NAMES[shape]}, "
                f"but this reaches {_a(t.describe())}",
                0,
                end,
                None,
                {"found": t.describe()},
            )
        )
    elif shape == "replicas" and expected.field == "replicasPath" and result.optional and not t.is_any:
        if not _built_in(input_type):
            findings.append(_replicas_default(text, node, expected))
    elif shape == "conditions":
        findings.extend(_conditions(t, expected, end))
    elif shape == "suspend" and expected.value is not None:
        findings.extend(_suspend(t, expected.value, end))
    elif shape == "by-expression" and expected.expected_result is not None:
        findings.extend(_expected_result(result, expected.expected_result, end))
    return findings


# what the API server sets on every object and every embedded resource, whatever their schema declares
_SERVED = ("apiVersion", "kind", "metadata")


def served(t: SchemaType, object_meta: SchemaType | None) -> SchemaType:
    """An object type as the API server serves such an object: `metadata` is Kubernetes' ObjectMeta
    (``object_meta``; unknown when None) whatever the schema declares, since the server handles it itself and
    never prunes it at a resource root or embedded resource; `apiVersion` and `kind` are strings; all three
    are always present."""
    if t.kind != OBJECT:
        return t
    declared_meta = t.properties.get("metadata")
    if object_meta is None and declared_meta is not None and _is_object_meta(declared_meta.type):
        object_meta = declared_meta.type  # a core kind: its schema already says ObjectMeta
    copy = SchemaType(OBJECT)
    for slot in SchemaType.__slots__:  # type: ignore[attr-defined]
        setattr(copy, slot, getattr(t, slot))
    copy.properties = dict(t.properties)
    for name in _SERVED:
        declared = t.properties.get(name)
        line, column = (declared.line, declared.column) if declared is not None else (None, None)
        kind = (object_meta or ANY) if name == "metadata" else SchemaType(STRING)
        copy.properties[name] = Property(name, kind, line, column, declared.description if declared else None)
    copy.required = t.required | set(_SERVED)
    return copy


def _is_object_meta(t: SchemaType) -> bool:
    return (t.ref or "").endswith("meta.v1.ObjectMeta")


def object_meta_from(pod_schemas: Iterable[Any]) -> SchemaType | None:
    """Kubernetes' ObjectMeta as the core schemas give it: the `metadata` of the resolved v1 Pod schemas
    (``.type``), or None without core schemas."""
    for schema in pod_schemas:
        prop = schema.type.properties.get("metadata")
        if prop is not None and _is_object_meta(prop.type):
            return prop.type
    return None


def _built_in(t: SchemaType) -> bool:
    """A kind the Kubernetes API itself serves: its API server fills defaults in code that the OpenAPI does
    not declare (a Deployment's replicas, a Job's parallelism), so an optional field there is not known to be
    absent."""
    return (t.ref or "").startswith("io.k8s.")


def _replicas_default(text: str, node: A.Node, expected: Expectation) -> JqFinding:
    last = node.right if isinstance(node, A.Pipe) else node
    replacement = None
    if isinstance(last, A.Field) and last.target is not None and not isinstance(node, A.Pipe):
        base, name = text[last.start : last.seg_start], text[last.seg_start : last.end]
        if any(isinstance(n, A.Iterate) for n in A.walk(last.target)):
            replacement = f"{base} | ({name} // 1)"
        else:
            replacement = f"{text[: last.end]} // 1"
    elif isinstance(last, A.Field):
        replacement = text[: last.start] + f"({text[last.start : last.end]} // 1)" + text[last.end :]
    else:
        replacement = f"{text.strip()} // 1" if not isinstance(node, A.Pipe) else None
    return JqFinding(
        OPTIONAL_WITHOUT_DEFAULT,
        f"{expected.field or 'the replicas path'} reads an optional field without a default: an object "
        "without it yields null, which the runtime takes as replicas not set, not as the controller's "
        "default: totals fall back to minReplicas or 1, gang sizing to minReplicas or 0; give the default "
        "inside any iteration",
        0,
        len(text.rstrip()),
        None,
        None,
        replacement,
    )


def _conditions(t: SchemaType, expected: Expectation, end: int) -> list[JqFinding]:
    if _open(t):
        return []
    lists = [v for v in _variants(t) if v.kind == ARRAY]
    if not lists:
        return [
            JqFinding(
                WRONG_TARGET_TYPE,
                f"the conditions path must reach a list of conditions, not a {t.describe()}",
                0,
                end,
            )
        ]
    for lst in lists:
        items = lst.items or ANY
        if _open(items):
            continue
        missing = [
            f
            for f in (expected.type_field, expected.status_field)
            if f and not any(f in v.properties or v.is_open_object() for v in _obj_variants(items))
        ]
        if missing:
            return [
                JqFinding(
                    WRONG_TARGET_TYPE,
                    "the conditions do not have the field(s) "
                    f"{', '.join(repr(m) for m in missing)} named by the conditions definition",
                    0,
                    end,
                    None,
                    {"valid": sorted({p for v in _obj_variants(items) for p in v.properties})},
                )
            ]
    return []


def _suspend(t: SchemaType, value_text: str, end: int) -> list[JqFinding]:
    try:
        value = json.loads(value_text)
    except ValueError:
        return []  # invalid JSON is another rule's concern
    if _open(t) or value is None:
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
        enum = TypeResult(t, False).enum
        if enum is not None and value not in enum:
            allowed = ", ".join(map(str, enum))
            return [
                JqFinding(
                    SUSPEND_VALUE_TYPE,
                    f"value {value_text} is not one of {allowed}",
                    0,
                    end,
                    None,
                    {"valid": list(enum)},
                )
            ]
    if ok:
        return []
    message = f"value {value_text} is {_a(need)} but the field is {_a(t.describe())}"
    return [JqFinding(SUSPEND_VALUE_TYPE, message, 0, end, None, {"found": need})]


def _expected_result(result: TypeResult, expected: str, end: int) -> list[JqFinding]:
    t = result.type
    if t.is_any or any(v.kind == ANY_KIND for v in _variants(t)):
        return []
    possible: set[str] = set()
    for v in _variants(t):
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
    return [
        JqFinding(
            UNREACHABLE_EXPECTED_RESULT,
            f"expectedResult {expected!r} can never match: the expression yields "
            f"{', '.join(sorted(possible))}",
            0,
            end,
            None,
            {"valid": sorted(possible)},
        )
    ]


# -- editor support: what a path segment is, what may follow a `.` -----------------------------------------
#
# A recording subclass of the interpreter notes the types it sees at one offset while ``infer`` walks as
# usual; the plain analysis never pays for it.


@dataclass(frozen=True)
class SegmentInfo:
    """The field a path segment reads: ``start``/``end`` are the key's offsets in the expression.

    ``declared``: each object type that declares the field, with its declaration (first is the one to show);
    ``type``: what the segment yields; ``required``: required in every object that declares it.
    """

    name: str
    start: int
    end: int
    type: SchemaType
    required: bool
    declared: tuple[tuple[SchemaType, Property], ...]


class _Recording(_Interp):
    """The interpreter, also noting the fields read at ``offset`` and the outputs of nodes ending at
    ``end``."""

    def __init__(
        self, text: str, offset: int = -1, end: int = -1, object_meta: SchemaType | None = None
    ) -> None:
        super().__init__(text, None, object_meta)
        self.offset = offset
        self.end = end
        self.segments: dict[tuple[int, int], tuple[str, list[SchemaType], list[SchemaType]]] = {}
        self.outputs: dict[tuple[int, int], list[SchemaType]] = {}

    def eval(self, node: A.Node, inp: Val, env: dict[str, Any], depth: int = 0, quiet: bool = False) -> Val:
        out = super().eval(node, inp, env, depth, quiet)
        if node.end == self.end:
            self.outputs.setdefault((node.start, node.end), []).append(out.type)
        return out

    def member(self, base: Val, name: str, node: A.Node | _KeySpan, quiet: bool) -> Val:
        out = super().member(base, name, node, quiet)
        start = getattr(node, "name_start", None)
        end = getattr(node, "name_end", None)
        if start is not None and end is not None and start <= self.offset <= end:
            _, bases, yields = self.segments.setdefault((start, end), (name, [], []))
            bases.append(base.type)
            yields.append(out.type)
        return out


def types_at(
    text: str,
    input_type: SchemaType,
    offset: int,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    object_meta: SchemaType | None = None,
) -> SegmentInfo | None:
    """The schema field of the path segment at ``offset`` of ``text`` (a key such as ``replicatedJobs``
    in ``.spec.replicatedJobs[]``), or None: not on a field key, a field the schema does not declare or
    cannot know (``any``), or text that does not parse. ``input_type`` is served as a whole object with
    ``object_meta`` as its `metadata` (see ``served``)."""
    node = try_parse(text)
    if not isinstance(node, A.Node):
        return None
    rec = _walk(node, text, input_type, roots, object_meta, offset=offset)
    if rec is None:
        return None
    spans = [s for s in rec.segments if s[0] <= offset < s[1]] or list(rec.segments)
    if not spans:
        return None
    span = min(spans, key=lambda s: s[1] - s[0])
    name, bases, yields = rec.segments[span]
    declared: list[tuple[SchemaType, Property]] = []
    required = True
    for base in bases:
        for v in _variants(base):
            prop = v.properties.get(name) if v.kind == OBJECT else None
            if prop is not None and not any(prop is p for _, p in declared):
                declared.append((v, prop))
                required = required and name in v.required
            elif v.kind == OBJECT and prop is None and v.member(name) is not None:
                required = False  # a map entry or an undeclared member of an open object
    found = union(*yields)
    if not declared and found.is_any:
        return None
    return SegmentInfo(name, span[0], span[1], found, required and bool(declared), tuple(declared))


def members_at(
    text: str,
    input_type: SchemaType,
    offset: int,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    object_meta: SchemaType | None = None,
) -> list[Property]:
    """Fields that may follow the ``.`` before ``offset`` (after any partial name the cursor ends):
    the declared properties of the object type the path reaches there, in schema order.

    ``text`` may be incomplete (``.spec.``): the longest parsable form around the cursor is typed instead.
    ``input_type`` is served as a whole object with ``object_meta`` as its `metadata` (see ``served``).
    """
    offset = max(0, min(offset, len(text)))
    start = offset
    while start > 0 and _word_char(text[start - 1]):
        start -= 1
    if start == 0 or text[start - 1] != "." or _in_string(text, start - 1):
        return []
    dot = start - 1
    if dot > 0 and text[dot - 1] == ".":
        return []  # `..`
    after = offset
    while after < len(text) and _word_char(text[after]):
        after += 1
    head, rest = text[:dot], text[after:]
    candidates: list[tuple[str, int, bool]] = []
    if dot > 0 and not text[dot - 1].isspace():  # a path continued: `.spec.`, `.jobs[].`, `(.a).`
        candidates += [(head + rest, dot, False), (head + _closers(head), dot, False)]
    # a path started afresh (`| .`, `select(.`): the input of an identity in the dot's place
    candidates += [(head + "." + rest, dot + 1, True), (head + "." + _closers(head), dot + 1, True)]
    for candidate, end, fresh in candidates:
        node = try_parse(candidate)
        if not isinstance(node, A.Node):
            continue
        rec = _walk(node, candidate, input_type, roots, object_meta, end=end)
        if rec is None:
            continue
        if fresh:  # the identity put in the dot's place yields its input
            spans = [(dot, dot + 1)] if (dot, dot + 1) in rec.outputs else []
        else:
            spans = list(rec.outputs)
        if not spans:
            continue
        span = min(spans, key=lambda s: s[1] - s[0])
        return _declared_members(union(*rec.outputs[span]))
    return []


def _walk(
    node: A.Node,
    text: str,
    input_type: SchemaType,
    roots: Mapping[str, SchemaType] | None,
    object_meta: SchemaType | None,
    offset: int = -1,
    end: int = -1,
) -> _Recording | None:
    """The recording walk of ``node`` over ``input_type`` served as a whole object (see ``served``)."""
    rec = _Recording(text, offset, end, object_meta)
    env: dict[str, Any] = {k if k.startswith("$") else "$" + k: Val(v) for k, v in (roots or {}).items()}
    try:
        rec.eval(node, Val(served(input_type, object_meta)), env)
    except RecursionError:  # the walk is depth-bounded; an editor request must still never fail
        return None
    return rec


def _declared_members(t: SchemaType) -> list[Property]:
    """Properties of the object variants of ``t`` (arrays and scalars have none), first declaration wins."""
    found: dict[str, Property] = {}
    for v in _variants(t):
        if v.kind == OBJECT:
            for name, prop in v.properties.items():
                found.setdefault(name, prop)
    return list(found.values())


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _in_string(text: str, offset: int) -> bool:
    """Whether ``offset`` is inside a string literal or a comment (interpolations count as inside)."""
    quoted = False
    i = 0
    while i < offset:
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#":
            newline = text.find("\n", i)
            if newline == -1 or newline >= offset:
                return True
            i = newline
        i += 1
    return quoted


def _closers(text: str) -> str:
    """The brackets that close what ``text`` leaves open (strings skipped), innermost first."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}" and stack and stack[-1] == ch:
            stack.pop()
        i += 1
    return "".join(reversed(stack))
