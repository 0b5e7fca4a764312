"""Syntax tree of a gojq program.

Every node is an immutable dataclass with ``start`` and ``end``: character offsets into the expression text
(``end`` exclusive) covering the node's whole source text. Parentheses are not kept as nodes: ``(a,
b)`` is the
``Comma`` node itself, whose span covers ``a, b`` (without the parentheses).

Postfix nodes (``Field``, ``Index``, ``Slice``, ``Iterate``) have a ``target``: the term they apply to, or
``None`` when they apply to the input ``.`` directly (``.a``, ``.[0]``, ``.[]``). Their
``start``..``end`` covers
the whole chain from the first term; ``seg_start`` is where the node's own suffix begins (the ``.``
of ``.name``
or the ``[`` of ``[0]``), so ``.spec.replicatedJobs[]`` has an ``Iterate`` with ``seg_start`` at ``[`` whose
target is a ``Field`` named ``replicatedJobs`` with ``name_start``/``name_end`` around ``replicatedJobs``.

Use ``children(node)`` for the direct sub-nodes in source order and ``walk(node)`` for an iterative pre-order
traversal (no recursion, safe on deep trees).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from wmaplint import memo

JsonScalar = None | bool | int | float | str

if TYPE_CHECKING:
    from dataclasses import dataclass
else:

    def dataclass(*, frozen: bool, slots: bool) -> Callable[[type], type]:
        """What ``dataclasses.dataclass(frozen=True, slots=True)`` makes of a node class, at a fraction of the
        import cost: generating methods one ``exec`` per method per class cost ~20-40 ms for these 34
        classes. Here the class is rebuilt with slots for its annotated fields, and ``_finish_nodes`` gives
        every class the ``__init__``, ``__eq__`` and ``__hash__`` written out in ``node_methods`` (compiled
        with the package), or compiles the same text when a class has changed since. Type checkers see the
        real decorator."""
        return _node_class


_NODE_CLASSES: list[type] = []


def _node_class(cls: type) -> type:
    own = tuple(cls.__dict__.get("__annotations__", {}))
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__", *own)}
    namespace["__slots__"] = own
    namespace["_defaults"] = {k: cls.__dict__[k] for k in own if k in cls.__dict__}
    built = type(cls.__name__, cls.__bases__, namespace)
    built.__qualname__ = cls.__qualname__
    _NODE_CLASSES.append(built)
    return built


def _all_fields(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in getattr(klass, "__slots__", ()):
            if name not in names:
                names.append(name)
    return tuple(names)


def _defaults_of(cls: type) -> dict[str, Any]:
    return {k: v for klass in reversed(cls.__mro__) for k, v in getattr(klass, "_defaults", {}).items()}


def methods_source() -> str:
    """The text of ``wmaplint.jq.node_methods``: every node class's ``__init__``, ``__eq__`` and ``__hash__``,
    with the fields and defaults they were written for."""
    lines = ['"""The methods of the syntax tree\'s node classes, written by ``wmaplint.jq.ast``.',
             "",
             "Do not edit: `python -m wmaplint.jq.ast` writes it again after a node class changes. Compiled",
             "once with the package, not at every start (an ``exec`` of this text cost 5-10 ms a process).",
             '"""',
             "",
             "# ruff: noqa",
             "# mypy: ignore-errors",
             "_set = object.__setattr__",
             "FIELDS = {"]
    lines += [f"    {cls.__name__!r}: {_all_fields(cls)!r}," for cls in _NODE_CLASSES]
    lines += ["}", "DEFAULTS = {"]
    lines += [f"    {cls.__name__!r}: {_defaults_of(cls)!r}," for cls in _NODE_CLASSES if _defaults_of(cls)]
    lines.append("}")
    for cls in _NODE_CLASSES:
        name, fields, defaults = cls.__name__, _all_fields(cls), _defaults_of(cls)
        params = ", ".join(f"{f}={defaults[f]!r}" if f in defaults else f for f in fields)
        values = "".join(f"self.{f}, " for f in fields)
        others = "".join(f"other.{f}, " for f in fields)
        lines += [
            "",
            "",
            f"def init_{name}(self, {params}):",
            *(f"    _set(self, {f!r}, {f})" for f in fields),
            "",
            "",
            f"def eq_{name}(self, other):",
            "    if other.__class__ is not self.__class__:",
            "        return NotImplemented",
            f"    return ({values}) == ({others})",
            "",
            "",
            f"def hash_{name}(self):",
            f"    return hash(({values}))",
        ]
    lines += ["", "", "METHODS = {"]
    lines += [f"    {f'{kind}_{cls.__name__}'!r}: {kind}_{cls.__name__},"
              for cls in _NODE_CLASSES for kind in ("init", "eq", "hash")]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _methods() -> dict[str, Any]:
    """The written methods (``node_methods``) when they were written for these classes, else the same text
    compiled now."""
    from wmaplint.jq import node_methods

    fields = {cls.__name__: _all_fields(cls) for cls in _NODE_CLASSES}
    defaults = {cls.__name__: _defaults_of(cls) for cls in _NODE_CLASSES if _defaults_of(cls)}
    written = (getattr(node_methods, "FIELDS", None), getattr(node_methods, "DEFAULTS", None))
    if written == (fields, defaults) and hasattr(node_methods, "METHODS"):
        return node_methods.METHODS
    scope: dict[str, Any] = {}
    exec(methods_source(), scope)  # noqa: S102 - source built from the classes' own field names
    methods: dict[str, Any] = scope["METHODS"]
    return methods


def _finish_nodes() -> None:
    """Give every node class its methods (see ``dataclass`` above)."""
    methods = _methods()
    for cls in _NODE_CLASSES:
        name = cls.__name__
        # mypy types the classes by their declared fields; these generated methods are the same signatures
        cls.__init__ = methods[f"init_{name}"]  # type: ignore[misc]  # assigning to a method
        cls.__eq__ = methods[f"eq_{name}"]  # type: ignore[method-assign]  # generated above
        cls.__hash__ = methods[f"hash_{name}"]  # type: ignore[method-assign]  # generated above
        cls.__match_args__ = _all_fields(cls)  # type: ignore[attr-defined,misc]  # not declared on Node


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every node. ``start``/``end``: offsets into the expression text, end exclusive."""

    start: int
    end: int

    if not TYPE_CHECKING:

        def __setattr__(self, name: str, value: object) -> None:
            raise AttributeError(f"cannot assign to field {name!r}: nodes are immutable")

        def __delattr__(self, name: str) -> None:
            raise AttributeError(f"cannot delete field {name!r}: nodes are immutable")

        def __repr__(self) -> str:
            fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in _all_fields(type(self)))
            return f"{type(self).__qualname__}({fields})"


# --- paths and navigation -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Identity(Node):
    """``.``: the input value."""


@dataclass(frozen=True, slots=True)
class RecurseDefault(Node):
    """``..``: recursive descent (compiled by gojq as a call to ``recurse/0``)."""


@dataclass(frozen=True, slots=True)
class Field(Node):
    """``.name`` or ``."name"`` (also ``target.name``).

    ``target``: the term indexed, ``None`` for the input ``.``. ``name``: the key (already unescaped).
    ``optional``: a ``?`` directly follows this suffix. ``seg_start``: offset of this suffix's ``.``.
    ``name_start``/``name_end``: the key as written (identifier, or string literal with its quotes).
    """

    target: Node | None
    name: str
    optional: bool
    seg_start: int
    name_start: int
    name_end: int


@dataclass(frozen=True, slots=True)
class Index(Node):
    """``.[index]`` or ``target[index]`` (also ``target.[index]`` and ``."a\\(x)"``, a dynamic key).

    ``target``: the term indexed, ``None`` for ``.``. ``index``: the index query (any query; a comma gives one
    index per output). ``optional``: followed by ``?``. ``seg_start``: offset of the ``[`` (or of the ``.``).
    """

    target: Node | None
    index: Node
    optional: bool
    seg_start: int


@dataclass(frozen=True, slots=True)
class Slice(Node):
    """``.[lower:upper]``, ``.[lower:]``, ``.[:upper]`` on ``target`` (``None`` for ``.``).

    ``lower``/``upper``: the bound queries, ``None`` when omitted. ``optional``: followed by ``?``.
    ``seg_start``: offset of the ``[``.
    """

    target: Node | None
    lower: Node | None
    upper: Node | None
    optional: bool
    seg_start: int


@dataclass(frozen=True, slots=True)
class Iterate(Node):
    """``.[]`` / ``target[]``: every element or value. ``optional``: ``[]?``. ``seg_start``: offset
    of ``[``."""

    target: Node | None
    optional: bool
    seg_start: int


@dataclass(frozen=True, slots=True)
class Optional(Node):
    """``term?`` where the term is not an index suffix (``f?``, ``(q)?``, ``..?``, ``.a??``): ``try term``."""

    term: Node


# --- operators ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pipe(Node):
    """``left | right``."""

    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Comma(Node):
    """``left, right``: the outputs of left, then those of right."""

    left: Node
    right: Node


ASSIGN_OPS = ("=", "|=", "+=", "-=", "*=", "/=", "%=", "//=")


@dataclass(frozen=True, slots=True)
class Binary(Node):
    """``left op right`` for ``op`` one of ``// or and == != < <= > >= + - * / %`` (alternative, logic,
    comparison, arithmetic).

    ``op_start``: offset of the operator token.
    """

    op: str
    left: Node
    right: Node
    op_start: int


@dataclass(frozen=True, slots=True)
class Neg(Node):
    """Unary ``-term`` (``op == "-"``) or gojq's unary ``+term`` (``op == "+"``)."""

    term: Node
    op: str = "-"


@dataclass(frozen=True, slots=True)
class Assign(Node):
    """``left op right`` for ``op`` in ``ASSIGN_OPS``. ``op_start``: offset of the operator token."""

    op: str
    left: Node
    right: Node
    op_start: int


# --- values ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A number, a string without interpolation, ``true``, ``false`` or ``null``.

    ``value``: the Python value (``int`` for integer literals, ``float`` otherwise; strings unescaped); see
    ``parser.number_value`` for integer literals too long to convert exactly.
    """

    value: JsonScalar


@dataclass(frozen=True, slots=True)
class StringInterp(Node):
    """A string with ``\\(...)`` interpolations, or any string preceded by a format (``@base64 "x\\(.a)"``).

    ``parts``: literal text (``str``) and interpolated queries (``Node``) in order. ``format``: the format
    name without ``@`` (``"base64"``), ``None`` for a plain string.
    """

    parts: tuple[str | Node, ...]
    format: str | None


@dataclass(frozen=True, slots=True)
class Format(Node):
    """``@name`` applied to ``.`` (``name`` without the ``@``)."""

    name: str


@dataclass(frozen=True, slots=True)
class ArrayCons(Node):
    """``[body]``; ``body`` is ``None`` for ``[]``."""

    body: Node | None


@dataclass(frozen=True, slots=True)
class ObjectEntry(Node):
    """One entry of an object construction.

    ``key_kind``: ``"ident"`` (identifier or keyword, ``key`` is a string ``Literal``), ``"var"`` (``$x``,
    ``key`` is a ``VarRef``: its value is the key), ``"string"`` (``key`` is a ``Literal`` or
    ``StringInterp``), ``"expr"`` (``(query)``, ``key`` is that query).
    ``value``: the value query, or ``None`` for shorthand (``{a}``, ``{$x}``, ``{"a"}``).
    """

    key: Node
    value: Node | None
    key_kind: str


@dataclass(frozen=True, slots=True)
class ObjectCons(Node):
    """``{entries}``."""

    entries: tuple[ObjectEntry, ...]


@dataclass(frozen=True, slots=True)
class FuncCall(Node):
    """``name`` or ``name(arg1; arg2)``; ``name`` may be module-qualified (``m::f``).

    ``args``: argument queries. ``name_end``: end offset of the name (the name starts at ``start``).
    """

    name: str
    args: tuple[Node, ...]
    name_end: int

    @property
    def arity(self) -> int:
        return len(self.args)


@dataclass(frozen=True, slots=True)
class VarRef(Node):
    """``$name`` (``name`` without the ``$``; ``$ENV`` and ``$__loc__`` are ordinary references here)."""

    name: str


# --- destructuring patterns --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VarPattern(Node):
    """``$name`` in a pattern (``name`` without ``$``)."""

    name: str


@dataclass(frozen=True, slots=True)
class ArrayPattern(Node):
    """``[p1, p2, ...]`` (at least one element)."""

    elements: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ObjectPatternEntry(Node):
    """One entry of an object pattern.

    ``$name`` → ``var="name"``, ``key=None``, ``value=None``; ``$name: p`` → ``var`` and ``value``;
    ``ident: p`` / ``"str": p`` / ``(q): p`` → ``key`` (a ``Literal``, ``StringInterp`` or query)
    and ``value``.
    """

    var: str | None
    key: Node | None
    value: Node | None


@dataclass(frozen=True, slots=True)
class ObjectPattern(Node):
    """``{e1, e2, ...}`` (at least one entry)."""

    entries: tuple[ObjectPatternEntry, ...]


Pattern = VarPattern | ArrayPattern | ObjectPattern


# --- control -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bind(Node):
    """``source as p1 ?// p2 ... | body``. ``patterns``: one or more (``?//`` alternatives)."""

    source: Node
    patterns: tuple[Node, ...]
    body: Node


@dataclass(frozen=True, slots=True)
class Reduce(Node):
    """``reduce source as pattern (init; update)``."""

    source: Node
    pattern: Node
    init: Node
    update: Node


@dataclass(frozen=True, slots=True)
class Foreach(Node):
    """``foreach source as pattern (init; update[; extract])``; ``extract`` is ``None`` with two parts."""

    source: Node
    pattern: Node
    init: Node
    update: Node
    extract: Node | None


@dataclass(frozen=True, slots=True)
class If(Node):
    """``if cond then then_ (elif c then t)* [else else_] end``.

    ``elifs``: ``(cond, then)`` pairs. ``else_``: ``None`` when omitted (gojq then yields ``.``).
    """

    cond: Node
    then: Node
    elifs: tuple[tuple[Node, Node], ...]
    else_: Node | None


@dataclass(frozen=True, slots=True)
class Try(Node):
    """``try body [catch handler]``; ``catch`` is ``None`` without a handler."""

    body: Node
    catch: Node | None


@dataclass(frozen=True, slots=True)
class Label(Node):
    """``label $name | body`` (``name`` without ``$``)."""

    name: str
    body: Node


@dataclass(frozen=True, slots=True)
class Break(Node):
    """``break $name`` (``name`` without ``$``)."""

    name: str


@dataclass(frozen=True, slots=True)
class FuncDef(Node):
    """``def name(params): body; rest``.

    ``params``: parameter names as written, value parameters keep their ``$`` (``("f", "$x")``).
    ``rest``: the query the definition scopes over, ``None`` when the program ends after the definition.
    ``name_start``/``name_end``: the defined name.
    """

    name: str
    params: tuple[str, ...]
    body: Node
    rest: Node | None
    name_start: int
    name_end: int

    @property
    def arity(self) -> int:
        return len(self.params)


@dataclass(frozen=True, slots=True)
class Import(Node):
    """A module directive opening a program: ``module {...};``, ``import "path" as name;``,
    ``import "path" as $name;`` or ``include "path";`` (``directive`` is the keyword).

    ``path``: the module path (``None`` for ``module``). ``alias``: the ``as`` name (with ``$`` for data).
    ``rest``: the program after the directive (``None`` when nothing follows).
    """

    directive: str
    path: str | None
    alias: str | None
    rest: Node | None


# --- traversal ---------------------------------------------------------------------------------------------


def children(node: Node) -> tuple[Node, ...]:
    """Direct sub-nodes of ``node`` in source order."""
    out: list[Node] = []
    for name, shape in _CHILD_FIELDS[type(node)]:
        value = getattr(node, name)
        if value is None:
            continue
        if shape == _ONE:
            out.append(value)
        elif shape == _MANY:
            out.extend(item for item in value if isinstance(item, Node))  # strings sit among them too
        else:
            for pair in value:
                out.extend(item for item in pair if isinstance(item, Node))
    return tuple(out)


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree in pre-order (parents before children, children in source order)."""
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


# The tree listed last, and its nodes: the analyses of one expression go over them one after another.
_listed: tuple[Node, list[Node]] | None = None


def nodes(tree: Node) -> list[Node]:
    """Every node of the tree in pre-order, as ``walk`` gives them (do not change the list)."""
    global _listed
    if _listed is None or _listed[0] is not tree:
        _listed = (tree, list(walk(tree)))
    return _listed[1]


def _forget_listed() -> None:
    global _listed
    _listed = None


memo.register(__name__, "_listed", _forget_listed, pure=True)


_ONE, _MANY, _PAIRS = "one", "many", "pairs"


def _child_fields(cls: type) -> tuple[tuple[str, str], ...]:
    """The fields of a node class that hold nodes, by what their annotation says: a node (``_ONE``), a tuple
    of nodes among other things (``_MANY``), or a tuple of node pairs (``_PAIRS``)."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        for name, annotation in klass.__dict__.get("__annotations__", {}).items():
            if name in ("start", "end") or not ("Node" in annotation or "Entry" in annotation):
                continue
            if annotation.startswith("tuple[tuple["):
                found[name] = _PAIRS
            elif annotation.startswith("tuple["):
                found[name] = _MANY
            else:
                found[name] = _ONE
    return tuple(found.items())


_CHILD_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _register_fields() -> None:
    stack = [Node]
    while stack:
        cls = stack.pop()
        _CHILD_FIELDS[cls] = _child_fields(cls)
        stack.extend(cls.__subclasses__())


_finish_nodes()
_register_fields()

if __name__ == "__main__":  # write node_methods.py again
    from pathlib import Path

    Path(__file__).with_name("node_methods.py").write_text(methods_source(), encoding="utf-8")
