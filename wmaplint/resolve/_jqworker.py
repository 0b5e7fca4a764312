"""Worker process for jq programs that may loop: one JSON request per input line, one reply per output line.

The parent kills this process when a reply takes longer than its time bound.
"""

from __future__ import annotations

import itertools
import json
import sys

MEMORY_LIMIT = 1 << 30  # a runaway string or array fails here instead of exhausting the machine


def _limit_memory() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass


def main() -> None:
    import jq

    from wmaplint.resolve.jqrun import clean_message

    _limit_memory()
    programs: dict[str, object] = {}
    for line in sys.stdin:
        try:
            request = json.loads(line)
            expr, text, limit = request["expr"], request["input"], int(request["max"])
        except (ValueError, KeyError, TypeError):
            reply: dict[str, object] = {"error": "bad request"}
        else:
            outputs: list[object] = []
            reply = {"outputs": outputs}
            try:
                program = programs.get(expr)
                if program is None:
                    program = programs[expr] = jq.compile(expr)
                for value in itertools.islice(iter(program.input_text(text)), limit + 1):  # type: ignore[attr-defined]
                    outputs.append(value)
                if len(outputs) > limit:
                    del outputs[limit:]
                    reply.update(error=f"more than {limit} outputs", limited=True)
            except MemoryError:
                reply.update(error="evaluation exceeded the memory limit", limited=True)
            except Exception as exc:
                reply["error"] = clean_message(str(exc))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
