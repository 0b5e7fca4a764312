"""Evaluate validation rules on an object, as the API server does on create (K8S_CEL.md §2.5, §3.4, §5.2-5.3).

Transition rules (those reading ``oldSelf``) are skipped: offline there is no old object. Each evaluation is
bounded first with the API server's runtime limits (``budget.py``): one whose cost on this object may pass
the per-call limit, or the budget the object's rules share, is reported as not evaluated instead of run, so
hostile rules or data cannot hang us.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from wmaplint import cache_records, memo
from wmaplint.cel import types as t
from wmaplint.cel.issues import CelViolation, Pointer, ValidationRuleNotEvaluated, ValidationRuleRejected
from wmaplint.cel.sizes import PLAIN
from wmaplint.schema.raw import RawSchema, RefResolver

VARIABLES = ("self", "oldSelf")  # of every validation rule (transition rules, reading oldSelf, are not run)
MAX_MESSAGE_BYTES = 5120
MAX_NODES = 200_000
MAX_DATA_DEPTH = 100

_programs: OrderedDict[str, Any] = memo.kept(__name__, "_programs", OrderedDict(), pure=True)
_programs_lock = threading.Lock()


def _program(text: str, serialized: bytes) -> Any:
    with _programs_lock:
        found = _programs.get(text)
        if found is not None:
            _programs.move_to_end(text)
            return found
    from wmaplint.cel.env import run_env

    program = run_env().deserialize(serialized)
    with _programs_lock:
        _programs[text] = program
        if len(_programs) > 4096:
            _programs.popitem(last=False)
    return program


# (schema node, item, depth, its conversion) -> the converted item: a conversion kept from before may stand in
Keep = Callable[[object, Any, int, Callable[[], Any]], Any]


def to_cel_value(
    schema: object, value: Any, types: t.SchemaTypes, depth: int = 0, root: bool = False,
    keep: Keep | None = None,
) -> Any:
    """JSON data -> the value CEL sees: escaped property names, null properties absent, undeclared keys
    gone. ``keep``, when given, converts the items of the outermost lists (``wmaplint.cel.pieces``)."""
    node = types.resolve(schema) if schema is not None else None
    if node is None or depth > MAX_DATA_DEPTH:
        return value
    # plain types first: isinstance with the ABC Mapping costs 8 times as much
    if isinstance(value, dict) or (type(value) not in PLAIN and isinstance(value, Mapping)):
        props = node.get("properties")
        extra = node.get("additionalProperties")
        if isinstance(props, (dict, Mapping)) or root or node.get("x-kubernetes-embedded-resource") is True:
            out = {}
            declared: RawSchema = props if isinstance(props, (dict, Mapping)) else {}
            embedded = root or node.get("x-kubernetes-embedded-resource") is True
            for key, item in value.items():
                if item is None or not isinstance(key, str):
                    continue
                if embedded and key in ("apiVersion", "kind"):
                    out[key] = item
                    continue
                if embedded and key == "metadata" and isinstance(item, Mapping):
                    out["metadata"] = {
                        k: v for k, v in item.items() if k in ("name", "generateName") and v is not None
                    }
                    continue
                if key not in declared:
                    continue
                cel_name = t.escape(key)
                if cel_name is not None:
                    out[cel_name] = to_cel_value(declared[key], item, types, depth + 1, keep=keep)
            return out
        if isinstance(extra, Mapping):
            return {k: to_cel_value(extra, v, types, depth + 1, keep=keep) for k, v in value.items()}
        return {}
    if isinstance(value, list):
        items = node.get("items")
        sub = items if isinstance(items, Mapping) else None
        if keep is not None:
            return [keep(sub, v, depth + 1, partial(to_cel_value, sub, v, types, depth + 1)) for v in value]
        return [to_cel_value(sub, v, types, depth + 1) for v in value]
    if node.get("type") == "number" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if node.get("type") == "string" and node.get("format") == "byte" and isinstance(value, str):
        try:
            return base64.urlsafe_b64decode(value)
        except ValueError:
            return value
    return value


def _render_path(path: tuple[str | int, ...]) -> str:
    if not path:
        return "<nil>"
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out and part.startswith("["):
            out += part
        else:
            out += ("." if out else "") + part
    return out


def _render_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    return json.dumps(value, sort_keys=True, default=str)


# cel-cpp stops an evaluation after 10,000 loop iterations in all; the API server has no such cap
ITERATION_LIMIT = "not evaluated to the end: its loops ran past 10,000 iterations, the most wmaplint runs"
_RUNTIME_REWRITES = (
    (re.compile(r".*Iteration budget exceeded.*"), ITERATION_LIMIT),
    (re.compile(r'Key not found in map : "?(.*?)"?$'), r"no such key: \1"),
    (re.compile(r"Index error: index=(-?\d+) size=\d+"), r"index out of bounds: \1"),
    (re.compile(r"divide by zero"), "division by zero"),
    (re.compile(r"No matching overloads found.*"), "no such overload"),
)


def _runtime_message(raw: str) -> str:
    message = re.sub(r"^[A-Z_]+: ", "", str(raw).strip())
    for pattern, replacement in _RUNTIME_REWRITES:
        if pattern.search(message):
            return pattern.sub(replacement, message)
    return message


# schema node -> whether a validation rule is declared on it or below it
_VALIDATION_RULES_BELOW: memo.ByIdentity[bool] = memo.ByIdentity(__name__, "_VALIDATION_RULES_BELOW")


def _validation_rules_below(node: RawSchema, types: t.SchemaTypes, depth: int = 0) -> bool:
    """Whether this resolved schema node or any schema under it declares a validation rule; True when unsure.

    A CRD declares rules in a few places, while an object has thousands of nodes: the walk below descends
    only where a rule can be reached. Remembered per schema node across objects (a check or a tree run
    validates many objects against one schema)."""
    found = _VALIDATION_RULES_BELOW.get(node)
    if found is not None:
        return found
    if depth > MAX_DATA_DEPTH:
        return True
    # a $ref cycle back to this node: assume a rule, prune nothing
    _VALIDATION_RULES_BELOW.put(node, True)
    rules = node.get("x-kubernetes-validations")
    below = isinstance(rules, list) and bool(rules)
    if not below:
        props = node.get("properties")
        children = list(props.values()) if isinstance(props, Mapping) else []
        children += [node.get("additionalProperties"), node.get("items")]
        for child in children:
            resolved = types.resolve(child) if isinstance(child, Mapping) else None
            if resolved is not None and _validation_rules_below(resolved, types, depth + 1):
                below = True
                break
    return _VALIDATION_RULES_BELOW.put(node, below)


class ValidationRuleVerdict:
    """What validation needs of a type-checked rule; a clean one is recorded in the user cache. Its checked
    AST (to bound an evaluation's cost) is decoded from the program when a recorded verdict first needs it."""

    __slots__ = ("problems", "uses_old_self", "serialized", "truncated", "node_types", "plan", "_checked",
                 "_costs", "_interpreted", "recorded")

    def __init__(self, problems: list[Any], uses_old_self: bool, serialized: bytes | None, truncated: int = 0,
                 node_types: Mapping[int, Any] | None = None, checked: Any = None, costs: Any = None,
                 plan: Any = None, recorded: bool = False):
        self.problems = problems
        self.uses_old_self = uses_old_self
        self.serialized = serialized
        self.truncated = truncated  # problems past the checker's cap
        self.node_types = node_types or {}
        self.plan = plan  # for the Python evaluator (wmaplint.cel.plan), recorded with the verdict
        self._checked = checked
        self._costs = costs  # bounds at a few data sizes (wmaplint.cel.budget), recorded with the verdict
        self._interpreted: Any = _UNREAD
        # read from the user cache: data someone else may have written, so its plan runs only in the Python
        # evaluator, held to the cost it is admitted with, and never in the CEL runtime (``_run``)
        self.recorded = recorded

    def interpreted(self) -> Any:
        """The rule ready for the Python evaluator (wmaplint.cel.interpret), None when outside its subset."""
        if self._interpreted is _UNREAD:
            from wmaplint.cel.interpret import program_of

            self._interpreted = program_of(self.plan, VARIABLES) if self.plan is not None else None
        return self._interpreted

    def cost_table(self) -> Any:
        if self._costs is None:
            from wmaplint.cel.budget import cost_table

            self._costs = cost_table(self.checked_ast(), self.node_types)
        return self._costs

    def checked_ast(self) -> Any:
        if self._checked is None:
            from wmaplint.cel.ast import decode_checked

            assert self.serialized is not None
            self._checked = decode_checked(self.serialized)
        return self._checked


_UNREAD = object()
# (schema node, rule text, is_root) -> the rule's verdict there
_VERDICTS: memo.ByIdentity[ValidationRuleVerdict] = memo.ByIdentity(__name__, "_VERDICTS")
MAX_RECORDED_SCHEMA_CHARS = 65_536  # a rule's schema node keys its record; beyond this, compiling is cheaper
# (schema node, is_root) -> (its text as a record key, or None); several rules share a node
_SHAPES: memo.ByIdentity[tuple[bytes | None]] = memo.ByIdentity(__name__, "_SHAPES")


def _shape(node: RawSchema, is_root: bool) -> bytes | None:
    """The text of a schema node as the key of its rules' records, written once a node in a process; None
    for a node that refers to other schemas (its type is not its text alone) or is too large to key
    cheaply."""
    found = _SHAPES.get(node, is_root)
    if found is not None:
        return found[0]
    try:
        shape: str | None = json.dumps([node, is_root], sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        shape = None
    if shape is not None and ('"$ref"' in shape or len(shape) > MAX_RECORDED_SCHEMA_CHARS):
        shape = None
    key = shape.encode() if shape is not None else None
    _SHAPES.put(node, (key,), is_root)
    return key


def _record_path(text: str, node: RawSchema, is_root: bool, place: tuple[str, Pointer] | None = None) -> Any:
    """The record of a rule on a schema node, keyed by both: the node by ``place`` when its schema's source
    names it (``validate_object``'s ``source`` and the node's pointer: that source's digest stands for the
    node's text and for every schema its references reach), else by its text (``_shape``)."""
    shape = (json.dumps(["at", *place, is_root]).encode() if place is not None
             else _shape(node, is_root))
    if shape is None:
        return None
    return cache_records.record_path("cel", text.encode("utf-8", "surrogatepass"), shape)


def _recorded(path: Any, text: str) -> ValidationRuleVerdict | None:
    """The recorded verdict of rule ``text``. A record is data anyone able to write the cache may have made:
    it can say the rule reads ``oldSelf`` (and so is not run) only of a rule whose text names it."""
    data = cache_records.read(path)
    try:
        costs = tuple((int(size), int(bound)) for size, bound in data["costs"])
        serialized = cache_records.bytes_of(data["serialized"])
        old_self = bool(data["uses_old_self"]) and "oldSelf" in text
        return ValidationRuleVerdict([], old_self, serialized, costs=costs, plan=data["plan"], recorded=True)
    except cache_records.DAMAGED:
        return None


def _verdict(
    text: str, node: RawSchema, is_root: bool, self_type: Callable[[], t.CelType],
    afresh: bool = False, place: tuple[str, Pointer] | None = None,
) -> ValidationRuleVerdict:
    """The rule type-checked against its schema node: once per rule and node in a process (every object
    validated against the schema shares it), and across processes from the user cache, which spares the
    checker's imports, compiling and decoding. ``self_type()`` gives the node's CEL type. ``afresh``: compiled
    in this process whatever the cache holds (its record is then written again). ``place``: where the node
    stands in its schema's source, which keys its record (``_record_path``)."""
    found = _VERDICTS.get(node, (text, is_root))
    if found is not None and not (afresh and found.recorded):
        return found
    path = _record_path(text, node, is_root, place)
    verdict = _recorded(path, text) if path is not None and not afresh else None
    if verdict is None:
        from wmaplint.cel.checker import check_expression
        from wmaplint.cel.plan import plan_of

        kind = self_type()
        result = check_expression(text, {"self": kind, "oldSelf": kind}, "bool")
        compiled = result.compiled if result.ok else None
        serialized = compiled.serialized if compiled is not None else None
        checked = compiled.ast if compiled is not None else None
        plan = plan_of(checked) if checked is not None else None
        verdict = ValidationRuleVerdict(list(result.problems), result.uses_old_self, serialized,
                                        result.truncated, result.node_types, checked, plan=plan)
        if not verdict.problems and serialized is not None and path is not None:
            costs = [list(pair) for pair in verdict.cost_table()]
            cache_records.write(path, {"uses_old_self": verdict.uses_old_self,
                                 "serialized": cache_records.text_of(serialized), "costs": costs,
                                 "plan": verdict.plan})
    return _VERDICTS.put(node, verdict, (text, is_root))


def _worth_visiting(schema: object, types: t.SchemaTypes) -> bool:
    node = types.resolve(schema)
    return node is not None and _validation_rules_below(node, types)


def validate_object(
    schema_dict: RawSchema,
    obj: Any,
    resolve_ref: RefResolver | None = None,
    *,
    root: bool = True,
    schema_pointer: Pointer = (),
    source: str | None = None,
) -> list[CelViolation]:
    """Run every validation rule of ``schema_dict`` on the matching nodes of ``obj`` (depth-first).

    ``source``: what ``schema_dict`` is within its source, surely enough to stand for its text and that of
    every schema its references reach (the source file's digest and the GVK it serves); a rule's record in
    the user cache is then keyed by it and the rule's pointer, not by the text of its (often large) node."""
    from wmaplint.cel.budget import CostBudget, charge
    from wmaplint.cel.sizes import SizeIndex

    violations: list[CelViolation] = []
    budget = CostBudget()
    types = t.SchemaTypes(resolve_ref)
    stack: list[tuple[Any, Any, tuple[str | int, ...], Pointer, bool]] = [
        (schema_dict, obj, (), schema_pointer, root)
    ]
    visited = 0
    while stack and visited < MAX_NODES:
        schema, value, path, pointer, is_root = stack.pop()
        visited += 1
        node = types.resolve(schema)
        if node is None or value is None:
            continue
        rules = node.get("x-kubernetes-validations")
        if isinstance(rules, list) and rules:
            def self_type(_node: RawSchema = node, _root: bool = is_root) -> t.CelType:
                return types.type_of(_node, "selfType", embedded_root=_root) or t.DYN

            cel_self = to_cel_value(node, value, types, root=is_root)
            sizes = {"self": SizeIndex(cel_self)}
            schema_kind = str(node.get("type") or "")
            place = (source, pointer) if source is not None else None
            for index, rule in enumerate(rules):
                text = rule.get("rule") if isinstance(rule, Mapping) else None
                if not isinstance(rule, Mapping) or not isinstance(text, str):
                    continue
                rule_ptr = (*pointer, "x-kubernetes-validations", index)
                field_path = _render_path(path)
                verdict = _verdict(text, node, is_root, self_type, place=place)

                def add(
                    message: str,
                    detail: str,
                    *,
                    _path: str = field_path,
                    _ptr: Pointer = rule_ptr,
                    _text: str = text,
                    _where: tuple[str | int, ...] = path,
                ) -> None:
                    violations.append(
                        CelViolation(ValidationRuleRejected, message, _path, detail, _ptr, _where, _text))

                if verdict.problems:
                    from wmaplint.cel.checker import describe

                    # the first issue on one line (the server adds each issue's source line and a caret)
                    issues = describe(verdict.problems[0], text).split("\n", 1)[0]
                    more = len(verdict.problems) - 1 + (verdict.truncated - 1 if verdict.truncated else 0)
                    if more:
                        issues += f" (and {more} more)"
                    add(
                        f'{field_path}: Invalid value: "{schema_kind}": rule compile error: compilation '
                        f"failed: {issues}",
                        issues,
                    )
                    continue
                if verdict.uses_old_self:
                    continue  # transition rule: no old object offline
                refused = charge(budget, verdict.cost_table, verdict.checked_ast, verdict.node_types, sizes)
                outcome = _run(text, verdict, cel_self, budget.admitted) if refused is None else False
                if outcome is _AFRESH:  # a recorded plan the evaluator could not run within its cost
                    budget.refund()
                    verdict = _verdict(text, node, is_root, self_type, afresh=True, place=place)
                    refused = charge(budget, verdict.cost_table, verdict.checked_ast, verdict.node_types,
                                     sizes)
                    outcome = _run(text, verdict, cel_self, budget.admitted) if refused is None else False
                if outcome == ITERATION_LIMIT:  # the evaluator's own cap, not the API server's verdict
                    refused = ITERATION_LIMIT
                if refused is not None:
                    message = f"{field_path}: rule {refused}"
                    violations.append(CelViolation(ValidationRuleNotEvaluated, message, field_path, refused,
                                                   rule_ptr, path, text))
                    if budget.exhausted:
                        return violations  # as the API server: no further validation rules are run
                    continue
                if isinstance(outcome, str):
                    said = rule.get("message")
                    rule_name = (said or text).strip() if isinstance(said, str) else text.strip()
                    if outcome == "no such overload":
                        add(
                            f"{field_path}: Invalid value: \"{schema_kind}\": 'no such overload': call "
                            f"arguments did "
                            "not match a supported operator, function or macro signature for rule: "
                            f"{rule_name}",
                            outcome,
                        )
                    else:
                        add(
                            f'{field_path}: Invalid value: "{schema_kind}": {outcome} evaluating rule: '
                            f'{rule_name}',
                            outcome,
                        )
                    continue
                if outcome is True:
                    continue
                detail = _detail(rule, text, self_type(), cel_self, sizes, budget)
                target = field_path
                field = rule.get("fieldPath")
                if isinstance(field, str) and field.strip():
                    suffix = field.strip().lstrip(".")
                    target = suffix if field_path == "<nil>" else f"{field_path}.{suffix}"
                reason = rule.get("reason")
                if reason == "FieldValueForbidden":
                    add(f"{target}: Forbidden: {detail}", detail, _path=target)
                elif reason == "FieldValueRequired":
                    add(f"{target}: Required value: {detail}", detail, _path=target)
                elif reason == "FieldValueDuplicate":
                    add(f"{target}: Duplicate value: {_render_value(value)}", detail, _path=target)
                elif isinstance(value, (Mapping, list)):
                    add(f"{target}: Invalid value: {detail}", detail, _path=target)
                else:
                    add(f"{target}: Invalid value: {_render_value(value)}: {detail}", detail, _path=target)
        children: list[tuple[Any, Any, tuple[str | int, ...], Pointer, bool]] = []
        if isinstance(value, Mapping):
            props = node.get("properties")
            extra = node.get("additionalProperties")
            if isinstance(props, Mapping):
                for key, sub in props.items():
                    if key in value and not (is_root and key == "metadata") and _worth_visiting(sub, types):
                        embedded = (
                            isinstance(sub, Mapping) and sub.get("x-kubernetes-embedded-resource") is True
                        )
                        children.append(
                            (sub, value[key], (*path, key), (*pointer, "properties", key), embedded)
                        )
            elif isinstance(extra, Mapping) and _worth_visiting(extra, types):
                for key, item in value.items():
                    children.append(
                        (extra, item, (*path, f"[{key}]"), (*pointer, "additionalProperties"), False)
                    )
        elif isinstance(value, list):
            items = node.get("items")
            if isinstance(items, Mapping) and _worth_visiting(items, types):
                for i, item in enumerate(value):
                    children.append((items, item, (*path, i), (*pointer, "items"), False))
        stack.extend(reversed(children))
    return violations


_AFRESH = "compile afresh"  # a recorded verdict the Python evaluator could not run within its admitted cost


def _run(text: str, verdict: ValidationRuleVerdict, cel_self: Any, admitted: int) -> bool | str:
    """True/False, or the runtime error text. The Python evaluator runs what it can; the CEL runtime,
    imported only then, what it cannot. A verdict read from the cache runs only in the evaluator, held to
    the cost it was ``admitted`` with; where it cannot, ``_AFRESH``: the rule is to be compiled again."""
    if verdict.serialized is None:
        return "rule could not be compiled"
    interpreted = verdict.interpreted()
    if interpreted is not None:
        from wmaplint.cel.interpret import EvaluationError, OverBound, Unsupported

        try:
            found = interpreted.evaluate({"self": cel_self}, admitted=admitted if verdict.recorded else None)
        except EvaluationError as error:
            return _runtime_message(error.text)
        except (Unsupported, OverBound):
            pass
        else:
            return found if isinstance(found, bool) else "no such overload"
    if verdict.recorded:
        return _AFRESH
    try:
        value = _program(text, verdict.serialized).eval(data={"self": cel_self})
    except Exception as exc:  # conversion failures of odd data become a runtime error, not a crash
        return _runtime_message(str(exc))
    type_name = value.type().name() if hasattr(value.type(), "name") else str(value.type())
    if "ERROR" in str(type_name).upper():
        return _runtime_message(str(value.value()))
    result = value.value()
    if isinstance(result, bool):
        return result
    return "no such overload"


def _detail(rule: RawSchema, text: str, self_type: t.CelType, cel_self: Any, sizes: Any,
            budget: Any) -> str:
    expression = rule.get("messageExpression")
    if isinstance(expression, str) and expression.strip():
        from wmaplint.cel.budget import charge
        from wmaplint.cel.checker import check_expression

        result = check_expression(expression, {"self": self_type, "oldSelf": self_type}, "string")
        if (
            result.ok
            and result.compiled is not None
            and result.compiled.serialized is not None
            and result.compiled.ast is not None
            and charge(budget, result.cost_table, result.checked_ast, result.node_types, sizes) is None
        ):
            try:
                value = _program(expression, result.compiled.serialized).eval(data={"self": cel_self}).value()
            except Exception:
                value = None
            if (
                isinstance(value, str)
                and value.strip()
                and "\n" not in value.strip()
                and len(value.strip().encode()) <= MAX_MESSAGE_BYTES
            ):
                return value.strip()
    message = rule.get("message")
    if isinstance(message, str) and message.strip():
        return message.strip()
    return f"failed rule: {text.strip()}"
