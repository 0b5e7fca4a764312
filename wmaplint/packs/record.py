"""What the user cache remembers of a pack text: that it passed the pack schema, and its rules' compiled CEL.

The texts of shipped and configured packs rarely change, while validating one costs the JSON Schema
validator's imports (~50 ms) and type-checking its CEL costs compiling and decoding every expression (most of
a pack's load). With each expression's plan recorded too, a run whose rules the Python evaluator covers needs
no CEL runtime at all. A record is keyed by the pack text, both schemas a pack is checked against and the
wmaplint version, so any change to them compiles afresh; a record that cannot be read is simply not used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wmaplint import cache_records

# A compiled expression: the serialized program, the part of root it reads (wmaplint.cel.parts tree), its
# cost bounds at a few data sizes (wmaplint.cel.budget table) and its plan for the Python evaluator
# (wmaplint.cel.plan; None when it has none).
Program = tuple[bytes, Any, tuple[tuple[int, int], ...], Any]
Programs = dict[str, tuple[Program, Program | None]]  # rule id -> (assert, messageExpression)


def _path(text: str) -> Path | None:
    from wmaplint.definition.format import DEFINITION_SCHEMA
    from wmaplint.packs.schema import PACK_SCHEMA

    schemas = json.dumps([PACK_SCHEMA, DEFINITION_SCHEMA])  # both built in code: one key order
    return cache_records.record_path("packs", schemas.encode(), text.encode("utf-8", "surrogatepass"))


def _program(entry: Any) -> Program:
    from wmaplint.cel.parts import from_json

    costs = tuple((int(size), int(bound)) for size, bound in entry["costs"])
    return cache_records.bytes_of(entry["program"]), from_json(entry["reads"]), costs, entry["plan"]


def _entry(program: Program) -> dict[str, Any]:
    from wmaplint.cel.parts import to_json

    serialized, reads, costs, plan = program
    return {"program": cache_records.text_of(serialized), "reads": to_json(reads),
            "costs": [list(pair) for pair in costs], "plan": plan}


def read(text: str) -> Programs | None:
    """The programs recorded for a text that passed the pack schema; None when there is no usable record."""
    data = cache_records.read(_path(text))
    try:
        return {
            rule_id: (_program(entry[0]), None if entry[1] is None else _program(entry[1]))
            for rule_id, entry in data["rules"].items()
        }
    except cache_records.DAMAGED:
        return None


def write(text: str, programs: Programs) -> None:
    """Record a text that passed the pack schema with the programs of its rules that compiled cleanly."""
    rules = {
        rule_id: [_entry(test), None if message is None else _entry(message)]
        for rule_id, (test, message) in programs.items()
    }
    cache_records.write(_path(text), {"rules": rules})
