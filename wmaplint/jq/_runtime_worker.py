"""Worker process for jq programs whose cost has no small static bound: it compiles and runs them for its
parent, one JSON request per input line, one reply line per expression of the request.

Request: ``{"exprs": [program, ...], "input": text or null, "max": N, "timeout": seconds, "together": bool}``;
a null input only compiles. Reply per program: ``{"outputs": [...], "error": ..., "limited": bool}``, with
``"compile_error": true`` when it did not compile and ``"compiled": true`` when it did. With ``together``, the
programs not compiled yet are first compiled as one (``_together``: a compile costs the same for one program
or ten) and a line ``{"together": true}`` comes before the replies, so the parent tells a worker lost while
compiling them from one lost running the first.

The parent kills this process when a reply takes longer than its time bound. The process also ends by
itself when the parent is gone: on Linux the kernel kills it when the parent dies (``PR_SET_PDEATHSIG``);
elsewhere an idle worker reads end-of-file on its request pipe and exits, and a busy one is ended by
``SIGALRM`` (default action: terminate) a little after the time bound of the program it is running.
"""

from __future__ import annotations

import itertools
import json
import math
import signal
import sys
from typing import Any

from wmaplint.childproc import die_with_parent

MEMORY_LIMIT = 1 << 30  # a runaway string or array fails here instead of exhausting the machine
_ALARM_MARGIN = 2  # seconds past the parent's own bound; the parent normally kills us first


def _limit_memory() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass


def _arm(timeout: float) -> None:
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, math.ceil(timeout)) + _ALARM_MARGIN)


def _disarm() -> None:
    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)


# The variable choosing the program of a joint compile: a program that names it is compiled alone.
BRANCH = "$__wmaplint_branch"


class _Branch:
    """One program of several compiled together: run on ``[index, input]``, it is that program on input."""

    def __init__(self, joint: Any, index: int) -> None:
        self.joint = joint
        self.index = index

    def input_text(self, text: str) -> Any:
        return self.joint.input_text(f"[{self.index},{text}]")


JOINT = 32  # programs compiled as one: a compile of 32 costs about two of one
JOINT_MAX = 1024  # programs of one request compiled jointly, so the compiles stay well within a time bound


def _together(programs: dict[str, Any], exprs: list[Any]) -> None:
    """Compile the programs of ``exprs`` not compiled yet, ``JOINT`` as one: ``.[0]`` picks the program run
    on ``.[1]``. Each program is parenthesized, so what it defines or binds stays its own. Where that fails
    (one of them does not compile), each is compiled alone when it is run, and its error is its own."""
    import jq

    new = [e for e in dict.fromkeys(exprs) if isinstance(e, str) and e not in programs and BRANCH not in e]
    for start in range(0, min(len(new), JOINT_MAX), JOINT):
        chunk = new[start:start + JOINT]
        if len(chunk) < 2:
            break
        branches = " elif ".join(f"{BRANCH} == {i} then ({e}\n)" for i, e in enumerate(chunk[:-1]))
        try:
            joint = jq.compile(f".[0] as {BRANCH} | .[1] | if {branches} else ({chunk[-1]}\n) end")
        except Exception:  # a compile error, or memory: one at a time, as without a joint compile
            continue
        for index, expr in enumerate(chunk):
            programs[expr] = _Branch(joint, index)


def _answer(programs: dict[str, Any], expr: Any, text: object, limit: int) -> dict[str, object]:
    import jq

    from wmaplint.jq.runtime import clean_message

    if not isinstance(expr, str):
        return {"error": "bad request"}
    program = programs.get(expr)
    if program is None:
        try:
            program = programs[expr] = jq.compile(expr)
        except MemoryError:
            return {"error": "evaluation exceeded the memory limit", "limited": True}
        except Exception as exc:
            return {"error": clean_message(str(exc)), "compile_error": True}
    if not isinstance(text, str):
        return {"compiled": True}
    outputs: list[object] = []
    reply: dict[str, object] = {"outputs": outputs, "compiled": True}
    try:
        for value in itertools.islice(iter(program.input_text(text)), limit + 1):
            outputs.append(value)
        if len(outputs) > limit:
            del outputs[limit:]
            reply.update(error=f"more than {limit} outputs", limited=True)
    except MemoryError:
        reply.update(error="evaluation exceeded the memory limit", limited=True)
    except Exception as exc:
        reply["error"] = clean_message(str(exc))
    return reply


def main() -> None:
    die_with_parent(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0)
    _limit_memory()
    programs: dict[str, Any] = {}
    for line in sys.stdin:  # end of file: the parent closed the pipe or is gone
        try:
            request = json.loads(line)
            exprs, text, limit = request["exprs"], request["input"], int(request["max"])
            timeout = float(request.get("timeout", 2.0))
            if not isinstance(exprs, list):
                raise TypeError("exprs")
        except (ValueError, KeyError, TypeError, AttributeError):
            sys.stdout.write(json.dumps({"error": "bad request"}) + "\n")
            sys.stdout.flush()
            continue
        if request.get("together") is True:
            _arm(timeout)
            if isinstance(text, str):
                _together(programs, exprs)
            _disarm()
            sys.stdout.write(json.dumps({"together": True}) + "\n")
            sys.stdout.flush()
        for expr in exprs:
            _arm(timeout)
            reply = _answer(programs, expr, text, limit)
            _disarm()
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
