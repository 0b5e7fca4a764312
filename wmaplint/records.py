"""Small JSON records in the user cache, keyed by a digest of what they were computed from.

Compiled CEL (rule packs, CRD validation rules) costs more to produce than to read back; a record is named by
the digest of its inputs and the wmaplint version, written whole with a rename (forked workers may write the
same one), and a record that cannot be read is simply not used.
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

DAMAGED = (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, binascii.Error)


def record_path(kind: str, *inputs: bytes) -> Path | None:
    """Where the record of ``kind`` computed from ``inputs`` lives; None without a usable cache directory."""
    try:
        from wmaplint.schema.sources import user_dir

        digest = hashlib.sha256(__version__.encode())
        for part in inputs:
            digest.update(b"\0" + part)
        return user_dir() / kind / f"{digest.hexdigest()}.json"
    except (OSError, ValueError):
        return None


def read(path: Path | None) -> Any:
    """The record's JSON value; None when there is none or it is damaged."""
    if path is None:
        return None
    from wmaplint.source.reading import InputError, read_bytes

    try:
        return json.loads(read_bytes(path))
    except (InputError, *DAMAGED):
        return None


def write(path: Path | None, value: Any) -> None:
    if path is None:
        return
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(value), encoding="utf-8")
        os.replace(partial, path)  # whole or not at all
    except OSError:
        try:
            partial.unlink()
        except OSError:
            pass  # a read-only cache only costs the computation next time


def yaml_data(kind: str, text: str) -> Any:
    """The data of a YAML text of the tool's own (a knowledge file), read back from its record when there is
    one: parsing the conditions knowledge cost more than the rest of a small check's status analysis, and its
    JSON reads back in a thirtieth of the time. Raises yaml.YAMLError for a text that is not YAML."""
    path = record_path(kind, text.encode("utf-8", "surrogatepass"))
    found = read(path)
    if isinstance(found, dict) and "value" in found:
        return found["value"]
    import yaml

    value = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        value = json.loads(json.dumps(value))  # what a later run reads back, from the first run on
    except (TypeError, ValueError):
        return value  # not JSON data (a date, a binary): parsed every time
    write(path, {"value": value})
    return value


def text_of(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def bytes_of(value: Any) -> bytes:
    """Bytes written with ``text_of``; ValueError (binascii.Error) when they are not."""
    if not isinstance(value, str):
        raise ValueError("not base64 text")
    return base64.b64decode(value, validate=True)
