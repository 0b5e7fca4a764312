"""What the user cache remembers of a pack text: that it passed the pack schema, and its rules' compiled CEL.

The texts of shipped and configured packs rarely change, while validating one costs the JSON Schema
validator's imports (~50 ms) and type-checking its CEL costs compiling and decoding every expression (most of
a pack's load). A record is keyed by the pack text, both schemas a pack is checked against and the wmaplint
version, so any change to them compiles afresh; a record that cannot be read is simply not used.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from wmaplint import __version__

Programs = dict[str, tuple[bytes, bytes | None]]  # rule id -> (assert, messageExpression) serialized


def _path(text: str) -> Path | None:
    try:
        from wmaplint.definition.format import DEFINITION_SCHEMA
        from wmaplint.rulepacks.schema import PACK_SCHEMA
        from wmaplint.schema.sources import user_dir

        key = json.dumps([__version__, PACK_SCHEMA, DEFINITION_SCHEMA])  # both built in code: one key order
        digest = hashlib.sha256(key.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).hexdigest()
        return user_dir() / "packs" / f"{digest}.json"
    except (OSError, ValueError):
        return None


def _bytes(value: Any) -> bytes:
    if not isinstance(value, str):
        raise ValueError("not base64 text")
    return base64.b64decode(value, validate=True)


def _text(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def read(text: str) -> Programs | None:
    """The programs recorded for a text that passed the pack schema; None when there is no usable record."""
    path = _path(text)
    if path is None:
        return None
    try:
        data = json.loads(path.read_bytes())
        rules = data["rules"]
        return {
            rule_id: (_bytes(entry[0]), None if entry[1] is None else _bytes(entry[1]))
            for rule_id, entry in rules.items()
        }
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, binascii.Error):
        return None


def write(text: str, programs: Programs) -> None:
    """Record a text that passed the pack schema with the programs of its rules that compiled cleanly."""
    path = _path(text)
    if path is None:
        return
    rules = {
        rule_id: [_text(test), None if message is None else _text(message)]
        for rule_id, (test, message) in programs.items()
    }
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps({"rules": rules}), encoding="utf-8")
        os.replace(partial, path)  # whole or not at all: forked workers may write the same record
    except OSError:
        try:
            partial.unlink()
        except OSError:
            pass  # a read-only cache only costs the compilation next time
