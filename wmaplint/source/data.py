"""Structured files read as plain data, under the limits definitions are read with.

Configuration (``.wmaplint.yaml``, ``[tool.wmaplint]``), pod label files, the schema lock and the tool's own
knowledge files are read as plain values, not positioned nodes; this is their one reader. A file is read as
every input is (``reading``: a regular file, size-capped) and then held to ``Limits``: at most ``nodes``
values once aliases are expanded (so a "billion laughs" file stops at its first few thousand values, in the
time and memory they take), nested at most ``depth`` deep, and ``max_bytes`` long. Whatever breaks a limit,
or is not YAML, is a ``DataError``: one line naming the file (and where, when known).

The defaults are those of a manifest document (``resolve.loading``: 1 MiB, 30,000 values) with the alias
allowance of the positioned reader (``loader.MAX_ALIAS_EXPANSION``), which a settings file never comes near.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from wmaplint.dataclass import dataclass
from wmaplint.source.loader import MAX_ALIAS_EXPANSION, ReadLimits, screen
from wmaplint.source.reading import InputError, decode_bytes, read_bytes

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    max_bytes: int = 1 * _MB
    nodes: int = 30_000
    depth: int = 100


SETTINGS = Limits()
# the tool's own data files (knowledge, the lock) are larger than any settings file, and still bounded
SHIPPED_DATA = Limits(max_bytes=4 * _MB, nodes=MAX_ALIAS_EXPANSION, depth=100)


class DataError(Exception):
    """A structured file that cannot be used as data: ``path[:line:column]: reason``, one line."""

    def __init__(self, path: str, reason: str, line: int | None = None, column: int | None = None) -> None:
        where = f"{path}:{line}:{column}" if line is not None and column is not None else path
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column


def read_data(path: str | Path, limits: Limits = SETTINGS) -> Any:
    """The one document of a YAML (or JSON) file as plain data; raises DataError."""
    name = str(path)
    try:
        text = decode_bytes(read_bytes(path, limits.max_bytes), name)
    except InputError as exc:
        raise DataError(name, exc.reason) from None
    return yaml_data(text, name, limits)


_constructor = yaml.SafeLoader("")


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def yaml_data(text: str, path: str, limits: Limits = SETTINGS) -> Any:
    """The one document of a YAML text as ``yaml.safe_load`` gives it, under ``limits``; raises DataError."""
    if len(text) > limits.max_bytes:
        raise DataError(path, f"over the {max(1, limits.max_bytes // _MB)} MB limit of this file")
    # the values are counted as they are converted, aliases expanded; the nodes as written are counted
    # before any are composed (a megabyte of `{?,?,...}` is a million of them)
    past = screen(text, ReadLimits(nodes=limits.nodes))
    if past is not None:
        raise DataError(path, past)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise DataError(path, f"not valid YAML ({exc.problem or exc.context or 'syntax error'})", line,
                        column) from None
    except yaml.YAMLError as exc:
        raise DataError(path, f"not valid YAML ({str(exc).splitlines()[0] if str(exc) else 'syntax'})") \
            from None
    except RecursionError:
        raise DataError(path, f"nested more than {limits.depth} levels deep") from None
    return None if root is None else _convert(root, path, limits)


def _scalar(node: yaml.Node) -> Any:
    if (node.tag or _STR_TAG) == _STR_TAG:
        return node.value
    try:
        return _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        return node.value


def _convert(root: yaml.Node, path: str, limits: Limits) -> Any:
    """Nodes to values without recursion, each node counted at each of its places (aliases expanded)."""
    count = 0

    def shell(node: yaml.Node, depth: int) -> tuple[Any, bool]:
        nonlocal count
        count += 1
        if count > limits.nodes:
            raise DataError(path, f"more than {limits.nodes} values (aliases expanded); it is not read",
                            *_mark(node))
        if depth > limits.depth:
            raise DataError(path, f"nested more than {limits.depth} levels deep", *_mark(node))
        if isinstance(node, yaml.MappingNode):
            return {}, True
        if isinstance(node, yaml.SequenceNode):
            return [], True
        return _scalar(node), False

    top, fill = shell(root, 0)
    work: list[tuple[yaml.Node, Any, int]] = [(root, top, 0)] if fill else []
    while work:
        node, target, depth = work.pop()
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                value, more = shell(child, depth + 1)
                target.append(value)
                if more:
                    work.append((child, value, depth + 1))
            continue
        merges: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise DataError(path, "a mapping key must be a plain value, not a collection",
                                *_mark(key_node))
            key = _scalar(key_node)
            value, more = shell(value_node, depth + 1)
            try:
                target[key] = value
            except TypeError:
                raise DataError(path, "a mapping key must be a plain value", *_mark(key_node)) from None
            if more:
                work.append((value_node, value, depth + 1))
        for merged in merges:  # `<<` merge keys: keys the mapping has win, as in YAML 1.1
            for source in merged.value if isinstance(merged, yaml.SequenceNode) else [merged]:
                if not isinstance(source, yaml.MappingNode):
                    raise DataError(path, "a merge key (<<) must name mappings", *_mark(source))
                for key_node, value_node in source.value:
                    if not isinstance(key_node, yaml.ScalarNode):
                        continue
                    key = _scalar(key_node)
                    if key in target:
                        continue
                    value, more = shell(value_node, depth + 1)
                    target[key] = value
                    if more:
                        work.append((value_node, value, depth + 1))
    return top


def check_value(value: Json, path: str, limits: Limits = SETTINGS) -> Json:
    """``value`` (data another parser made, such as TOML) held to the value and depth limits; DataError."""
    count = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > limits.nodes:
            raise DataError(path, f"more than {limits.nodes} values; it is not read")
        if depth > limits.depth:
            raise DataError(path, f"nested more than {limits.depth} levels deep")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
            count += len(item)  # the keys
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return value
