"""Evaluate definition jq expressions on manifests with the workload runtime's (gojq) behaviour and limits.

Built on libjq (the ``jq`` package). Where the dialects differ we emulate gojq: inputs are fed with sorted
object keys (gojq iterates objects in key order), ``keys_unsorted`` and the host-only builtins are refused
before running, and integral floats are passed as integers (gojq prints ``1.0`` as ``1``).

Limits: at most ``MAX_OUTPUTS`` outputs per evaluation (we stop pulling from libjq's lazy iterator), a time
bound and a memory bound. libjq cannot be interrupted from another thread and aborts the process when an
allocation fails, so only programs whose work is provably small run in-process (that path is ~5x faster):
no loop constructs (``until``, ``while``, ``repeat``, recursion through ``def``, ...), a static estimate
of their output size (wmaplint.jq.cost, e.g. nested ``[.,.]`` multiply) times the input's size within
``IN_PROCESS_BUDGET``, and the pairs their pairwise steps may compare (array minus array, ``contains``, an
index that may be an array: ``cost.pair_terms``, sized by the values they read on this input) within
``IN_PROCESS_PAIRS``. This static bound of time and memory is the one gate to running here (``_runs_here``);
a program is even compiled here only when its output bound is small, since libjq folds constants while
compiling. Everything else is compiled and run in a worker process under RLIMIT_AS that is killed when it
exceeds the time bound, and that dies with this process (see wmaplint.jq._runtime_worker).

A program of our own that needs data of one manifest (where an entry sits, a pod's index) takes it as the
values of its variables (``bound``, ``JqCall``, ``JqRuntime.evaluate_calls``), not in its text: libjq's
compile costs about a millisecond however small the program, so a text is compiled once a run.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import select
import subprocess
import sys
import threading
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.dataclass import dataclass, field

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from collections.abc import Set as AbstractSet

    from wmaplint.jq.cost import Operand, PairTerms, Path
    from wmaplint.source.plain import Json

MAX_OUTPUTS = 1000
DEFAULT_TIMEOUT = 2.0
MAX_EXPRESSION_LENGTH = 20_000
# In-process only when estimated output size (growth factor x input text length) stays under this many bytes,
IN_PROCESS_BUDGET = 16 << 20
# and the pairs its steps that compare every element of a value with every element of another may compare
# under this many (wmaplint.jq.cost.pair_terms): at about 250 ns a pair (benchmarks/bench_jq_pairs.py), 25 ms.
IN_PROCESS_PAIRS = 100_000
_MIN_INPUT_SIZE = 256  # small inputs still cost something per node built

# Host-dependent builtins the embedded runtime does not offer (or gives `{}`); refused before running.
FORBIDDEN_NAMES = frozenset(
    {
        "input",
        "inputs",
        "env",
        "$ENV",
        "halt",
        "halt_error",
        "debug",
        "stderr",
        "input_filename",
        "input_line_number",
        "keys_unsorted",
        "$__loc__",
        "$__prog_args",
        "get_search_list",
        "get_prog_origin",
        "get_jq_origin",
        "import",
        "include",
        "modulemeta",
    }
)
# Constructs that may run for a long time without output: evaluated in the killable worker.
SLOW_NAMES = frozenset(
    {
        "def",
        "until",
        "while",
        "repeat",
        "recurse",
        "range",
        "walk",
        "paths",
        "leaf_paths",
        "label",
        "foreach",
        "reduce",
        "combinations",
        "splits",
        "split",
        "sub",
        "gsub",
        "test",
        "match",
        "capture",
        "scan",
        "ascii",
        "implode",
        "tostream",
        "fromstream",
        "..",
        "infinite",
    }
)

# libjq prints NaN as null, so a `nan` output would read as "absent"; gojq hands NaN to the runtime as a
# number. Every program's outputs pass through a guard marking NaN, and the mark is turned back into NaN.
_NAN_MARK = "\u0000wmaplint:nan"
_NAN_GUARD = f"if type == \"number\" and isnan then {json.dumps(_NAN_MARK)} else . end"


# The runtime embeds gojq with no environment, no input file and no debug stream, and so does every program
# run here, whatever the expression's shape: the refusal scan (``refusal``) is the first guard, this prelude
# the structural one. It rebinds what reads the host before the expression, on the expression's first line
# (line numbers in messages stay the author's); definitions and bindings that come first are in scope for all
# that follows, however the expression nests or closes parentheses.
_NO_HOST = (
    "def env: {}; def input_filename: null; def debug: .; def debug(m): .; def stderr: .; "
    "def get_search_list: []; def get_prog_origin: null; def get_jq_origin: null; "
    'def modulemeta: error("modulemeta is not available"); def input: error("No more inputs"); '
    'def inputs: empty; def halt: empty; def halt_error: error("halt_error is not available"); '
    'def halt_error($code): error("halt_error is not available"); {} as $ENV | '
)


def guarded(expression: str) -> str:
    """The program run for an expression: with no host environment (``_NO_HOST``), its outputs with NaN
    marked (the newline ends a comment)."""
    return f"{_NO_HOST}({expression}\n) | {_NAN_GUARD}"


# A batch of expressions in one program (``JqRuntime.evaluate_many``): the prelude and the wrapping of each
# expression (its outputs, at most N + 1, NaN marked, an error caught) are defined once and each expression
# passed to them as a filter. Written out for each, they were most of the compile: 110 expressions compiled
# in 54 ms, 2.5 ms with the definitions. An expression that names them is batched written out.
_BATCH_NAME = "_wmaplint_batch_"
# An expression of one output at most (``single``, ``cost.is_generator``) is run without ``limit``, whose
# counting of every output was a third of a batch's run over tree's manifests.
_BATCH_PRELUDE = (
    f"def {_BATCH_NAME}nan: {_NAN_GUARD}; "
    f"def {_BATCH_NAME}run($n; f): try ([limit($n; f | {_BATCH_NAME}nan)] | [true, .]) catch [false]; "
    f"def {_BATCH_NAME}one(f): try ([f | {_BATCH_NAME}nan] | [true, .]) catch [false]; "
)


def _batched_call(expression: str, most: int, single: bool) -> str:
    if single:
        return f"{_BATCH_NAME}one(({expression}\n))"
    return f"{_BATCH_NAME}run({most}; ({expression}\n))"


def batch_program(expressions: list[str], most: int, single: frozenset[str] = frozenset()) -> str:
    """One program whose output is a list with, for each expression, ``[true, its outputs (at most
    ``most``)]``, or ``[false]`` where it fails. ``single``: those of them that output one value at most."""
    if any(_BATCH_NAME in expression for expression in expressions):
        parts = [f"(try ([limit({most}; {guarded(e)})] | [true, .]) catch [false])" for e in expressions]
        return "[" + ", ".join(parts) + "]"
    calls = [_batched_call(expression, most, expression in single) for expression in expressions]
    return _NO_HOST + _BATCH_PRELUDE + "[" + ", ".join(calls) + "]"


def bound(names: tuple[str, ...], expression: str) -> str:
    """A program run by calls (``JqCall``, ``JqRuntime.evaluate_calls``): ``expression`` on a manifest with
    the variables ``names`` bound to a call's values. Its input is ``[values, manifest]``, so its text, parsed
    for its cost and compiled once, holds nothing of the values: they are data."""
    variables = ", ".join(f"${name}" for name in names)
    return f".[0] as [{variables}] | .[1] | ({expression}\n)"


def calls_program(programs: list[str], most: int, single: frozenset[str] = frozenset()) -> str:
    """One program of the calls of several bound programs on one manifest (``evaluate_calls``): its input is
    ``[[the values of each call of the first program, ...], ...], manifest]``, its output a list with, for
    each program, a list with, for each of its calls, ``[true, its outputs (at most ``most``)]`` or
    ``[false]`` where it fails. ``single``: those of the programs that output one value at most."""
    calls, manifest = f"${_BATCH_NAME}calls", f"${_BATCH_NAME}input"
    parts = [f"[{calls}[{i}][] | [., {manifest}] | {_batched_call(program, most, program in single)}]"
             for i, program in enumerate(programs)]
    return _NO_HOST + _BATCH_PRELUDE + f". as [{calls}, {manifest}] | [" + ", ".join(parts) + "]"


@dataclass(frozen=True, slots=True)
class JqCall:
    """One evaluation of a program made by ``bound`` on a manifest: the JSON text of its variables' values
    (``JqInput(values).text``)."""

    program: str
    values: str

    @staticmethod
    def of(program: str, values: list[Any]) -> JqCall:
        return JqCall(program, JqInput(values).text)


def _restore_nan(values: Any) -> tuple[Any, ...]:
    return tuple(math.nan if v == _NAN_MARK else v for v in values)


# A name not preceded by `.` (a field: `.env`), `..`, or a bracket (nesting decides whether a name before a
# colon is an object key).
_TOKEN = re.compile(
    r"(?<![.\w$])\$?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?(?!\w)|\.\.(?!\.)|[][(){}]"
)
_KEY_COLON = re.compile(r"\s*:(?!:)")


@dataclass(frozen=True, slots=True)
class JqResult:
    """Outputs of one evaluation, or the error that ended it (outputs produced before the error are kept)."""

    outputs: tuple[Any, ...] = ()
    error: str | None = None
    limited: bool = False  # the output or time limit cut the evaluation short

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def first(self) -> Json:
        return self.outputs[0] if self.outputs else None


@dataclass(slots=True)
class JqInput:
    """A JSON value prepared once for many evaluations (sorted keys, integral floats as ints)."""

    value: Any
    _text: str | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _fast_text(self.value)
            if self._text is None:
                self._text = json.dumps(
                    normalize(self.value), sort_keys=True, separators=(",", ":"), allow_nan=False, default=str
                )
        return self._text


# An integral float (`2.0`) or an exponent number in JSON text; a false hit only costs the slow path.
_FLOAT_TEXT = re.compile(r"\d(?:\.0+|(?:\.\d+)?[eE][+-]?\d+)(?:[,\]}]|$)")


def _fast_text(value: Json) -> str | None:
    """JSON text straight from the value when normalising would not change it (no floats to rewrite,
    only JSON types, string keys)."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return None if _FLOAT_TEXT.search(text) else text


def normalize(value: Json) -> Any:
    """JSON-normalise iteratively (no recursion limit): integral floats to ints, keys to strings."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        item, parent, key = stack.pop()
        if isinstance(item, dict):
            out: Any = {}
            for k, v in item.items():
                stack.append((v, out, str(k) if not isinstance(k, str) else k))
        elif isinstance(item, (list, tuple)):
            out = [None] * len(item)
            for i, v in enumerate(item):
                stack.append((v, out, i))
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                out = None
            elif item.is_integer() and abs(item) < 2**63:
                out = int(item)
            else:
                out = item
        elif item is None or isinstance(item, (str, int, bool)):
            out = item
        else:
            out = str(item)  # dates and other YAML scalars arrive as their text
        parent[key] = out
    return root[0]


def scan_names(expression: str) -> set[str]:
    """Identifiers (not fields or object keys), `$variables` and `..`; the text of strings and comments
    removed, the code of string interpolations (``"\\(env)"``) kept. A name before a colon is an object key
    (``{env: 1}``) only directly inside braces: in brackets it is a slice's bound (``.[env:]``), and a
    `$variable` before a colon in braces is the key's value (``{$ENV: 1}``), read as the prelude rebinds
    it."""
    code = code_text(expression)
    names: set[str] = set()
    open_brackets: list[str] = []
    for match in _TOKEN.finditer(code):
        token = match.group()
        if token in "([{":
            open_brackets.append(token)
        elif token in ")]}":
            if open_brackets:
                open_brackets.pop()
        elif (token[0] != "$" and token != ".." and open_brackets and open_brackets[-1] == "{"
              and _KEY_COLON.match(code, match.end())):
            continue
        else:
            names.add(token)
    return names


def code_text(expression: str) -> str:
    """The expression with each string literal's text blanked and each comment dropped; what an interpolation
    ``\\( ... )`` holds stays, as code (interpolations nest: strings inside them are strings again)."""
    out: list[str] = []
    # one frame per open string interpolation: the parenthesis depth inside it
    frames: list[int] = []
    in_string = False
    i, n = 0, len(expression)
    while i < n:
        c = expression[i]
        if in_string:
            if c == "\\" and i + 1 < n:
                if expression[i + 1] == "(":
                    frames.append(0)
                    in_string = False
                    out.append(" (")
                i += 2
                continue
            if c == '"':
                in_string = False
                out.append('""')
            i += 1
            continue
        if c == '"':
            in_string = True
        elif c == "#":
            end = expression.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c == "(" and frames:
            frames[-1] += 1
            out.append(c)
        elif c == ")" and frames:
            if frames[-1] == 0:
                frames.pop()
                in_string = True
                out.append(") ")
            else:
                frames[-1] -= 1
                out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def refusal(expression: str, names: AbstractSet[str] | None = None) -> str | None:
    """Why the runtime refuses an expression before running it, or None. ``names``: its ``scan_names``, where
    the caller has them."""
    if len(expression) > MAX_EXPRESSION_LENGTH:
        return f"expression longer than {MAX_EXPRESSION_LENGTH} characters"
    bad = sorted((scan_names(expression) if names is None else names) & FORBIDDEN_NAMES)
    if bad:
        return f"{bad[0]} is not available in the workload runtime (gojq library mode)"
    return None


def clean_message(message: str) -> str:
    """libjq error text without its `jq: error (at ...)` prefix and compile-error trailer."""
    text = str(message).strip()
    text = re.sub(r"^jq: error(?: \(at [^)]*\))?: ", "", text)
    text = re.sub(r"\njq: \d+ compile errors?$", "", text)
    text = text.splitlines()[0] if text else "jq error"
    # gojq wording for the compile errors a definition author meets most
    undefined = re.match(r"^(\$?[\w:]+(?:/\d+)?) is not defined at <top-level>", text)
    if undefined:
        name = undefined.group(1)
        return f"variable not defined: {name}" if name.startswith("$") else f"function not defined: {name}"
    return re.sub(r" at <top-level>, line \d+(?:, column \d+)?:?$", "", text)


@dataclass(slots=True)
class _Expression:
    """What the runtime knows of one expression: why it cannot run, its cost, its in-process program."""

    error: str | None = None  # refusal or compile error, once known
    growth: float = math.inf  # estimated output size / input size; inf: only ever in the worker
    pairs: PairTerms | None = None  # its pairwise steps (wmaplint.jq.cost.pair_terms); None: not bounded
    program: Any = None  # the guarded program, compiled in this process on first single use
    compiled: bool = False  # whether the compile outcome (program or error) is known
    # what runs in this process where it is not the expression itself: its guarded form (cost.guarded_form),
    # which stops with cost.TIMES_MARK where the expression itself is left to the worker
    form: str | None = None
    single: bool = False  # it outputs one value at most (not ``cost.is_generator``): no output limit to keep


class JqRuntime:
    """Compiles each jq program once and evaluates it with the runtime's limits.

    A program is compiled in this process only when its static cost bound is small (libjq folds constants
    while compiling, so ``"x" * 2e9`` allocates at compile time); everything else is compiled and run by the
    worker. Expressions evaluated together on one input share one batch program, compiled once per set of
    expressions; an expression is compiled alone only when it is evaluated alone (an error to reproduce
    exactly, a lookup outside a batch).
    """

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, max_outputs: int = MAX_OUTPUTS) -> None:
        self.timeout = timeout
        self.max_outputs = max_outputs
        self._known: dict[str, _Expression] = {}
        self._batches: dict[tuple[str, ...], Any] = {}
        self._call_batches: dict[tuple[str, ...], Any] = {}  # of evaluate_calls, by their programs
        self._worker: _Worker | None = None
        self._apart: set[str] = set()  # expressions whose joint compile in the worker lost it: one at a time
        self._lock = threading.Lock()

    def _info(self, expression: str) -> _Expression:
        info = self._known.get(expression)
        if info is None:
            # the names are scanned once for the refusal and both costs (not at all past the length limit)
            names = scan_names(expression) if len(expression) <= MAX_EXPRESSION_LENGTH else None
            reason = refusal(expression, names)
            info = _Expression(error=reason, compiled=reason is not None)
            if reason is None:
                info.growth, info.pairs, info.single = _cost(expression, names)
                guarded = _guarded_cost(expression, names) if info.growth == math.inf else None
                if guarded is not None:
                    info.growth, info.pairs, info.form = guarded
            self._known[expression] = info
        return info

    def _compiles_here(self, info: _Expression) -> bool:
        return info.growth * _MIN_INPUT_SIZE <= IN_PROCESS_BUDGET

    def _runs_here(self, info: _Expression, doc: JqInput, text: str) -> bool:
        """Whether a program's work on ``doc`` (whose text is ``text``) is bounded small enough to run here,
        where nothing can stop it: what it builds (growth) and what it compares pair by pair (pairs), from
        its static cost and the sizes of the values it compares."""
        size = max(len(text), _MIN_INPUT_SIZE)
        if info.growth * size > IN_PROCESS_BUDGET or info.pairs is None:
            return False
        return not info.pairs or _pairs(info.pairs, doc.value, size) <= IN_PROCESS_PAIRS

    def compile_error(self, expression: str) -> str | None:
        """The refusal or compile error of an expression, or None when it compiles."""
        info = self._info(expression)
        if not info.compiled:
            if self._compiles_here(info):
                self._program(expression, info)
            else:
                self._worker_results([expression], None)
        return info.error

    def _program(self, expression: str, info: _Expression) -> Any:
        """The in-process guarded program (compiled on first use), or None with ``info.error`` set."""
        if not info.compiled:
            import jq

            if info.form is not None:
                try:
                    info.program = jq.compile(guarded(info.form))
                except Exception:  # a form that does not compile (never expected): the worker runs it
                    info.form, info.growth, info.pairs = None, math.inf, None
                    return None
                info.compiled = True
                return info.program
            try:
                info.program = jq.compile(guarded(expression))
            except Exception:  # libjq reports compile errors as ValueError
                try:  # the expression alone names the error as the author wrote it
                    jq.compile(expression)
                except Exception as exc:
                    info.error = clean_message(str(exc))
                else:
                    info.error = "expression cannot be evaluated on its own"
            info.compiled = True
        return info.program

    def evaluate(self, expression: str, data: JqInput | Any) -> JqResult:
        """All outputs of ``expression`` on ``data`` (a JqInput or a plain JSON value); never raises."""
        doc = data if isinstance(data, JqInput) else JqInput(data)
        info = self._info(expression)
        if info.error is not None:
            return JqResult(error=info.error)
        try:
            text = doc.text
        except (ValueError, TypeError, RecursionError) as exc:
            return JqResult(error=f"input cannot be passed to jq: {type(exc).__name__}: {str(exc)[:80]}")
        if self._runs_here(info, doc, text):
            program = self._program(expression, info)
            if program is not None:
                result = self._run_here(program, text)
                if info.form is None or not _stopped(result):
                    return result
            elif info.error is not None:
                return JqResult(error=info.error)
        return self._worker_results([expression], text)[0]

    def evaluate_many(self, expressions: list[str], data: JqInput | Any) -> dict[str, JqResult]:
        """Results of several expressions on one input, parsing the input once.

        libjq spends most of an evaluation parsing the input text, so the in-process expressions run as one
        program ``[(try ([limit(N+1; e1)] | [true, .]) catch [false]), ...]`` and the others as one worker
        request. An expression that errors is re-run alone, so its partial outputs and message are exactly
        those of a single evaluation.
        """
        doc, text = _prepared(data)
        unique = list(dict.fromkeys(e for e in expressions if isinstance(e, str)))
        results: dict[str, JqResult] = {}
        if text is not None:
            runs_here = {e: self._runs_here(info, doc, text) for e in unique
                         if (info := self._info(e)).error is None}
            here = [e for e, local in runs_here.items() if local]
            away = [e for e, local in runs_here.items() if not local]
            if len(here) > 1:
                results.update(self._run_batch(tuple(here), text))
            if len(away) > 1:
                for expression, result in zip(away, self._worker_results(away, text), strict=True):
                    if result.ok:
                        results[expression] = result
        for expression in unique:
            if expression not in results:
                results[expression] = self.evaluate(expression, doc)
        return results

    def evaluate_calls(self, calls: list[JqCall], data: JqInput | Any, together: Sequence[str] = ()
                       ) -> dict[JqCall, JqResult]:
        """Results of calls of programs made by ``bound`` on one manifest, each exactly that of the program
        evaluated alone on ``[its values, manifest]``.

        The calls of the programs whose calls together are bounded small enough run here as one program
        (``calls_program``, parsing the manifest once); the others in the worker as one such program, under
        one time bound. A call that fails (or all of them, where that program exceeds a limit) is evaluated
        alone, for its partial outputs and message, under its own bound.
        ``together``: programs compiled as one with those of the calls (those of other steps, asked of other
        manifests too): a compile costs about a millisecond however small the program, a pass 30 µs.
        """
        doc, text = _prepared(data)
        unique = list(dict.fromkeys(calls))
        results: dict[JqCall, JqResult] = {}
        if text is not None:
            groups: dict[str, list[JqCall]] = {}
            for call in unique:
                groups.setdefault(call.program, []).append(call)
            here: set[str] = set()
            away: list[str] = []
            for program, group in groups.items():
                info = self._info(program)
                if info.error is None and self._calls_run_here(info, group, doc, text):
                    here.add(program)
                elif info.error is None:
                    away.append(program)
            if here:
                # those that may run here on some manifest, whether or not on this one: one program a run
                batch = [p for p in dict.fromkeys([*together, *groups]) if p in here or (
                    p not in groups and self._info(p).error is None and self._info(p).pairs is not None
                    and self._compiles_here(self._info(p)))]
                results.update(self._run_calls(batch, {p: groups[p] if p in here else [] for p in batch},
                                               text))
            if sum(len(groups[p]) for p in away) > 1 and not any(_BATCH_NAME in p for p in away):
                [outputs] = self._worker_results([calls_program(away, self.max_outputs + 1,
                                                                self._single(away))],
                                                 _calls_text(away, groups, text))
                results.update(self._calls_results(away, groups, outputs))
        for call in unique:
            if call not in results:
                results[call] = self.evaluate(call.program, _call_input(call, doc, text))
        return results

    def _calls_run_here(self, info: _Expression, calls: list[JqCall], doc: JqInput, text: str) -> bool:
        """Whether the calls of one program are bounded small enough, together, to run here: the sum of what
        ``_runs_here`` bounds for each call on its own input."""
        sizes = [max(len(call.values) + len(text) + 3, _MIN_INPUT_SIZE) for call in calls]
        if info.growth * sum(sizes) > IN_PROCESS_BUDGET or info.pairs is None:
            return False
        if not info.pairs:
            return True
        pairs = (_pairs(info.pairs, [json.loads(call.values), doc.value], size)
                 for call, size in zip(calls, sizes, strict=True))
        return sum(pairs) <= IN_PROCESS_PAIRS

    def _run_calls(self, programs: list[str], groups: dict[str, list[JqCall]], text: str
                   ) -> dict[JqCall, JqResult]:
        """Results of the calls of ``programs`` that ran to completion without error, in one pass."""
        def source() -> str | None:
            forms = [self._info(p).form or p for p in programs]
            if any(_BATCH_NAME in form for form in forms):
                return None
            return calls_program(forms, self.max_outputs + 1, self._single(programs))

        program = self._compiled(self._call_batches, tuple(programs), source)
        if program is None:
            return {}
        outputs = self._run_here(program, _calls_text(programs, groups, text))
        return self._calls_results(programs, groups, outputs)

    def _calls_results(self, programs: list[str], groups: dict[str, list[JqCall]], outputs: JqResult
                       ) -> dict[JqCall, JqResult]:
        """The results of the calls of ``calls_program(programs)`` that ran to completion without error."""
        results: dict[JqCall, JqResult] = {}
        listed = _listed(outputs, len(programs))
        if listed is None:
            return results
        for p, items in zip(programs, listed, strict=True):
            if not isinstance(items, list) or len(items) != len(groups[p]):
                continue
            for call, item in zip(groups[p], items, strict=True):
                result = self._batched(item)
                if result is not None:
                    results[call] = result
        return results

    def _run_batch(self, batch: tuple[str, ...], text: str) -> dict[str, JqResult]:
        """Results of the batch's expressions that ran to completion without error."""
        program = self._batch_program(batch)
        listed = _listed(self._run_here(program, text), len(batch)) if program is not None else None
        results: dict[str, JqResult] = {}
        if listed is None:
            return results
        for expression, item in zip(batch, listed, strict=True):
            result = self._batched(item)
            if result is not None:
                results[expression] = result
        return results

    def _batched(self, item: Any) -> JqResult | None:
        """The result of one expression of a batch (``[true, outputs]``), or None where it failed."""
        if not (isinstance(item, list) and item and item[0] is True and len(item) == 2):
            return None
        values = _restore_nan(item[1])
        if len(values) > self.max_outputs:
            return JqResult(tuple(values[: self.max_outputs]), f"more than {self.max_outputs} outputs",
                            limited=True)
        return JqResult(tuple(values))

    def _batch_program(self, batch: tuple[str, ...]) -> Any:
        def source() -> str:
            programs = [self._info(expression).form or expression for expression in batch]
            return batch_program(programs, self.max_outputs + 1, self._single(batch))

        return self._compiled(self._batches, batch, source)

    @staticmethod
    def _compiled(cache: dict[Any, Any], key: Any, source: Callable[[], str | None]) -> Any:
        """The program ``source()`` gives, compiled once for ``key``; None where it gives none or it does not
        compile (each of its parts is then run alone). Past 256 programs the cache starts anew."""
        if key in cache:
            return cache[key]
        import jq

        written = source()
        try:
            program = jq.compile(written) if written is not None else None
        except Exception:
            program = None
        if len(cache) > 256:
            cache.clear()
        cache[key] = program
        return program

    def _single(self, expressions: Iterable[str]) -> frozenset[str]:
        """Those of ``expressions`` that output one value at most and run as they are (not a guarded form)."""
        return frozenset(e for e in expressions if self._info(e).single and self._info(e).form is None)

    def _run_here(self, program: Any, text: str) -> JqResult:
        outputs: list[Any] = []
        try:
            for value in itertools.islice(iter(program.input_text(text)), self.max_outputs + 1):
                outputs.append(value)
        except Exception as exc:
            return JqResult(_restore_nan(outputs[: self.max_outputs]), clean_message(str(exc)))
        if len(outputs) > self.max_outputs:
            return JqResult(
                _restore_nan(outputs[: self.max_outputs]),
                f"more than {self.max_outputs} outputs",
                limited=True,
            )
        return JqResult(_restore_nan(outputs))

    def _worker_results(self, expressions: list[str], text: str | None) -> list[JqResult]:
        """Results of expressions run by the worker on ``text`` (only compiled when ``text`` is None).

        One request carries them all and the worker answers each on its own line, so the time bound applies
        to each expression; after one exceeds a limit, the rest go to a fresh worker. The worker compiles
        those it has not compiled yet as one program (a compile costs a few milliseconds, most of a run on a
        manifest); when that loses the worker, they are sent again to be compiled one at a time.
        """
        replies: list[dict[str, Any]] = []
        with self._lock:
            while len(replies) < len(expressions):
                if self._worker is not None and self._worker.proc.poll() is not None:
                    self._worker.close()  # it died between requests (its parent thread ended): start anew
                    self._worker = None
                if self._worker is None:
                    self._worker = _Worker()
                pending = expressions[len(replies):]
                # the programs the worker has not compiled yet are compiled as one, unless that lost a worker
                together = text is not None and len(pending) > 1 and self._apart.isdisjoint(pending)
                request = {"exprs": [guarded(e) for e in pending], "input": text, "max": self.max_outputs,
                           "timeout": self.timeout, "together": together}
                answered, complete = self._worker.run(request, len(pending), self.timeout)
                replies.extend(answered)
                if not complete:
                    died = self._worker.proc.poll() is not None
                    started = self._worker.started
                    self._worker.close()
                    self._worker = None
                    if not started:  # lost compiling them together: no program alone is to blame
                        self._apart.update(pending)
                        continue
                    limit = "memory limit" if died else f"time limit of {self.timeout:g}s"
                    replies.append({"error": f"evaluation exceeded the {limit}", "limited": True})
        results = []
        for expression, reply in zip(expressions, replies, strict=True):
            # what is known of the expression (a program of the runtime's own, such as a batch, has nothing)
            info = self._known.get(expression, _Expression())
            error = reply.get("error")
            if reply.get("compile_error"):
                # the guard cannot cause a compile error the expression alone would not have: the
                # parser accepted it (otherwise its cost is unbounded), so it is one complete term
                info.error = clean_message(str(error))
                info.compiled = True
            elif reply.get("compiled"):
                info.compiled = True
            outputs = reply.get("outputs", ())
            results.append(
                JqResult(
                    _restore_nan(outputs if isinstance(outputs, list) else ()),
                    str(error) if error is not None else None,
                    bool(reply.get("limited")),
                )
            )
        return results

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        try:
            self.close()
        except Exception:
            pass


class _Worker:
    """A child process answering one JSON request per line (see wmaplint.jq._runtime_worker)."""

    def __init__(self) -> None:
        # The worker imports this very copy of wmaplint, not one that happens to sit in the working directory
        # (`python -m` would put the working directory first on the path).
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        bootstrap = (
            f"import sys; sys.path.insert(0, {root!r}); from wmaplint.jq._runtime_worker import main; main()"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", bootstrap, str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_worker_environment(),
        )
        self._buffer = b""
        self.started = True  # whether the last request's programs compiled together (or had not to be)

    def run(self, request: dict[str, Any], count: int, timeout: float) -> tuple[list[dict[str, Any]], bool]:
        """The replies received, one per expression, and whether all came: the worker answers each expression
        within ``timeout`` or is taken as stuck (or dead, or answering nonsense) at that expression. With
        ``together``, the line saying the programs were compiled together comes first; ``started`` tells
        whether it came."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        replies: list[dict[str, Any]] = []
        self.started = True
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            return replies, False
        self.started = request.get("together") is not True
        fd = self.proc.stdout.fileno()
        while len(replies) < count:
            deadline = _now() + timeout
            while b"\n" not in self._buffer:
                remaining = deadline - _now()
                if remaining <= 0:
                    return replies, False
                ready, _, _ = select.select([fd], [], [], remaining)
                if not ready:
                    return replies, False
                chunk = os.read(fd, 1 << 16)
                if not chunk:  # it ended (libjq aborts on a failed allocation): let it be reaped
                    try:
                        self.proc.wait(timeout=1.0)
                    except subprocess.TimeoutExpired:
                        pass
                    return replies, False
                self._buffer += chunk
            line, _, self._buffer = self._buffer.partition(b"\n")
            try:
                reply = json.loads(line)
            except ValueError:
                return replies, False
            if not isinstance(reply, dict):
                return replies, False
            if not self.started:
                if reply.get("together") is not True:
                    return replies, False
                self.started = True
                continue
            replies.append(reply)
        return replies, True

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def _call_text(call: JqCall, text: str) -> str:
    """The input of one call: its values and the manifest (``bound``)."""
    return f"[{call.values},{text}]"


def _calls_text(programs: list[str], groups: dict[str, list[JqCall]], text: str) -> str:
    """The input of ``calls_program(programs)``: the values of each program's calls and the manifest."""
    values = ",".join("[" + ",".join(call.values for call in groups[p]) + "]" for p in programs)
    return f"[[{values}],{text}]"


def _call_input(call: JqCall, doc: JqInput, text: str | None) -> JqInput:
    """The input of one call evaluated alone; where the manifest cannot be passed to jq, neither can this."""
    value = [json.loads(call.values), doc.value]
    return JqInput(value) if text is None else JqInput(value, _call_text(call, text))


def _listed(outputs: JqResult, count: int) -> list[Any] | None:
    """The one output of a batch program, a list of ``count`` items (one per part), or None where the batch
    failed as a whole."""
    if not outputs.ok or len(outputs.outputs) != 1 or not isinstance(outputs.first, list) \
            or len(outputs.first) != count:
        return None
    return outputs.first


def _prepared(data: JqInput | Any) -> tuple[JqInput, str | None]:
    """The input of several evaluations and its text, None where it cannot be given to jq: each evaluation
    then says so on its own."""
    doc = data if isinstance(data, JqInput) else JqInput(data)
    try:
        return doc, doc.text
    except (ValueError, TypeError, RecursionError):
        return doc, None


def _worker_environment() -> dict[str, str]:
    """What the worker is started with: nothing of this process's environment but what finds Python's own
    packages (the programs it runs see no environment at all, see ``_NO_HOST``)."""
    keep = {name: os.environ[name] for name in ("PYTHONPATH", "PYTHONHOME") if name in os.environ}
    return {**keep, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1", "LC_ALL": "C.UTF-8"}


def _cost(expression: str, names: AbstractSet[str] | None = None) -> tuple[float, PairTerms | None, bool]:
    """The static output-size factor and pairwise steps of an expression (``wmaplint.jq.cost``), and whether
    it outputs one value at most; unbounded (inf, None) for loops and what the parser refuses. ``names``: its
    ``scan_names``, where the caller has them."""
    if (scan_names(expression) if names is None else names) & SLOW_NAMES:
        return math.inf, None, False
    from wmaplint.jq.cost import growth, is_generator, pair_terms
    from wmaplint.jq.parser import try_parse

    tree = try_parse(expression)
    if isinstance(tree, Exception):
        return math.inf, None, False
    grows = growth(tree)
    return grows, pair_terms(tree) if grows < math.inf else None, not is_generator(tree)


def _guarded_cost(
    expression: str, names: AbstractSet[str] | None = None
) -> tuple[float, PairTerms | None, str] | None:
    """The cost of an expression's guarded form and the form itself (``cost.guarded_form``), where the
    expression's own cost cannot be bounded; None where it has none. ``names``: as for ``_cost``."""
    if (scan_names(expression) if names is None else names) & SLOW_NAMES:
        return None
    from wmaplint.jq.cost import growth, guarded_form, pair_terms
    from wmaplint.jq.parser import try_parse

    tree = try_parse(expression)
    form = None if isinstance(tree, Exception) else guarded_form(tree, expression)
    if form is None or isinstance(tree, Exception):
        return None
    grows = growth(tree, guarded=True)
    return grows, pair_terms(tree, guarded=True) if grows < math.inf else None, form


def _stopped(result: JqResult) -> bool:
    """Whether a guarded form stopped at a multiplication it leaves to the worker."""
    from wmaplint.jq.cost import TIMES_MARK

    return TIMES_MARK in (result.error or "")


def _pairs(terms: PairTerms, value: Any, size: int) -> float:
    """The pairs the pairwise steps ``terms`` may compare on ``value`` (of text length ``size``): an operand
    read from the input is as large as the value there, any other a multiple of ``size``."""
    total = 0.0
    for one, other in terms:
        total += _operand_size(one, value, size) * _operand_size(other, value, size)
        if total > IN_PROCESS_PAIRS:
            break
    return total


def _operand_size(operand: Operand, value: Any, size: int) -> float:
    if isinstance(operand, float):
        return operand * size
    return float(max((_value_size(_at(value, path)) for path in operand), default=1))


def _at(value: Any, path: Path) -> Any:
    for key in path:
        if isinstance(value, dict) and isinstance(key, str):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and -len(value) <= key < len(value):
            value = value[key]
        else:
            return None
    return value


def _value_size(value: Any) -> int:
    """A value's size as pairwise steps count it (each value and each character of a string or a key),
    counted up to IN_PROCESS_PAIRS."""
    count = 0
    stack = [value]
    while stack and count <= IN_PROCESS_PAIRS:
        item = stack.pop()
        count += 1
        if isinstance(item, str):
            count += len(item)
        elif isinstance(item, dict):
            count += sum(len(key) if isinstance(key, str) else 1 for key in item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return count


def _now() -> float:
    import time

    return time.monotonic()


_DEFAULT: JqRuntime | None = None


def default_runtime() -> JqRuntime:
    """A process-wide runtime, so expressions are compiled once across manifests."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = JqRuntime()
    return _DEFAULT


def _forget_default() -> None:
    """Drop the process-wide runtime, ending its worker: its compiled programs go with it."""
    global _DEFAULT
    if _DEFAULT is not None:
        _DEFAULT.close()
    _DEFAULT = None


memo.register(__name__, "_DEFAULT", _forget_default, pure=True)
