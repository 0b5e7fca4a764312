"""Evaluate definition jq expressions on manifests with the workload runtime's (gojq) behaviour and limits.

Built on libjq (the ``jq`` package). Where the dialects differ we emulate gojq: inputs are fed with sorted
object keys (gojq iterates objects in key order), ``keys_unsorted`` and the host-only builtins are refused
before running, and integral floats are passed as integers (gojq prints ``1.0`` as ``1``).

Limits: at most ``MAX_OUTPUTS`` outputs per evaluation (we stop pulling from libjq's lazy iterator), a time
bound and a memory bound. libjq cannot be interrupted from another thread and aborts the process when an
allocation fails, so only programs whose work is provably small run in-process (that path is ~5x faster):
no loop constructs (``until``, ``while``, ``repeat``, recursion through ``def``, ...) and a static estimate
of their output size (wmaplint.resolve.jqcost, e.g. nested ``[.,.]`` multiply) times the input's size within
``IN_PROCESS_BUDGET``. Everything else runs in a worker process under RLIMIT_AS that is killed when it
exceeds the time bound.
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
from dataclasses import dataclass, field
from typing import Any

import jq

MAX_OUTPUTS = 1000
DEFAULT_TIMEOUT = 2.0
MAX_EXPRESSION_LENGTH = 20_000
# In-process only when estimated output size (growth factor x input text length) stays under this many bytes.
IN_PROCESS_BUDGET = 16 << 20
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


def guarded(expression: str) -> str:
    """The program run for an expression: its outputs with NaN marked (the newline ends a comment)."""
    return f"({expression}\n) | {_NAN_GUARD}"


def _restore_nan(values: Any) -> tuple[Any, ...]:
    return tuple(math.nan if v == _NAN_MARK else v for v in values)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"#[^\n]*")
# A name not preceded by `.` (a field: `.env`) and not followed by `:` (an object key: `{env: 1}`).
_TOKEN = re.compile(
    r"(?<![.\w$])\$?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?(?!\w)(?!\s*:(?!:))|\.\.(?!\.)"
)


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
    def first(self) -> Any:
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


def _fast_text(value: Any) -> str | None:
    """JSON text straight from the value when normalising would not change it (no floats to rewrite,
    only JSON types, string keys)."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return None if _FLOAT_TEXT.search(text) else text


def normalize(value: Any) -> Any:
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
    """Identifiers (not fields or object keys), `$variables` and `..`; strings and comments removed."""
    stripped = _COMMENT.sub(" ", _STRING.sub('""', expression))
    return set(_TOKEN.findall(stripped))


def refusal(expression: str) -> str | None:
    """Why the runtime refuses an expression before running it, or None."""
    if len(expression) > MAX_EXPRESSION_LENGTH:
        return f"expression longer than {MAX_EXPRESSION_LENGTH} characters"
    bad = sorted(scan_names(expression) & FORBIDDEN_NAMES)
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


class JqRuntime:
    """Compiles each expression once and evaluates it with the runtime's limits."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, max_outputs: int = MAX_OUTPUTS) -> None:
        self.timeout = timeout
        self.max_outputs = max_outputs
        self._programs: dict[str, Any] = {}
        self._errors: dict[str, str] = {}
        self._growth: dict[str, float] = {}  # estimated output size / input size; inf: always the worker
        self._batches: dict[tuple[str, ...], Any] = {}
        self._worker: _Worker | None = None
        self._lock = threading.Lock()

    def compile_error(self, expression: str) -> str | None:
        """The refusal or compile error of an expression, or None when it compiles."""
        self._compile(expression)
        return self._errors.get(expression)

    def _compile(self, expression: str) -> Any:
        program = self._programs.get(expression)
        if program is not None or expression in self._errors:
            return program
        reason = refusal(expression)
        if reason is None:
            try:
                jq.compile(expression)  # compile errors name positions in the expression as written
                program = jq.compile(guarded(expression))
            except Exception as exc:  # libjq reports compile errors as ValueError
                reason = clean_message(str(exc))
        if reason is not None:
            self._errors[expression] = reason
            return None
        self._programs[expression] = program
        self._growth[expression] = _growth(expression)
        return program

    def _runs_here(self, expression: str, text: str) -> bool:
        return self._growth[expression] * max(len(text), _MIN_INPUT_SIZE) <= IN_PROCESS_BUDGET

    def evaluate(self, expression: str, data: JqInput | Any) -> JqResult:
        """All outputs of ``expression`` on ``data`` (a JqInput or a plain JSON value); never raises."""
        doc = data if isinstance(data, JqInput) else JqInput(data)
        program = self._compile(expression)
        if program is None:
            return JqResult(error=self._errors[expression])
        try:
            text = doc.text
        except (ValueError, TypeError, RecursionError) as exc:
            return JqResult(error=f"input cannot be passed to jq: {type(exc).__name__}: {str(exc)[:80]}")
        if self._runs_here(expression, text):
            return self._run_here(program, text)
        return self._run_in_worker(expression, text)

    def evaluate_many(self, expressions: list[str], data: JqInput | Any) -> dict[str, JqResult]:
        """Results of several expressions on one input, parsing the input once.

        libjq spends most of an evaluation parsing the input text, so the in-process expressions run as one
        program ``[(try ([limit(N+1; e1)] | [true, .]) catch [false]), ...]``. An expression that errors
        is re-run alone, so its partial outputs and message are exactly those of a single evaluation.
        """
        doc = data if isinstance(data, JqInput) else JqInput(data)
        unique = list(dict.fromkeys(e for e in expressions if isinstance(e, str)))
        batch = [e for e in unique if self._compile(e) is not None]
        results: dict[str, JqResult] = {}
        if len(batch) > 1:
            text = doc.text  # input errors surface per expression below
            batch = [e for e in batch if self._runs_here(e, text)]
        if len(batch) > 1:
            program = self._batch_program(tuple(batch))
            outputs = self._run_here(program, doc.text) if program is not None else None
            if (
                outputs is not None
                and outputs.ok
                and len(outputs.outputs) == 1
                and isinstance(outputs.first, list)
                and len(outputs.first) == len(batch)
            ):
                for expression, item in zip(batch, outputs.first, strict=True):
                    if isinstance(item, list) and item and item[0] is True and len(item) == 2:
                        values = _restore_nan(item[1])
                        if len(values) > self.max_outputs:
                            results[expression] = JqResult(
                                tuple(values[: self.max_outputs]),
                                f"more than {self.max_outputs} outputs",
                                limited=True,
                            )
                        else:
                            results[expression] = JqResult(tuple(values))
        for expression in unique:
            if expression not in results:
                results[expression] = self.evaluate(expression, doc)
        return results

    def _batch_program(self, batch: tuple[str, ...]) -> Any:
        program = self._batches.get(batch)
        if program is None and batch not in self._batches:
            # a newline ends any trailing comment inside an expression before the closing parenthesis
            parts = [
                f"(try ([limit({self.max_outputs + 1}; {guarded(expression)})] | [true, .]) catch [false])"
                for expression in batch
            ]
            try:
                program = jq.compile("[" + ", ".join(parts) + "]")
            except Exception:
                program = None
            if len(self._batches) > 256:
                self._batches.clear()
            self._batches[batch] = program
        return program

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

    def _run_in_worker(self, expression: str, text: str) -> JqResult:
        with self._lock:
            if self._worker is None:
                self._worker = _Worker()
            reply = self._worker.run(guarded(expression), text, self.max_outputs, self.timeout)
            if reply is None:  # timed out or died: a fresh worker next time
                died = self._worker.proc.poll() is not None
                self._worker.close()
                self._worker = None
                limit = "memory limit" if died else f"time limit of {self.timeout:g}s"
                return JqResult(error=f"evaluation exceeded the {limit}", limited=True)
        error = reply.get("error")
        outputs = reply.get("outputs", ())
        return JqResult(
            _restore_nan(outputs if isinstance(outputs, list) else ()), error, bool(reply.get("limited"))
        )

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
    """A child process evaluating one request per line: {"expr", "input", "max"} -> {"outputs", "error"}."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wmaplint.resolve._jqworker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        self._buffer = b""

    def run(self, expression: str, text: str, max_outputs: int, timeout: float) -> dict[str, Any] | None:
        request = json.dumps({"expr": expression, "input": text, "max": max_outputs}) + "\n"
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(request.encode())
            self.proc.stdin.flush()
        except OSError:
            return None
        fd = self.proc.stdout.fileno()
        deadline = _now() + timeout
        while b"\n" not in self._buffer:
            remaining = deadline - _now()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            return None
        return reply if isinstance(reply, dict) else None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def _growth(expression: str) -> float:
    """The static output-size factor of an expression; inf for loops and what the parser refuses."""
    if scan_names(expression) & SLOW_NAMES:
        return math.inf
    from wmaplint.jq.parser import try_parse
    from wmaplint.resolve.jqcost import growth

    tree = try_parse(expression)
    return math.inf if isinstance(tree, Exception) else growth(tree)


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
