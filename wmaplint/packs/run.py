"""Run loaded pack rules on one definition: JSONPath finds the nodes, CEL judges each with ``self`` and
``root``."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.cel import pieces
from wmaplint.cel.pieces import Piece, sizes_with
from wmaplint.definition.format import DEFINITION_SCHEMA
from wmaplint.diagnostics import SHIPPED_PACKS, Diagnostic, RelatedLocation
from wmaplint.packs import paths
from wmaplint.packs.loader import VARIABLES, PackCel, PackRule
from wmaplint.source import Node, find_node, to_python

if TYPE_CHECKING:
    from wmaplint.cel.budget import CostBudget
    from wmaplint.cel.evaluate import Keep
    from wmaplint.cel.sizes import SizeIndex
    from wmaplint.source.plain import Json

MAX_MATCHES = 10_000  # per rule and definition
MAX_MESSAGE_CHARS = 1_000

_programs: OrderedDict[bytes, Any] = memo.kept(__name__, "_programs", OrderedDict(), pure=True)
_lock = threading.Lock()


def _program(serialized: bytes) -> Any:
    with _lock:
        found = _programs.get(serialized)
        if found is not None:
            _programs.move_to_end(serialized)
            return found
    from wmaplint.cel.env import run_env

    program = run_env(VARIABLES).deserialize(serialized)
    with _lock:
        _programs[serialized] = program
        if len(_programs) > 1024:
            _programs.popitem(last=False)
    return program


def _evaluate(program: PackCel, cel_self: Any, cel_root: Any, sizes: Mapping[str, SizeIndex],
              budget: CostBudget, checked: bool = False) -> tuple[Any, str | None]:
    """(value, None) or (None, why it was not evaluated or failed). The Python evaluator runs what it can;
    the CEL runtime, imported only then, what it cannot. ``checked``: both values are known to fit the
    evaluator (wmaplint.cel.interpret.fits)."""
    from wmaplint.cel.budget import charge
    from wmaplint.cel.evaluate import _runtime_message

    refused = charge(budget, lambda: program.costs, lambda: program.checked, program.node_types, sizes)
    if refused is not None:
        return None, refused
    interpreted = program.interpreted
    recorded = program.compile_afresh is not None
    if interpreted is not None:
        from wmaplint.cel.interpret import EvaluationError, OverBound, Unsupported

        try:
            value = interpreted.evaluate({"self": cel_self, "root": cel_root}, checked=checked,
                                         admitted=budget.admitted if recorded else None)
        except EvaluationError as error:
            return None, _runtime_message(error.text)
        except (Unsupported, OverBound):
            pass
        else:
            if not isinstance(value, (list, dict)):  # a finding shows those as the runtime renders them
                return value, None
    if recorded:  # read from the cache: the CEL runtime runs only what this process compiled
        fresh = program.afresh
        if fresh is None:
            return None, "evaluation failed"
        budget.refund()
        return _evaluate(fresh, cel_self, cel_root, sizes, budget, checked)
    try:
        value = _program(program.serialized).eval(data={"self": cel_self, "root": cel_root})
        type_name = str(getattr(value.type(), "name", lambda: value.type())())
        if "ERROR" in type_name.upper():
            return None, _runtime_message(str(value.value()))
        return value.value(), None
    except Exception as exc:  # odd data or a native failure is a finding about the rule, not a crash
        return None, _runtime_message(str(exc)) or "evaluation failed"


def _cel_value(location: tuple[str | int, ...], value: Json, keep: Keep | None = None) -> Any:
    from wmaplint.cel.evaluate import to_cel_value

    schema = paths.schema_at(location)
    return to_cel_value(schema, value, paths.TYPES, keep=keep) if schema is not None else value


COMPONENT_SCHEMA = paths.schema_at(("spec", "structureDefinition", "childComponents", 0))


def _root_value(data: Json) -> tuple[Any, SizeIndex]:
    """The definition's CEL value and its sizes, what ``_cel_value`` and ``SizeIndex`` give, with its child
    components converted and sized by an earlier definition reused where their data is the same: an edit in
    the editor changes one component of many. (Other lists' items are small: looking them up costs more
    than converting them.)"""
    reused: dict[int, Piece] = {}

    def keep(item_schema: object, item: Any, depth: int, convert: Callable[[], Any]) -> Any:
        if paths.TYPES.resolve(item_schema) is not COMPONENT_SCHEMA:
            return convert()
        return pieces.converted(item_schema, item, depth, convert, reused)

    value = _cel_value((), data, keep)
    return value, sizes_with(value, reused)


_MISSING = object()
MAX_SHARED_DEPTH = 50  # the conversion stops at a depth limit; deeper selections are converted on their own


def _within(cel_root: Any, location: tuple[str | int, ...]) -> Any:
    """The converted root's part at ``location``: what ``_cel_value(location, ...)`` gives, without
    converting the selected subtree again (the root is converted once per definition for ``root``).
    Property names are spelled as CEL spells them, map keys as they are; ``_MISSING`` when the conversion
    left the node out (a null, an undeclared field), which is then converted on its own."""
    from wmaplint.cel.types import escape

    if len(location) > MAX_SHARED_DEPTH:
        return _MISSING
    node: Any = DEFINITION_SCHEMA
    part_of: Any = cel_root
    for part in location:
        node = paths.TYPES.resolve(node) if node is not None else None
        if node is None:
            return _MISSING
        if isinstance(part, int):
            if not isinstance(part_of, list) or not 0 <= part < len(part_of):
                return _MISSING
            node, part_of = node.get("items"), part_of[part]
            continue
        props = node.get("properties")
        if isinstance(props, Mapping):
            name = escape(part) if part in props else None
            node = props.get(part)
        else:
            name, node = part, node.get("additionalProperties")
        if name is None or not isinstance(part_of, dict) or name not in part_of:
            return _MISSING
        part_of = part_of[name]
    return part_of


def _message(rule: PackRule, cel_self: Any, cel_root: Any, sizes: Mapping[str, SizeIndex],
             budget: CostBudget, checked: bool) -> str:
    if rule.message_program is not None:
        value, error = _evaluate(rule.message_program, cel_self, cel_root, sizes, budget, checked)
        if error is None and isinstance(value, str) and value.strip():
            text = " ".join(value.split())
            return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "\u2026"
    return rule.message


@memo.lru_cache(maxsize=64)
def _pack_location(pack_path: str) -> tuple[str, str | None]:
    """Where a pack lies for reporters: relative to the shipped rule packs (never a machine path), or the
    user's own file relative to the working directory when it lies below it (a configuration names its packs
    by absolute paths), else as it was given."""
    from wmaplint.shipped_data import shipped

    try:
        inside = Path(pack_path).resolve().relative_to(shipped("packs").resolve())
    except (ValueError, OSError, RuntimeError):
        try:
            return Path(os.path.abspath(pack_path)).relative_to(Path.cwd()).as_posix(), None
        except (ValueError, OSError):
            return pack_path, None
    return inside.as_posix(), SHIPPED_PACKS


def _assertion_at(rule: PackRule) -> RelatedLocation:
    path, base = _pack_location(rule.pack_path)
    return RelatedLocation(path, rule.assert_span, f"{rule.id} assertion", base=base)


def run_rules(rules: list[PackRule], root_node: Node, path: str) -> Iterator[Diagnostic]:
    """Findings of every rule on one positioned definition (path is the definition's file).

    The API server's CEL cost limits apply to pack rules too: each evaluation's cost is bounded before it runs
    (at most 1,000,000), and all evaluations on one definition share a budget of 10,000,000; an evaluation
    past either is a finding of its rule that says so, and past the budget no further evaluation runs."""
    from wmaplint.cel.budget import CostBudget
    from wmaplint.cel.interpret import fits
    from wmaplint.cel.sizes import SizeIndex

    data = to_python(root_node)
    cel_root, root_sizes = _root_value(data)
    # What the Python evaluator checks of its values, once for every part of the definition
    root_fits = fits(cel_root)
    budget = CostBudget()
    for rule in rules:
        cel_root_read = _read_part(rule, cel_root)
        related = (_assertion_at(rule),)
        pack, pack_base = _pack_location(rule.pack_path)
        seen: set[tuple[str | int, ...]] = set()
        for given in rule.givens:
            try:
                matches = list(_bounded(given.query.finditer(data)))
            except Exception:  # hostile nesting (JSONPathRecursionError, RecursionError): select nothing
                continue
            for location, value in matches:
                if location in seen:
                    continue
                seen.add(location)
                node = find_node(root_node, location)
                if node is None:
                    continue
                cel_self = _within(cel_root, location)
                checked = root_fits and cel_self is not _MISSING  # the parts of a checked root are checked
                if cel_self is _MISSING:
                    cel_self = _cel_value(location, value)
                sizes = {"self": SizeIndex(cel_self), "root": root_sizes}
                value, error = _evaluate(rule.assertion, cel_self, cel_root_read, sizes, budget, checked)
                if error is not None:
                    message = f"{rule.message} ({_why_not(error)})"
                elif value is True:
                    continue
                elif value is False:
                    message = _message(rule, cel_self, cel_root_read, sizes, budget, checked)
                else:
                    message = f"{rule.message} (the assertion gave {value!r}, not a bool)"
                yield Diagnostic(
                    rule=rule.id,
                    severity=rule.severity,
                    message=message,
                    path=path,
                    span=node.span,
                    related=related,
                    data={"pack": pack, "packBase": pack_base, "name": rule.name, "given": given.text},
                )
                if budget.exhausted:
                    return


def _read_part(rule: PackRule, cel_root: Any) -> Any:
    """The part of the definition a rule's expressions can read: the runtime converts ``root`` whole on every
    evaluation, so a rule run on each of n components would otherwise pay n times for the whole definition."""
    from wmaplint.cel.parts import merged, pruned

    tree = rule.assertion.root_reads
    if rule.message_program is not None:
        tree = merged(tree, rule.message_program.root_reads)
    return pruned(cel_root, tree)


def _why_not(error: str) -> str:
    """A cost refusal (the assertion did not run) or a runtime error (it ran and failed)."""
    if error.startswith("not evaluated"):
        return f"the assertion was {error}"
    return f"the assertion could not be evaluated: {error}"


def _bounded(found: Iterator[Any]) -> Iterator[Any]:
    for count, item in enumerate(found):
        if count >= MAX_MATCHES:
            return
        yield item
