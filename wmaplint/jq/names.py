"""Name and scope resolution of a jq program, as gojq's compiler does it (GOJQ.md §2.9): the definition each
call reaches, and the calls, variables and labels that nothing defines where they are used; with the formats
and module directives the program names."""

from __future__ import annotations

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.jq import ast as jqast
from wmaplint.jq import builtins as B

# What a function parameter is in the scope of its body: a name that is called, not a definition.
_PARAMETER = "parameter"

Scope = dict[tuple[str, int], "jqast.FuncDef | str"]


@dataclass(frozen=True, slots=True)
class UnresolvedCall:
    """A call that neither gojq nor the program defines; ``visible``: the names and arities defined where it
    stands (definitions and parameters)."""

    call: jqast.FuncCall
    visible: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class UnboundVariable:
    """A ``$name`` read where nothing binds it; ``bound``: the variables bound there."""

    ref: jqast.VarRef
    bound: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FormatUse:
    """An ``@name`` format, with the offsets of its name."""

    name: str
    start: int
    end: int


@dataclass(eq=False)
class Names:
    """What resolving one program found."""

    # the first definition anywhere of each name and arity, visible or not
    definitions: dict[tuple[str, int], jqast.FuncDef] = field(default_factory=dict)
    unresolved_calls: list[UnresolvedCall] = field(default_factory=list)
    unbound_variables: list[UnboundVariable] = field(default_factory=list)
    unbound_breaks: list[jqast.Break] = field(default_factory=list)
    formats: list[FormatUse] = field(default_factory=list)
    imports: list[jqast.Import] = field(default_factory=list)
    # id of a call -> the program's definition it calls (builtins and parameters have none)
    _targets: dict[int, jqast.FuncDef] = field(default_factory=dict, repr=False)

    def definition_of(self, call: jqast.FuncCall) -> jqast.FuncDef | None:
        """The program's own definition that ``call`` (a call of the resolved tree) reaches, or None (a
        builtin, a parameter, unknown)."""
        return self._targets.get(id(call))


# The tree resolved last, and its names: the rules of an expression ask in turn, one after another.
_last: tuple[jqast.Node, Names] | None = None


def resolve(tree: jqast.Node) -> Names:
    """The names of the program ``tree`` resolved."""
    global _last
    if _last is not None and _last[0] is tree:
        return _last[1]
    names = Names()
    for node in jqast.nodes(tree):
        if isinstance(node, jqast.FuncDef):
            names.definitions.setdefault((node.name, node.arity), node)
    _Resolver(names).visit(tree, {}, frozenset(), frozenset())
    _last = (tree, names)
    return names


def _forget_last() -> None:
    global _last
    _last = None


memo.register(__name__, "_last", _forget_last, pure=True)


def pattern_variables(pattern: jqast.Node) -> set[str]:
    """The variables a destructuring pattern binds (without the `$`)."""
    found: set[str] = set()
    for node in jqast.walk(pattern):
        if isinstance(node, jqast.VarPattern):
            found.add(node.name)
        elif isinstance(node, jqast.ObjectPatternEntry) and node.var is not None:
            found.add(node.var)
    return found


def binds_anywhere(tree: jqast.Node, variable: str) -> bool:
    """Whether the program binds ``$variable`` anywhere (an `as`, `reduce` or `foreach` pattern, a `$`
    parameter)."""
    for node in jqast.nodes(tree):
        if isinstance(node, (jqast.Bind, jqast.Reduce, jqast.Foreach)):
            patterns = node.patterns if isinstance(node, jqast.Bind) else (node.pattern,)
            if any(variable in pattern_variables(p) for p in patterns):
                return True
        if isinstance(node, jqast.FuncDef) and f"${variable}" in node.params:
            return True
    return False


class _Resolver:
    def __init__(self, names: Names) -> None:
        self.names = names

    def visit(
        self, node: jqast.Node, funcs: Scope, variables: frozenset[str], labels: frozenset[str]
    ) -> None:
        """Resolve the calls, variables and labels under ``node``, given what is defined around it."""
        if isinstance(node, jqast.FuncDef):
            inner = dict(funcs)
            inner[(node.name, node.arity)] = node
            body_vars = set(variables)
            for param in node.params:
                if param.startswith("$"):
                    body_vars.add(param[1:])
                    inner[(param[1:], 0)] = _PARAMETER
                else:
                    inner[(param, 0)] = _PARAMETER
            self.visit(node.body, inner, frozenset(body_vars), labels)
            if node.rest is not None:
                after = dict(funcs)
                after[(node.name, node.arity)] = node
                self.visit(node.rest, after, variables, labels)
            return
        if isinstance(node, jqast.FuncCall):
            self.call(node, funcs)
            for arg in node.args:
                self.visit(arg, funcs, variables, labels)
            return
        if isinstance(node, jqast.VarRef):
            if node.name not in variables and node.name not in B.PREDEFINED_VARIABLES:
                self.names.unbound_variables.append(UnboundVariable(node, tuple(sorted(variables))))
            return
        if isinstance(node, jqast.Bind):
            self.visit(node.source, funcs, variables, labels)
            bound = set(variables)
            for pattern in node.patterns:
                bound.update(pattern_variables(pattern))
            for pattern in node.patterns:
                self.pattern_keys(pattern, funcs, frozenset(bound), labels)
            self.visit(node.body, funcs, frozenset(bound), labels)
            return
        if isinstance(node, (jqast.Reduce, jqast.Foreach)):
            self.visit(node.source, funcs, variables, labels)
            fold_vars = frozenset(set(variables) | pattern_variables(node.pattern))
            self.pattern_keys(node.pattern, funcs, fold_vars, labels)
            self.visit(node.init, funcs, variables, labels)
            self.visit(node.update, funcs, fold_vars, labels)
            if isinstance(node, jqast.Foreach) and node.extract is not None:
                self.visit(node.extract, funcs, fold_vars, labels)
            return
        if isinstance(node, jqast.Label):
            self.visit(node.body, funcs, variables, labels | {node.name})
            return
        if isinstance(node, jqast.Break):
            if node.name not in labels:
                self.names.unbound_breaks.append(node)
            return
        if isinstance(node, jqast.Format):
            self.names.formats.append(FormatUse(node.name, node.start, node.end))
            return
        if isinstance(node, jqast.StringInterp) and node.format is not None:
            self.names.formats.append(FormatUse(node.format, node.start, node.start + 1 + len(node.format)))
        if isinstance(node, jqast.Import):
            self.names.imports.append(node)
            if node.rest is not None:
                self.visit(node.rest, funcs, variables, labels)
            return
        for child in jqast.children(node):
            self.visit(child, funcs, variables, labels)

    def pattern_keys(self, pattern: jqast.Node, funcs: Scope, variables: frozenset[str],
                     labels: frozenset[str]) -> None:
        """Resolve the computed keys of an object pattern (`{(.k): $v}`)."""
        for node in jqast.walk(pattern):
            if isinstance(node, jqast.ObjectPatternEntry) and node.key is not None:
                self.visit(node.key, funcs, variables, labels)

    def call(self, node: jqast.FuncCall, funcs: Scope) -> None:
        target = funcs.get((node.name, node.arity))
        if isinstance(target, jqast.FuncDef):
            self.names._targets[id(node)] = target
        elif target is None and B.lookup_any(node.name, node.arity) is None:
            self.names.unresolved_calls.append(UnresolvedCall(node, tuple(funcs)))
