"""The type interpreter's state: the expression walked, the schema it is typed against, and what it found."""

from __future__ import annotations

from typing import Any

from wmaplint.jq import ast as A
from wmaplint.jq.inference.facts import TypeFact
from wmaplint.jq.inference.values import Val
from wmaplint.schema.types import SchemaType


class Walker:
    """The base of the interpreter's layers. ``text``: the expression (for replacements); ``source``: the
    schema file, for "declared here" locations; ``object_meta``: Kubernetes' ObjectMeta, the `metadata` of
    embedded resources (unknown when None)."""

    def __init__(self, text: str, source: str | None, object_meta: SchemaType | None = None) -> None:
        self.text = text
        self.source = source
        self.object_meta = object_meta
        self.facts: list[TypeFact] = []
        self._seen: set[tuple[type, int, int]] = set()
        self._pruned: set[int] = set()  # ids of `metadata` types whose members the API server prunes

    def record(self, fact: TypeFact) -> None:
        key = (type(fact), fact.start, fact.end)
        if key in self._seen:  # functions and reduce bodies are visited more than once
            return
        self._seen.add(key)
        self.facts.append(fact)

    def eval(self, node: A.Node, inp: Val, env: dict[str, Any], depth: int = 0, quiet: bool = False) -> Val:
        """The type of what ``node`` yields for inputs of type ``inp``; ``quiet``: record nothing (under `?`
        and `try`, or where the analysis does not follow the input). The dispatch is ``Interpreter``'s."""
        raise NotImplementedError
