"""Read a rule pack: positioned YAML -> schema check -> JSONPath and CEL compiled and typed against the
format.

Every problem is a finding (``wmaplint.packs.problems``) whose path is the pack file, at the line of the
offending value; a rule with a problem is left out of the pack (the other rules still run).
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.cel.budget import CostTable
from wmaplint.dataclass import dataclass, field
from wmaplint.definition.format import DEFINITION_SCHEMA
from wmaplint.diagnostics import Rule, Severity, Span
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.packs import jsonpath, paths, record
from wmaplint.packs.problems import BadAssert, BadGiven, DuplicateRuleId, PackInvalid
from wmaplint.packs.schema import API_VERSION, KIND, PACK_SCHEMA
from wmaplint.source import (
    InputError,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    find_node,
    load_text,
    read_path,
    to_python,
)

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

MAX_PROBLEMS = 100  # per pack: a hopeless file should not flood the report
# A pack is read as a resolved document is (``resolve.loading``), not as a definition file: 16 MB of keys took
# 21 s to read and check against the pack schema; the shipped pack is 5 kB.
MAX_PACK_BYTES = 1 << 20
VARIABLES = ("self", "root")  # of every pack expression: the selected node and the whole definition


@dataclass(frozen=True)
class CompiledGiven:
    text: str
    query: jsonpath.Query
    node: Node


@dataclass(frozen=True)
class PackCel:
    """A compiled pack expression: the program, the part of ``root`` it reads, its cost bounds at a few data
    sizes and its plan for the Python evaluator, all worked out from the checked AST when it compiles and
    remembered with the program. The AST itself is needed again only for a bound finer than the table's:
    decoded from the program then (a remembered program's node types are the checker's own)."""

    serialized: bytes
    root_reads: Any  # wmaplint.cel.parts tree
    costs: CostTable
    plan: Any  # wmaplint.cel.plan, None when the expression has none
    decoded: Any = None  # wmaplint.cel.ast.CheckedAst, when compiled in this process
    node_types: Mapping[int, Any] = field(default_factory=dict)
    # Read from the user cache (data someone else may have written): it runs only in the Python evaluator,
    # held to the cost it is admitted with, and this compiles the expression afresh where it cannot.
    compile_afresh: Callable[[], PackCel | None] | None = field(default=None, compare=False)

    @classmethod
    def compiled(cls, serialized: bytes, checked: Any, node_types: Mapping[int, Any]) -> PackCel:
        from wmaplint.cel.budget import cost_table
        from wmaplint.cel.plan import plan_of
        from wmaplint.cel.reads import reads

        return cls(serialized, reads(checked, "root"), cost_table(checked, node_types), plan_of(checked),
                   checked, node_types)

    @functools.cached_property
    def checked(self) -> Any:
        if self.decoded is not None:
            return self.decoded
        from wmaplint.cel.ast import decode_checked

        return decode_checked(self.serialized)

    @functools.cached_property
    def afresh(self) -> PackCel | None:
        """The expression compiled in this process (itself when it was), None when it does not compile."""
        return self if self.compile_afresh is None else self.compile_afresh()

    @functools.cached_property
    def interpreted(self) -> Any:
        """The expression ready for the Python evaluator (wmaplint.cel.interpret), None when outside its
        subset."""
        from wmaplint.cel.interpret import program_of

        return program_of(self.plan, VARIABLES) if self.plan is not None else None


@dataclass(frozen=True)
class PackRule:
    """One loaded rule; ``assert_node`` and friends are positions in the pack file for related locations."""

    id: str
    name: str
    severity: Severity
    message: str
    docs: str
    givens: tuple[CompiledGiven, ...]
    assert_text: str
    assertion: PackCel
    pack_path: str
    assert_span: Span
    id_span: Span
    message_expression: str | None = None
    message_program: PackCel | None = None

    def as_rule(self) -> Rule:
        """The rule in the shape reporters document (SARIF rule metadata)."""
        return Rule(
            id=self.id,
            name=self.name,
            severity=self.severity,
            summary=self.message,
            why=self.docs,
            bad="",
            good="",
            tags=("rule-pack",),
        )


@dataclass
class LoadedPack:
    path: str
    name: str
    rules: list[PackRule] = field(default_factory=list)
    problems: list[FileFinding] = field(default_factory=list)


def _point(node: Node | None, offset: int | None, word: str = "") -> Span:
    """The span of a character (or of ``word`` from there on) inside a scalar, else the node's."""
    if node is None:
        return Span.point(1, 1)
    if isinstance(node, ScalarNode) and offset is not None and isinstance(node.value, str):
        offset = max(0, min(offset, max(len(node.value) - 1, 0)))
        found = node.value.find(word, offset) if word else -1
        if found >= 0:
            return node.span_of(found, found + len(word))
        return node.span_of(offset, offset + 1)
    return node.span


def _word(message: str) -> str:
    found = re.match(r"undefined field '([^']+)'", message)
    return found.group(1) if found else ""


def _schema_problems(data: Json, root: Node, path: str) -> list[FileFinding]:
    from jsonschema import Draft202012Validator

    problems: list[FileFinding] = []
    for error in sorted(
        Draft202012Validator(PACK_SCHEMA).iter_errors(data), key=lambda e: list(map(str, e.path))
    ):
        location = tuple(error.absolute_path)
        node = find_node(root, location)
        message = _schema_message(error)
        if error.validator == "additionalProperties" and isinstance(node, MappingNode):
            allowed = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
            extra = [k for k in node.pairs if k[0].value not in allowed]
            if extra:
                node = extra[0][0]
                message = f"unknown field {extra[0][0].value!r} (allowed: {', '.join(sorted(allowed))})"
        elif error.validator == "not" and location and location[-1] == "id":
            message = "the rule id uses the reserved WM prefix; choose your own, e.g. ACME001"
        elif error.validator == "pattern" and location and location[-1] == "id":
            message = "a rule id must be upper-case letters and digits, e.g. ACME001"
        elif error.validator == "const":
            message = f"{'.'.join(map(str, location))} must be {error.validator_value!r}"
        where = ".".join(str(p) for p in location) or "the pack"
        span = node.span if node is not None else Span.point(1, 1)
        problems.append(PackInvalid(path, span, f"invalid rule pack: {where}: {message}"))
    return problems


_JSON_TYPES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "null"}


def _schema_message(error: Any) -> str:
    """What a schema error means, in words that never quote the offending value: a file that is no rule pack
    at all (a key file, an environment file) must not have its content copied into a report."""
    rule, expected = error.validator, error.validator_value
    if rule == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return "must be " + " or ".join(_JSON_TYPES.get(str(k), str(k)) for k in kinds)
    if rule == "enum":
        return "must be one of " + ", ".join(map(str, expected))
    if rule == "required":
        return str(error.message)  # names the missing key of the schema, nothing of the file
    if rule in ("minLength", "minItems"):
        return "must not be empty"
    if rule == "pattern":
        return f"must match {expected}"
    if rule == "oneOf":
        return "must be a string or a list of strings"
    return f"does not satisfy {rule}"


def _compile_given(
    text: str, node: Node, path: str, rule_id: str
) -> tuple[CompiledGiven | None, paths.StaticPath, FileFinding | None]:
    try:
        query = jsonpath.compile_query(text)
    except (jsonpath.QueryError, RecursionError) as exc:
        offset = exc.offset if isinstance(exc, jsonpath.QueryError) else None
        reason = str(exc) or "invalid JSONPath"
        problem = BadGiven(path, _point(node, offset), rule_id, text, reason, parsed=False)
        return None, paths.StaticPath(None), problem
    static = paths.walk(query)
    if static.problem:
        return None, static, BadGiven(path, node.span, rule_id, text, static.problem, parsed=True)
    return CompiledGiven(text, query, node), static, None


def root_type() -> Any:
    return paths.TYPES.type_of(DEFINITION_SCHEMA, "root")


def _check_cel(
    text: str, node: Node, self_types: list[Any], expect: str, what: str, path: str, rule_id: str
) -> tuple[PackCel | None, list[FileFinding]]:
    from wmaplint.cel import types as t
    from wmaplint.cel.checker import check_expression

    compiled: PackCel | None = None
    for self_type in self_types or [t.DYN]:
        result = check_expression(text, {"self": self_type, "root": root_type()}, expect)
        if result.problems:
            return None, [BadAssert(path, _point(node, p.offset, _word(p.message)), rule_id, what, p.message)
                          for p in result.problems]
        if result.compiled is None or result.compiled.ast is None or result.compiled.serialized is None:
            return None, [BadAssert(path, node.span, rule_id, what, None)]
        compiled = PackCel.compiled(result.compiled.serialized, result.compiled.ast, result.node_types)
    return compiled, []


def _load_rule(
    index: int, raw: Mapping[str, Any], node: MappingNode, path: str,
    recorded: tuple[record.Program, record.Program | None] | None = None,
) -> tuple[PackRule | None, list[FileFinding]]:
    """One rule; ``recorded`` holds its programs when this pack text compiled cleanly before."""
    rule_id = raw["id"]
    given_node = node.get("given")
    assert given_node is not None
    givens_raw = [raw["given"]] if isinstance(raw["given"], str) else list(raw["given"])
    given_nodes = (
        [given_node]
        if isinstance(given_node, ScalarNode)
        else (given_node.items if isinstance(given_node, SequenceNode) else [])
    )
    problems: list[FileFinding] = []
    compiled: list[CompiledGiven] = []
    self_types = []
    for text, gnode in zip(givens_raw, given_nodes, strict=False):
        found, static, problem = _compile_given(text, gnode, path, rule_id)
        if problem is not None:
            problems.append(problem)
        elif found is not None:
            compiled.append(found)
            self_types.append(static.self_type())
    if problems:
        return None, problems
    assert_node = node.get("assert")
    assert assert_node is not None
    message_expression = raw.get("messageExpression")
    cel_problems: list[FileFinding] = []
    assertion: PackCel | None
    message_program: PackCel | None = None
    if recorded is not None and (recorded[1] is None) == (message_expression is None):
        def cached(program: record.Program, text: str, at: Node, expect: str, what: str) -> PackCel:
            return PackCel(*program, compile_afresh=functools.partial(
                _afresh, text, at, self_types, expect, what, path, rule_id))

        assertion = cached(recorded[0], raw["assert"], assert_node, "bool", "assert")
        message_node = node.get("messageExpression")
        if recorded[1] is not None and message_node is not None:
            message_program = cached(recorded[1], str(message_expression), message_node, "string",
                                     "messageExpression")
    else:
        assertion, cel_problems = _check_cel(
            raw["assert"], assert_node, self_types, "bool", "assert", path, rule_id
        )
    if message_expression is not None and message_program is None:
        mnode = node.get("messageExpression")
        assert mnode is not None
        message_program, more = _check_cel(
            message_expression, mnode, self_types, "string", "messageExpression", path, rule_id
        )
        cel_problems += more
    if cel_problems or assertion is None:
        return None, cel_problems
    return PackRule(
        id=rule_id,
        name=raw.get("name") or rule_id.lower(),
        severity=Severity.parse(raw["severity"]),
        message=raw["message"],
        docs=raw["docs"],
        givens=tuple(compiled),
        assert_text=raw["assert"],
        assertion=assertion,
        pack_path=path,
        assert_span=assert_node.span,
        id_span=node.get("id").span if node.get("id") is not None else node.span,  # type: ignore[union-attr]  # not None: asked
        message_expression=message_expression,
        message_program=message_program,
    ), []


def _afresh(text: str, node: Node, self_types: list[Any], expect: str, what: str, path: str,
            rule_id: str) -> PackCel | None:
    return _check_cel(text, node, self_types, expect, what, path, rule_id)[0]


def _remembered(program: PackCel) -> record.Program:
    return program.serialized, program.root_reads, program.costs, program.plan


def _is_pack(data: object) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND


def load_pack_text(text: str, path: str) -> LoadedPack:
    """Load a pack from its text; never raises for bad input (problems are in ``.problems``)."""
    source = load_text(text, path)
    pack = LoadedPack(path=path, name=os.path.basename(path))
    for problem in diagnostics_of(source.problems):
        message = f"rule pack is not valid YAML: {problem.message}"
        pack.problems.append(PackInvalid(path, problem.span, message))
    if source.refused is not None:
        pack.problems.append(PackInvalid(path, Span.point(1, 1), f"rule pack has {source.refused}"))
    if source.problems or source.refused is not None:
        return pack
    documents = [d for d in source.documents if d.root is not None]
    if len(documents) != 1:
        pack.problems.append(PackInvalid(path, Span.point(1, 1),
                                         f"a rule pack is one YAML document, found {len(documents)}"))
        return pack
    root = documents[0].root
    assert root is not None
    data = to_python(root)
    recorded = record.read(text)
    schema_problems = [] if recorded is not None else _schema_problems(data, root, path)
    if schema_problems:
        pack.problems.extend(schema_problems[:MAX_PROBLEMS])
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("rules"), list)
            or not _is_pack(data)
            or data.get("apiVersion") != API_VERSION
        ):
            return pack
    bad_rules = {p.span for p in schema_problems}
    name = data.get("metadata", {}).get("name") if isinstance(data.get("metadata"), dict) else None
    pack.name = name if isinstance(name, str) else pack.name
    rules_node = find_node(root, ("rules",))
    seen: dict[str, Span] = {}
    for index, raw in enumerate(data["rules"]):
        node = find_node(rules_node, (index,))
        if not isinstance(node, MappingNode) or not isinstance(raw, dict):
            continue
        if any(node.span.start_line <= s.start_line <= node.span.end_line for s in bad_rules):
            continue  # the schema already explained what is wrong with this rule
        id_node = node.get("id")
        rule_id = raw["id"]
        if rule_id in seen:
            span = id_node.span if id_node is not None else node.span
            pack.problems.append(DuplicateRuleId(path, span, rule_id, first_line=seen[rule_id].start_line))
            continue
        seen[rule_id] = id_node.span if id_node is not None else node.span
        rule, problems = _load_rule(index, raw, node, path, (recorded or {}).get(rule_id))
        pack.problems.extend(problems)
        if rule is not None:
            pack.rules.append(rule)
        if len(pack.problems) >= MAX_PROBLEMS:
            break
    if recorded is None and not schema_problems:
        record.write(text, {
            r.id: (_remembered(r.assertion), _remembered(r.message_program) if r.message_program else None)
            for r in pack.rules
        })
    return pack


_cache: dict[str, tuple[tuple[int, int], LoadedPack]] = memo.kept(__name__, "_cache", {})
_cache_lock = threading.Lock()


def load_pack(path: str) -> LoadedPack:
    """Load a pack file, cached while the file is unchanged (size and mtime)."""
    try:
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = (-1, -1)
    with _cache_lock:
        cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        text = read_path(path, MAX_PACK_BYTES)
    except InputError as exc:
        pack = LoadedPack(path=path, name=os.path.basename(path))
        pack.problems.append(PackInvalid(path, Span.point(1, 1), f"cannot read rule pack: {exc.reason}"))
        return pack
    pack = load_pack_text(text, path)
    with _cache_lock:
        _cache[path] = (stamp, pack)
    return pack
