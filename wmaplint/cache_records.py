"""Small JSON records in the user cache, keyed by a digest of what they were computed from.

Compiled CEL (rule packs, CRD validation rules) costs more to produce than to read back; a record is named by
the digest of its inputs and the wmaplint version, framed with its kind, version and the digest of its JSON,
and read and written as every cache file is (``wmaplint.cachefiles``: the user's own directory, no links
followed, a bounded regular file, written whole with a rename); a record that cannot be used is simply not.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint import cachefiles
from wmaplint.version import __version__

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

DAMAGED = (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, binascii.Error)


RECORD_VERSION = 1


def record_path(kind: str, *inputs: bytes) -> Path | None:
    """Where the record of ``kind`` computed from ``inputs`` lives; None without a usable cache directory."""
    try:
        from wmaplint.schema.sources import user_dir

        digest = hashlib.sha256(__version__.encode())
        for part in inputs:
            digest.update(b"\0" + part)
        return user_dir() / "records" / kind / f"{digest.hexdigest()}.json"
    except (OSError, ValueError):
        return None


def _base(path: Path) -> Path:
    return path.parent.parent.parent  # <user dir>/records/<kind>/<digest>.json


def read(path: Path | None) -> Any:
    """The record's JSON value; None when there is none or it is damaged."""
    if path is None:
        return None
    payload = cachefiles.read_record(path, path.parent.name, RECORD_VERSION, _base(path))
    if payload is None:
        return None
    try:
        return json.loads(payload)
    except (*DAMAGED, RecursionError):
        return None


def write(path: Path | None, value: object) -> None:
    if path is None:
        return
    try:
        payload = json.dumps(value).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, RecursionError):
        return
    cachefiles.write_record(path, path.parent.name, RECORD_VERSION, payload, _base(path))


def yaml_data(kind: str, text: str, name: str = "", limits: Any = None,
              build: Callable[[Any], Any] | None = None, refuses: tuple[type[Exception], ...] = ()) -> Any:
    """The data of a YAML text (a knowledge file), read back from its record when there is one: parsing the
    conditions knowledge cost more than the rest of a small check's status analysis, and its JSON reads back
    in a thirtieth of the time. The text is read under the data limits (``wmaplint.source.data``, the tool's
    own files' by default); raises DataError for a text that is not YAML or breaks them.

    With ``build``, what is returned is ``build(data)``; a record whose data ``build`` cannot take (an error
    of ``DAMAGED`` or of ``refuses``: a checksum detects damage, not a record forged in the cache) is
    discarded and the text parsed again, so a reader that trusts the shape of the tool's own files never
    meets another shape."""
    from wmaplint.source.data import SHIPPED_DATA
    from wmaplint.source.data import yaml_data as read_yaml

    path = record_path(kind, text.encode("utf-8", "surrogatepass"))
    found = read(path)
    if isinstance(found, dict) and "value" in found:
        if build is None:
            return found["value"]
        damaged: tuple[type[BaseException], ...] = (*DAMAGED, RecursionError, *refuses)
        try:
            return build(found["value"])
        except damaged:
            assert path is not None
            cachefiles.discard(path, "holds data of another shape")
    value = read_yaml(text, name or kind, limits or SHIPPED_DATA)
    try:
        value = json.loads(json.dumps(value))  # what a later run reads back, from the first run on
    except (TypeError, ValueError):
        return value if build is None else build(value)  # not JSON data (a date, a binary): parsed every time
    write(path, {"value": value})
    return value if build is None else build(value)


def text_of(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def bytes_of(value: Json) -> bytes:
    """Bytes written with ``text_of``; ValueError (binascii.Error) when they are not."""
    if not isinstance(value, str):
        raise ValueError("not base64 text")
    return base64.b64decode(value, validate=True)
