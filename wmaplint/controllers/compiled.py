"""The shipped controller model compiled: the typed model of every file of ``schemas/controllers/`` in one
file of plain data (``schemas/controllers.bin``), read in a millisecond instead of parsing fifteen YAML files
(13 ms when the user cache holds their records, 40 ms on a fresh machine) on every run.

The file (written by ``python -m wmaplint.controllers.compile build``, which `make schemas` and `make
controllers` run): a magic line, a JSON header line, then ``marshal`` data (format 2: no object sharing, so
the bytes depend on the content alone; plain data only, no code). The header holds the sha256 of every YAML
file it was compiled from, the field names of every class of the model and the sha256 of the data. The data
is the ``Model`` itself: a data class as a tuple of its class's number and its fields' values, a tuple as a
list, a mapping as a mapping. It is used only when it matches the YAML files beside it, the model's classes
and its own checksum; else the YAML files are read as before (``load.py``), so a stale or damaged file is
never trusted.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from pathlib import Path
from typing import Any

from wmaplint.controllers.model import MODEL_CLASSES, Model
from wmaplint.controllers.releases import ALWAYS, Releases
from wmaplint.dataclass import fields
from wmaplint.shipped_data import shipped

MAGIC = b"wmaplint controller model 1\n"
COMPILED_NAME = "controllers.bin"
MARSHAL_FORMAT = 2
# a data class is stored as its number in MODEL_CLASSES and its fields' values
_NUMBER = {cls: number for number, cls in enumerate(MODEL_CLASSES)}
_FIELDS = [tuple(f.name for f in fields(cls)) for cls in MODEL_CLASSES]


def compiled_file() -> Path:
    return shipped("schemas") / COMPILED_NAME


def _shape() -> list[list[Any]]:
    """The model's classes as the data stores them: their names and fields, in order."""
    return [[cls.__name__, list(names)] for cls, names in zip(MODEL_CLASSES, _FIELDS, strict=True)]


def _sources(model_dir: Path) -> list[list[str]]:
    """[name, sha256] of every YAML file of the model, in name order."""
    return [[path.name, hashlib.sha256(path.read_bytes()).hexdigest()]
            for path in sorted(model_dir.glob("*.yaml"))]


# -- writing -------------------------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    number = _NUMBER.get(type(value))
    if number is not None:
        return (number, *(_encode(getattr(value, name)) for name in _FIELDS[number]))
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise ValueError(f"a mapping of the model has a key that is not a string: {value!r:.80}")
        return {key: _encode(item) for key, item in value.items()}
    if value is None or isinstance(value, (str, bool, int)):
        return value
    # a list or any other value would not read back as it was: the model's shape changed, so must this file
    raise ValueError(f"the model holds a {type(value).__name__}, which the compiled form does not store")


def encode(model: Model, model_dir: Path) -> bytes:
    """The compiled form of ``model``, read from the YAML files of ``model_dir``."""
    payload = marshal.dumps(_encode(model), MARSHAL_FORMAT)
    header = {"sources": _sources(model_dir), "shape": _shape(),
              "sha256": hashlib.sha256(payload).hexdigest()}
    return MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n" + payload


# -- reading -------------------------------------------------------------------------------------------------


_RELEASES = _NUMBER[Releases]
_new = object.__new__


_PLAIN = frozenset({str, bool, int, type(None)})


def _decode(value: Any) -> Any:
    kind = type(value)
    if kind is tuple:
        number = value[0]
        if number == _RELEASES and value[1] is None and value[2] is None:
            return ALWAYS
        # every field is stored: the object is filled as its __init__ would, at a third of its cost
        made = _new(MODEL_CLASSES[number])
        made.__dict__.update(zip(_FIELDS[number], [item if type(item) in _PLAIN else _decode(item)
                                                   for item in value[1:]], strict=True))
        return made
    if kind is list:
        return tuple([item if type(item) in _PLAIN else _decode(item) for item in value])
    if kind is dict:
        return {key: item if type(item) in _PLAIN else _decode(item) for key, item in value.items()}
    return value


def read(path: Path, model_dir: Path) -> Model | None:
    """The model the file holds; None when it is missing, damaged, or not what the YAML files of
    ``model_dir`` and the model's classes give now."""
    try:
        data = path.read_bytes()
        end = data.find(b"\n", len(MAGIC))
        if not data.startswith(MAGIC) or end < 0:
            return None
        header = json.loads(data[len(MAGIC):end])
        payload = data[end + 1:]
        if (not isinstance(header, dict) or header.get("shape") != _shape()
                or header.get("sha256") != hashlib.sha256(payload).hexdigest()
                or header.get("sources") != _sources(model_dir)):
            return None
        model = _decode(marshal.loads(payload))
    except (OSError, ValueError, EOFError, TypeError, IndexError, KeyError, AttributeError, RecursionError):
        return None
    return model if isinstance(model, Model) else None
