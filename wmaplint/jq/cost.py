"""A cheap static bound on how much a jq program can build from its input, to choose where it runs.

libjq cannot be interrupted and aborts the whole process when an allocation fails, so only programs whose
work is provably small may run in-process. ``growth(ast)`` estimates the total size of everything a
program outputs relative to the size of its input (``.`` counts 1): ``[.,.]`` doubles, a pipe multiplies,
so ``[.,.,.,.,.,.,.,.]`` chained eight times is 8**8. Anything the estimate cannot bound (unknown functions,
string repetition with a number from the data, a variable or the outer input re-read for every output of a
generator, which is quadratic) is ``math.inf``. Over-estimating only costs speed (the worker process runs
the program under a time and memory limit); under-estimating is the bug this module exists to prevent.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping

from wmaplint import memo
from wmaplint.jq import ast as jqast

UNBOUNDED = math.inf

# Builtins whose output is at most a small multiple of their input, with their factor. Arguments are
# added separately (see _call).
_LINEAR_BUILTINS: Mapping[str, float] = {
    **dict.fromkeys(
        (
            "length utf8bytelength not type keys values add any all min max floor ceil round sqrt fabs "
            "tonumber tostring tojson fromjson ascii_downcase ascii_upcase sort unique reverse first last "
            "empty null true false nan isnan isinfinite isnormal infinite error select has in contains "
            "inside startswith endswith ltrimstr rtrimstr trim ltrim rtrim map map_values sort_by group_by "
            "unique_by min_by max_by flatten arrays objects iterables booleans numbers strings nulls "
            "values scalars isvalid del getpath abs toarray limit "
            "first last nth isempty index rindex indices todate fromdate now mktime gmtime strftime "
            "strptime dateadd datesub date todateiso8601 fromdateiso8601 significand logb gamma log log2 "
            "log10 exp exp2 exp10 pow trunc"
        ).split(),
        1.0,
    ),
    "to_entries": 3.0,
    "from_entries": 1.0,
    "with_entries": 3.0,
    "tojson": 2.0,  # escaping can double a string
    "tostring": 2.0,
    "@json": 2.0,
}
# Builtins that evaluate an argument once per element of the input (a variable read there is re-read
# for every element).
_PER_ELEMENT = frozenset(
    "map map_values select sort_by group_by unique_by min_by max_by any all with_entries del isvalid".split()
)
# Builtins that may output more than one value.
_GENERATORS = frozenset(
    "values arrays objects iterables booleans numbers strings nulls scalars limit".split()
)
# Builtins that output exactly one value (at most one: first) whatever their arguments generate: gojq and
# libjq define them over ``first``, ``isempty`` or ``reduce`` of the argument, like an array constructor.
_ONE_OUTPUT = frozenset({"any", "all", "isempty", "first"})
# Builtins whose two-argument form runs its second argument on each value of its first (``all(gen; cond)``).
_OVER_GENERATOR = frozenset({"any", "all"})
# Formats: output up to this factor of their input (@uri escapes a byte as %XX).
_FORMAT_FACTOR = 3.0
# A numeric literal this large may be a string repetition count (`"ab" * 5`) worth its own factor.
_SMALL_NUMBER = 16


def growth(node: jqast.Node, *, guarded: bool = False) -> float:
    """Estimated total output size / input size of a program, or ``math.inf`` when it is not bounded.
    ``guarded``: of the program's guarded form (``guarded_form``), whose multiplications of two values read
    from the data give a number (or two objects merged) or stop."""
    return _sizes(node, guarded).size(node, {})


Path = tuple[str | int, ...]
# How large an operand of a pairwise step can be: a multiple of the input's size, or the paths into the input
# whose largest value bounds it (a value read from the input as it is: its actual size is known when it runs).
Operand = float | frozenset[Path]
PairTerms = tuple[tuple[Operand, Operand], ...]


def pair_terms(node: jqast.Node, *, guarded: bool = False) -> PairTerms:
    """The steps of a program that compare every element of one value with every element of another, each
    as the sizes of its two operands; the pairs they compare are at most the sum of the products.

    Everything else libjq does grows with the size of what it reads and builds (``growth``), but these do
    not: an array minus an array, an index that may be an array (``.[$a]`` searches for a sub-array, and
    ``index``, ``rindex`` and ``indices`` are defined with it), ``contains`` and ``inside`` (every element
    against every other) and ``indices`` of a string (a search from each match). A step of which one side
    has a constant size (a literal, ``length``, a comparison) compares nothing pairwise; a side read from the
    input as it is (``.spec.replicas // 1``, also through a variable bound to it) is as large as that value
    turns out to be, any other as large as its growth allows. Each costs about 250 ns a pair at worst
    (benchmarks/bench_jq_pairs.py): a 40 kB manifest took 44 s on ``(.s / "")[(.t / "")]``."""
    return _Pairs(_sizes(node, guarded)).terms_of(node)


# The tree analysed last, its per-node facts and its estimates (unguarded, guarded): the runtime asks
# ``growth``, ``pair_terms`` and ``is_generator`` of one program one after another, and they ask the same
# questions of the same subtrees. Holding the tree keeps its nodes' identities (the keys) unique.
_last: tuple[jqast.Node, _Facts, dict[bool, _Estimator]] | None = None


def _sizes(tree: jqast.Node, guarded: bool) -> _Estimator:
    global _last
    last = _last
    if last is None or last[0] is not tree:
        last = _last = (tree, _Facts(tree), {})
    estimates = last[2]
    if guarded not in estimates:
        estimates[guarded] = _Estimator(guarded, last[1])
    return estimates[guarded]


def _forget_last() -> None:
    global _last
    _last = None


memo.register(__name__, "_last", _forget_last, pure=True)


# Builtins that compare their input's elements with their argument's; those of them that ``indices``
# underlies search a string from each match, or an array for a sub-array.
_PAIRWISE = frozenset({"contains", "inside", "index", "rindex", "indices"})
# Builtins whose output is a number, a boolean or null (or a type's name), whatever their input.
_SMALL_OUTPUT = frozenset(
    "length utf8bytelength not type has in contains inside startswith endswith test isnan isinfinite "
    "isnormal isvalid any all isempty floor ceil round sqrt fabs abs tonumber null true false nan infinite "
    "now significand logb gamma log log2 log10 exp exp2 exp10 pow trunc mktime".split()
)
_SMALL_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or"})


def _small(node: jqast.Node | None, small_vars: frozenset[str]) -> bool:
    """Whether every output of ``node`` has a size that does not grow with its input: a literal, a number
    computed from such, a comparison, ``length`` and the like (conservative)."""
    if node is None:
        return True
    if isinstance(node, jqast.Literal):
        return True
    if isinstance(node, jqast.Neg):
        return _small(node.term, small_vars)
    if isinstance(node, jqast.Optional):
        return _small(node.term, small_vars)
    if isinstance(node, jqast.Binary):
        return node.op in _SMALL_OPS or _small(node.left, small_vars) and _small(node.right, small_vars)
    if isinstance(node, jqast.Pipe):
        return _small(node.right, small_vars)
    if isinstance(node, jqast.FuncCall):
        return node.name in _SMALL_OUTPUT
    if isinstance(node, jqast.VarRef):
        return node.name in small_vars
    if isinstance(node, jqast.ArrayCons):
        return _small(node.body, small_vars)
    if isinstance(node, jqast.ObjectCons):
        return all(_small(e.key, small_vars) and _small(e.value, small_vars) for e in node.entries)
    if isinstance(node, jqast.If):
        branches = (node.then, *(then for _, then in node.elifs), node.else_)
        return all(_small(b, small_vars) for b in branches)
    if isinstance(node, jqast.Try):
        return _small(node.body, small_vars) and _small(node.catch, small_vars)
    if isinstance(node, jqast.Bind):
        return _small(node.body, small_vars)
    return False


def _direct(node: jqast.Node | None, base: Path | None) -> Path | None:
    """The path into the program's input of a value ``node`` reads as it is, when its own input is the value
    at ``base`` (None: not such a read, or an input not read from the program's)."""
    if base is None:
        return None
    keys: list[str | int] = []
    while node is not None and not isinstance(node, jqast.Identity):
        if isinstance(node, jqast.Field):
            keys.append(node.name)
        elif isinstance(node, jqast.Index) and isinstance(node.index, jqast.Literal) \
                and isinstance(node.index.value, (str, int)) and not isinstance(node.index.value, bool):
            keys.append(node.index.value)
        elif not isinstance(node, jqast.Optional):
            return None
        node = node.term if isinstance(node, jqast.Optional) else node.target
    return base + tuple(reversed(keys))


class _Pairs:
    """Recursive over the AST as ``_Estimator`` is. ``scale``: the size of the input a node runs on, as a
    multiple of the program's input (a pipe's right side runs on what its left side outputs); ``base``: the
    path of that input in the program's input, when it is read as it is; ``env``: the operand each variable
    in scope stands for (None: a value of constant size)."""

    def __init__(self, sizes: _Estimator) -> None:
        self.terms: list[tuple[Operand, Operand]] = []
        self.sizes = sizes

    def terms_of(self, node: jqast.Node) -> PairTerms:
        self.walk(node, 1.0, (), {})
        return tuple(self.terms)

    def growth(self, node: jqast.Node, env: dict[str, Operand | None]) -> float:
        """``growth`` of ``node`` with each variable bound outside it as large as it is (``.[] as $x | $x``
        reads as much as the input; a variable counted as a constant made ``$s | indices($t)`` compare as
        few pairs as ``"" | indices($t)``): a multiple of the program's input, at most the input where it
        is read from it, or constant."""
        if not env or not self.sizes.reads(node):
            return self.sizes.size(node, {})
        return self.sizes.size(node, {name: size if isinstance(size, float) else 1.0
                                      for name, size in env.items()})

    def walk(self, node: jqast.Node | None, scale: float, base: Path | None,
             env: dict[str, Operand | None]) -> None:
        if node is None:
            return
        if isinstance(node, jqast.Pipe):
            self.walk(node.left, scale, base, env)
            right = scale * self.growth(node.left, env)
            self.walk(node.right, right, _direct(node.left, base), env)
            return
        if isinstance(node, jqast.Bind):
            self.walk(node.source, scale, base, env)
            inner = dict(env)
            whole = self.operand(node.source, scale, base, env)
            # what destructuring binds
            part = None if whole is None else scale * self.growth(node.source, env)
            for pattern in node.patterns:
                for sub in jqast.walk(pattern):
                    if isinstance(sub, jqast.VarPattern):
                        inner[sub.name] = whole if sub is pattern else part
                    elif isinstance(sub, jqast.ObjectPatternEntry) and sub.var:
                        inner[sub.var] = part
            self.walk(node.body, scale, base, inner)
            return
        if isinstance(node, jqast.Binary) and node.op == "-":
            self.pair(node.left, node.right, scale, base, env)
        elif isinstance(node, jqast.Index):
            self.pair(node.target or jqast.Identity(0, 0), node.index, scale, base, env)
        elif isinstance(node, jqast.FuncCall):
            if node.name in _PAIRWISE and node.args:
                self.pair(jqast.Identity(0, 0), node.args[0], scale, base, env)
            else:  # the arguments may run on the input's elements, or on what another argument outputs
                base = None
        for child in self.sizes.parts(node):
            self.walk(child, scale, base, env)

    def pair(self, left: jqast.Node, right: jqast.Node, scale: float, base: Path | None,
             env: dict[str, Operand | None]) -> None:
        one, other = self.operand(left, scale, base, env), self.operand(right, scale, base, env)
        if one is not None and other is not None:
            self.terms.append((one, other))

    def operand(self, node: jqast.Node, scale: float, base: Path | None,
                env: dict[str, Operand | None]) -> Operand | None:
        """How large the value of ``node`` may be: None for a constant size."""
        if _small(node, frozenset(name for name, size in env.items() if size is None)):
            return None
        path = _direct(node, base)
        if path is not None:
            return frozenset({path})
        if isinstance(node, jqast.VarRef) and node.name in env:
            return env[node.name]
        if isinstance(node, jqast.Optional):
            return self.operand(node.term, scale, base, env)
        if isinstance(node, jqast.Binary) and node.op == "//":
            paths: set[Path] = set()
            for side in (node.left, node.right):
                found = self.operand(side, scale, base, env)
                if isinstance(found, float):
                    return scale * self.growth(node, env)
                paths |= found or set()
            return frozenset(paths)
        return scale * self.growth(node, env)



def is_generator(node: jqast.Node) -> bool:
    """Whether the program may output more than one value per input (conservative). An array constructor
    and a call of a builtin of one output (``any(.a[]; .b)``) output one value whatever their bodies
    generate, so those are not looked into."""
    last = _last  # where node is of the tree analysed last, its answer is known
    known = None if last is None else last[1].generates.get(id(node))
    if known is not None:
        return known
    stack = [node]
    while stack:
        sub = stack.pop()
        own = _generates_itself(sub)
        if own:
            return True
        if own is None:
            stack.extend(jqast.children(sub))
    return False


def _generates_itself(node: jqast.Node) -> bool | None:
    """True where ``node`` itself may output several values, False where it outputs one whatever its parts
    do, None where that depends on its parts (see ``is_generator``)."""
    if isinstance(node, (jqast.Iterate, jqast.Comma, jqast.RecurseDefault, jqast.Foreach)):
        return True
    if isinstance(node, jqast.FuncCall):
        if node.name in _GENERATORS or node.name not in _LINEAR_BUILTINS:
            return True
        if node.name in _ONE_OUTPUT:
            return False
    if isinstance(node, jqast.ArrayCons):
        return False
    return None


def _reads_outer(node: jqast.Node) -> bool:
    """Whether the program reads a variable (a value fixed outside it, re-read on each call)."""
    return any(isinstance(sub, jqast.VarRef) for sub in jqast.walk(node))


class _Facts:
    """``is_generator`` and ``_reads_outer`` of every subtree of one tree, each node's from its children's
    (bottom-up, one pass): the estimate asks both at nearly every node, and walking the subtree each time
    was quadratic in the tree's depth. Keyed by the nodes' identity, the tree held so that no key is reused;
    a node not of the tree (``Identity`` the estimate makes) is looked at directly. ``parts``: each node's
    children, which the walks over the tree ask again."""

    __slots__ = ("tree", "generates", "reads", "parts")

    def __init__(self, tree: jqast.Node) -> None:
        self.tree = tree
        self.generates: dict[int, bool] = {}
        self.reads: dict[int, bool] = {}
        self.parts: dict[int, tuple[jqast.Node, ...]] = {}
        generates, reads, parts_of = self.generates, self.reads, self.parts
        children, by_type = jqast.children, _GENERATES
        order: list[tuple[jqast.Node, tuple[jqast.Node, ...]]] = []
        stack = [tree]
        while stack:
            node = stack.pop()
            parts = children(node)
            order.append((node, parts))
            stack.extend(parts)
        for node, parts in reversed(order):  # every node after all of its descendants
            key, kind = id(node), type(node)
            parts_of[key] = parts
            read = kind is jqast.VarRef
            own = _generates_itself(node) if kind is jqast.FuncCall else by_type.get(kind)
            many = bool(own)
            for part in parts:
                if not read and reads[id(part)]:
                    read = True
                if own is None and not many and generates[id(part)]:
                    many = True
            reads[key], generates[key] = read, many


# _generates_itself by the type of a node, but for a call (what it calls decides)
_GENERATES: dict[type, bool] = {
    **dict.fromkeys((jqast.Iterate, jqast.Comma, jqast.RecurseDefault, jqast.Foreach), True),
    jqast.ArrayCons: False,
}


def _number(node: jqast.Node) -> float | None:
    if (
        isinstance(node, jqast.Literal)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        try:
            return float(node.value)
        except OverflowError:  # an exact integer literal beyond float64's range
            return math.inf
    if isinstance(node, jqast.Neg):
        inner = _number(node.term)
        return None if inner is None else -inner
    return None


# An array index in a path as JSON text, with its comma: at most 20 digits and a sign.
_PATH_INDEX = 24.0
PathShape = tuple[float, int]
# What a value made in a path expression (a literal, a construction, ``to_entries``) gives: no path, but the
# error "Invalid path expression" at its first output.
_NO_PATH: PathShape = (-1.0, -1)
# Builtins that are paths in a path expression (jq defines them over ``select``, ``.[n]`` and ``label``): of
# their input, of their last argument's paths, or an index of their input (``first``, ``last``); any other of
# _LINEAR_BUILTINS makes a value.
_PATH_OF_INPUT = frozenset("select empty error values nulls booleans numbers strings arrays objects "
                           "iterables scalars toarray".split())
_PATH_OF_ARGUMENT = frozenset({"first", "last", "limit", "nth"})


def _path_shape(node: jqast.Node | None) -> PathShape | None:
    """(the JSON size of the literal keys of one path, the iterations on it) of a path expression of fields,
    literal indexes, iterations, ``?``, pipes, commas, ``//``, ``if`` and ``select``; ``_NO_PATH`` for a value
    made in the expression (an error when it comes out); None for anything else (``getpath`` of a path from
    the data, recursion: paths of any length)."""
    if node is None or isinstance(node, jqast.Identity):
        return 0.0, 0
    if isinstance(node, jqast.Optional):
        return _path_shape(node.term)
    if isinstance(node, jqast.Literal | jqast.ArrayCons | jqast.ObjectCons | jqast.StringInterp | jqast.Format
                  | jqast.Neg | jqast.VarRef) or isinstance(node, jqast.Binary) and node.op != "//":
        return _NO_PATH
    if isinstance(node, jqast.Pipe):
        left, right = _path_shape(node.left), _path_shape(node.right)
        if left is None or right is None:
            return None
        if left == _NO_PATH or right == _NO_PATH:
            return _NO_PATH
        return left[0] + right[0], left[1] + right[1]
    if isinstance(node, jqast.Comma | jqast.Binary | jqast.If):  # the paths of either side (or branch)
        sides = ((node.left, node.right) if not isinstance(node, jqast.If)
                 else (node.then, *(then for _, then in node.elifs), node.else_))
        shapes = [_path_shape(side) for side in sides]
        if any(shape is None for shape in shapes):
            return None
        made = [shape for shape in shapes if shape is not None and shape != _NO_PATH]
        return (max(m[0] for m in made), max(m[1] for m in made)) if made else _NO_PATH
    if isinstance(node, jqast.FuncCall):
        if node.name in _PATH_OF_INPUT:
            return 0.0, 0
        if node.name in _PATH_OF_ARGUMENT:
            if not node.args:
                return (_PATH_INDEX, 0) if node.name in ("first", "last") else None
            # nth($n) is .[$n]: a key of the data where $n is a string
            return _path_shape(node.args[-1]) if len(node.args) == 2 or node.name != "nth" else None
        return _NO_PATH if node.name in _LINEAR_BUILTINS and node.name != "getpath" else None
    if not isinstance(node, jqast.Field | jqast.Index | jqast.Iterate):
        return None
    target = _path_shape(node.target)
    if target is None or target == _NO_PATH:
        return target
    if isinstance(node, jqast.Iterate):
        return target[0] + _PATH_INDEX, target[1] + 1
    if isinstance(node, jqast.Field):
        return target[0] + len(json.dumps(node.name)) + 1.0, target[1]
    key = node.index.value if isinstance(node.index, jqast.Literal) else None
    if isinstance(key, bool) or not isinstance(key, str | int):
        return None  # an index computed from the data: a key of any size, or a slice
    return target[0] + (len(json.dumps(key)) + 1.0 if isinstance(key, str) else _PATH_INDEX), target[1]


def _constant_count(node: jqast.Node) -> int | None:
    """How many values ``node`` outputs when it iterates a constant array (``[[0, 0], [0, 1]][]``) or is a
    constant or a comma of constants (``"Progressing", "Stopped"``)."""
    if isinstance(node, jqast.Comma | jqast.Literal):
        body: jqast.Node | None = node
    elif isinstance(node, jqast.Iterate) and isinstance(node.target, jqast.ArrayCons):
        body = node.target.body
    else:
        return None
    if body is not None and not all(isinstance(sub, jqast.Literal | jqast.ArrayCons | jqast.Comma | jqast.Neg)
                                    for sub in jqast.walk(body)):
        return None
    count = 0
    items = [body] if body is not None else []
    while items:
        item = items.pop()
        if isinstance(item, jqast.Comma):
            items.extend((item.left, item.right))
        else:
            count += 1
    return count


class _Estimator:
    """Recursive over the AST; the parser caps tree depth (MAX_TREE_DEPTH), which bounds the recursion."""

    def __init__(self, guarded: bool, facts: _Facts) -> None:
        self.guarded = guarded
        self.facts = facts
        # the size of each node of the tree with no variable bound (what ``growth`` of it is): ``_Pairs`` asks
        # it of a pipe's left side, a bind's source and each operand, which were estimated already
        self.known: dict[int, float] = {}

    def size(self, node: jqast.Node, env: dict[str, float]) -> float:
        key = id(node)
        if not env:
            known = self.known.get(key)
            if known is not None:
                return known
        method = _SIZE_OF.get(type(node))
        value: float = UNBOUNDED if method is None else method(self, node, env)
        if not env and key in self.facts.generates:
            self.known[key] = value
        return value

    def generates(self, node: jqast.Node) -> bool:
        known = self.facts.generates.get(id(node))
        return is_generator(node) if known is None else known

    def reads(self, node: jqast.Node) -> bool:
        known = self.facts.reads.get(id(node))
        return _reads_outer(node) if known is None else known

    def parts(self, node: jqast.Node) -> tuple[jqast.Node, ...]:
        known = self.facts.parts.get(id(node))
        return jqast.children(node) if known is None else known

    def _sum(self, nodes: tuple[jqast.Node | None, ...], env: dict[str, float]) -> float:
        return sum(self.size(n, env) for n in nodes if n is not None)

    # -- navigation: a part of the input, plus whatever computes the index
    def _Identity(self, node: jqast.Identity, env: dict[str, float]) -> float:
        return 1.0

    def _Field(self, node: jqast.Field, env: dict[str, float]) -> float:
        return self.size(node.target, env) if node.target is not None else 1.0

    def _Iterate(self, node: jqast.Iterate, env: dict[str, float]) -> float:
        return self.size(node.target, env) if node.target is not None else 1.0

    def _Index(self, node: jqast.Index, env: dict[str, float]) -> float:
        target = self.size(node.target, env) if node.target is not None else 1.0
        if self.generates(node.index) and self.reads(node.target or node.index):
            return UNBOUNDED
        return target + self.size(node.index, env)

    def _Slice(self, node: jqast.Slice, env: dict[str, float]) -> float:
        target = self.size(node.target, env) if node.target is not None else 1.0
        return target + self._sum((node.lower, node.upper), env)

    def _Optional(self, node: jqast.Optional, env: dict[str, float]) -> float:
        return self.size(node.term, env)

    # -- composition
    def _Pipe(self, node: jqast.Pipe, env: dict[str, float]) -> float:
        left, right = self.size(node.left, env), self.size(node.right, env)
        if self.generates(node.left) and self.reads(node.right):
            return UNBOUNDED  # `.[] | $x`: the variable once per element
        return left * right

    def _Comma(self, node: jqast.Comma, env: dict[str, float]) -> float:
        return self.size(node.left, env) + self.size(node.right, env)

    def _Binary(self, node: jqast.Binary, env: dict[str, float]) -> float:
        left, right = self.size(node.left, env), self.size(node.right, env)
        if self.generates(node.left) or self.generates(node.right):
            # each output pairs one value of a side with the whole other side
            if not (_number(node.left) is not None or _number(node.right) is not None):
                return UNBOUNDED
        if node.op == "*":
            numbers = [n for n in (_number(node.left), _number(node.right)) if n is not None]
            if not numbers:
                # `.s * .n` repeats a string .n times; guarded, it multiplies numbers or merges objects only
                return left + right if self.guarded else UNBOUNDED
            return (left + right) * max(1.0, min(abs(n) for n in numbers))
        if node.op == "/":
            return (left + right) * 3.0  # splitting a string: "," per character at worst
        return left + right

    def _Neg(self, node: jqast.Neg, env: dict[str, float]) -> float:
        return self.size(node.term, env)

    def _Assign(self, node: jqast.Assign, env: dict[str, float]) -> float:
        if node.op == "*=" and _number(node.right) is None:
            return UNBOUNDED
        if self.generates(node.left) and self.reads(node.right) or self.generates(node.right):
            return UNBOUNDED
        return 1.0 + self.size(node.left, env) + 2.0 * self.size(node.right, env)

    # -- values
    def _Literal(self, node: jqast.Literal, env: dict[str, float]) -> float:
        return 1.0

    def _Format(self, node: jqast.Format, env: dict[str, float]) -> float:
        return _FORMAT_FACTOR

    def _StringInterp(self, node: jqast.StringInterp, env: dict[str, float]) -> float:
        parts = tuple(p for p in node.parts if isinstance(p, jqast.Node))
        if sum(1 for p in parts if self.generates(p)) > 1:
            return UNBOUNDED  # every combination of the parts' outputs
        factor = _FORMAT_FACTOR if node.format else 2.0
        return 1.0 + factor * self._sum(parts, env)

    def _ArrayCons(self, node: jqast.ArrayCons, env: dict[str, float]) -> float:
        return 1.0 + (self.size(node.body, env) if node.body is not None else 0.0)

    def _ObjectCons(self, node: jqast.ObjectCons, env: dict[str, float]) -> float:
        parts = tuple(p for e in node.entries for p in (e.key, e.value) if p is not None)
        if len(node.entries) > 1 and any(self.generates(p) for p in parts):
            return UNBOUNDED  # every combination of the entries' outputs
        return 1.0 + self._sum(parts, env)

    def _ObjectEntry(self, node: jqast.ObjectEntry, env: dict[str, float]) -> float:
        return self._sum((node.key, node.value), env)

    def _VarRef(self, node: jqast.VarRef, env: dict[str, float]) -> float:
        return env.get(node.name, 1.0)  # unbound: $__loc__ and friends, small

    def _FuncCall(self, node: jqast.FuncCall, env: dict[str, float]) -> float:
        if node.name == "path" and len(node.args) == 1:
            return self._path(node.args[0], env)
        factor = _LINEAR_BUILTINS.get(node.name)
        if factor is None:
            return UNBOUNDED
        if node.name in _PER_ELEMENT and any(self.reads(arg) for arg in node.args):
            # ``any(gen; cond)`` and ``all(gen; cond)`` run the condition once per value of the generator:
            # a constant number of times where that is a constant (a variable read there is read that often)
            count = _constant_count(node.args[0]) if node.name in _OVER_GENERATOR and len(node.args) == 2 \
                else None
            if count is None:
                return UNBOUNDED
            return factor + self.size(node.args[0], env) + count * self.size(node.args[1], env)
        return factor + self._sum(node.args, env)

    def _path(self, node: jqast.Node, env: dict[str, float]) -> float:
        """``path(f)``: one path (an array of keys) per output of ``f``, so at most ``growth(f) * size``
        paths; where ``f`` is a path of fields, literal indexes and one iteration at most, a path holds
        ``f``'s literal keys and one key or index of the input, and the input's keys each come once per
        output made below them (which ``growth(f)`` counts), so the paths total at most ``growth(f)`` times
        the literal keys' size plus an index, plus the input. Two iterations repeat an outer key for every
        inner element: the size of the input squared (a long key over many elements)."""
        shape = _path_shape(node)
        if shape is None or shape[1] > 1:
            return UNBOUNDED
        if shape == _NO_PATH:  # an error at the first value made: what f does until then
            return self.size(node, env)
        keys, iterations = shape
        return self.size(node, env) * (3.0 + keys + iterations * _PATH_INDEX)

    # -- control
    def _If(self, node: jqast.If, env: dict[str, float]) -> float:
        conditions = (node.cond, *(cond for cond, _ in node.elifs))
        branches = (node.then, *(then for _, then in node.elifs), node.else_ or jqast.Identity(0, 0))
        if any(self.generates(c) for c in conditions):
            return UNBOUNDED
        return self._sum(conditions, env) + max(self.size(b, env) for b in branches)

    def _Try(self, node: jqast.Try, env: dict[str, float]) -> float:
        return self.size(node.body, env) + (2.0 if node.catch is not None else 0.0) * max(
            1.0, self.size(node.catch, env) if node.catch is not None else 0.0
        )

    def _Bind(self, node: jqast.Bind, env: dict[str, float]) -> float:
        count = _constant_count(node.source) if len(node.patterns) == 1 else None
        if self.generates(node.source) and count is None:
            return UNBOUNDED  # the body runs on the whole input once per value of the source
        source = self.size(node.source, env)
        inner = dict(env)
        for pattern in node.patterns:
            for sub in jqast.walk(pattern):
                if isinstance(sub, jqast.VarPattern):
                    inner[sub.name] = source
                elif isinstance(sub, jqast.ObjectPatternEntry) and sub.var:
                    inner[sub.var] = source
        # a constant's values, each once: the body on the whole input that many times
        return source + (count if count is not None else 1) * self.size(node.body, inner)


# The method of _Estimator for each class of node (``_Pipe`` for Pipe), found once rather than by name at
# every node; a class without one is unbounded.
_SIZE_OF: dict[type, Callable[..., float]] = {
    getattr(jqast, name[1:]): method for name, method in vars(_Estimator).items()
    if name[1:2].isupper() and isinstance(getattr(jqast, name[1:], None), type)
}

# -- the guarded form: multiplications of two data values, run in the process -------------------------------

# Why a guarded multiplication stopped: the multiplication it guards is left to the worker process.
TIMES_MARK = "wmaplint: a multiplication the worker evaluates"
_TIMES = "_wmaplint_times"
# libjq multiplies right operand outer, as ``b as $b | a as $a`` does (checked by the tests): the outputs of a
# guarded form come in the same order. Numbers multiply and two objects merge (output at most the inputs);
# anything else (a string repeated a number of times, an error) stops with the mark.
TIMES_DEFINITION = (
    f"def {_TIMES}(a; b): b as $b | a as $a | if ($a | type) == \"number\" and ($b | type) == \"number\" "
    "or ($a | type) == \"object\" and ($b | type) == \"object\" then $a * $b "
    f"else error({json.dumps(TIMES_MARK)}) end; "
)


def guarded_form(node: jqast.Node, text: str) -> str | None:
    """The program ``text`` (parsed as ``node``) with each multiplication of two values that may be data
    (``(.replicas // 1) * (.numOfHosts // 1)``, which the estimate cannot bound: a string times a number
    repeats it) replaced by a call that multiplies numbers and merges objects only and otherwise stops with
    ``TIMES_MARK``; the runtime then runs the program as it is in the worker. None when there is no such
    multiplication, or one whose stop the program itself could catch and go on (inside ``try``, ``?``, or a
    ``?//`` alternative), or the text has comments (the operands' parentheses are found by their text)."""
    found: list[jqast.Binary] = []
    stack: list[tuple[jqast.Node, bool]] = [(node, False)]
    while stack:
        current, caught = stack.pop()
        catches = (isinstance(current, jqast.Try | jqast.Optional)
                   or getattr(current, "optional", False) is True
                   or isinstance(current, jqast.Bind) and len(current.patterns) > 1)
        if (isinstance(current, jqast.Binary) and current.op == "*" and _number(current.left) is None
                and _number(current.right) is None):
            if caught:
                return None
            found.append(current)
        inner = caught or catches
        if isinstance(current, jqast.Try) and current.catch is not None and not caught:
            stack.append((current.catch, False))  # a handler's own errors are not caught
            stack.append((current.body, True))
            continue
        stack.extend((child, inner) for child in jqast.children(current))
    if not found or "#" in text:
        return None
    closing = _parentheses(text)
    regions = {id(binary): _operands(text, binary, closing) for binary in found}
    # outer before inner: `.a * .b * .c` starts both of its multiplications at `.a`
    ordered = sorted(found, key=lambda b: (regions[id(b)][0], -regions[id(b)][1]))

    def render(low: int, high: int) -> str:
        out: list[str] = []
        position = low
        for binary in ordered:
            start, end = regions[id(binary)]
            if start < position or end > high:
                continue  # outside this region, or inside one rendered already
            out.append(text[position:start])
            out.append(f"{_TIMES}({render(start, binary.op_start)}; {render(binary.op_start + 1, end)})")
            position = end
        out.append(text[position:high])
        return "".join(out)

    form = render(0, len(text))
    return TIMES_DEFINITION + form if form.count(f"{_TIMES}(") == len(found) else None


def _parentheses(text: str) -> dict[int, int]:
    """The offset of each ``(`` of the code (strings left out) and of the ``)`` that closes it."""
    from wmaplint.jq.lexical import scan

    opened: list[int] = []
    closing: dict[int, int] = {}
    for offset, char, code in scan(text):
        if code and char == "(":
            opened.append(offset)
        elif code and char == ")" and opened:
            closing[opened.pop()] = offset
    return closing


def _operands(text: str, binary: jqast.Binary, closing: dict[int, int]) -> tuple[int, int]:
    """Where the text of ``binary`` starts and ends with its operands' parentheses (the tree keeps none): the
    outermost pair around the left operand that closes before the operator, around the right one that opens
    after it."""
    left, right = binary.left, binary.right
    start = min((o for o, c in closing.items() if o < left.start and left.end <= c < binary.op_start),
                default=left.start)
    end = max((c + 1 for o, c in closing.items() if binary.op_start < o < right.start and c >= right.end),
              default=right.end)
    return start, end
