"""What kubectl prints, read as the objects it holds.

kubectl's shapes (kubernetes/kubectl@5be1f71 pkg/cmd/get/get.go; the printers of
kubernetes/kubernetes@008b365 staging/src/k8s.io/cli-runtime/pkg/printers/json.go and yaml.go):

- ``kubectl get -o yaml|json`` of several objects prints one ``{apiVersion: v1, kind: List, metadata,
  items}``; the API server's own lists (``kubectl get --raw``) are ``<Kind>List`` of the same shape. Their
  items are the objects.
- ``kubectl get -w -o json`` prints each object as an indented JSON value followed by a line break, with
  nothing between them: the text is a stream of JSON values, not one JSON or YAML document. ``-w -o yaml``
  separates its objects with ``---`` and is ordinary multi-document YAML.
- ``--output-watch-events`` prints each as a ``metav1.WatchEvent``, ``{type, object}`` (in JSON one event a
  line): ``ADDED``, ``MODIFIED`` and ``DELETED`` carry the object, ``BOOKMARK`` only a resourceVersion, and
  ``ERROR`` a ``Status`` that ends the watch.

A watch holds the versions of its objects one after another; read as the cluster's state, only the last
version of each object counts, and a deleted one none (``latest_versions``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from wmaplint.dataclass import dataclass, fields, replace
from wmaplint.diagnostics import Span
from wmaplint.source import (
    Document,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    SourceFile,
    SourceText,
    iter_nodes,
    load_text,
)
from wmaplint.source.faults import YamlSyntax

if TYPE_CHECKING:
    from wmaplint.findings import FileFinding

WATCH_TYPES = ("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR")
_LIST_KEYS = frozenset({"apiVersion", "kind", "metadata", "items"})
_EVENT_KEYS = frozenset({"type", "object"})
_STREAM_STARTS = "{["
_WHITESPACE = " \t\r\n"


@dataclass(frozen=True, slots=True)
class JsonStream:
    """The JSON values a text is a stream of (start and end offsets), and where it stops being one: the offset
    and what the JSON reader says there, None when it is one to its end."""

    values: list[tuple[int, int]]
    broken: tuple[int, str] | None = None


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def json_stream(text: str) -> JsonStream | None:
    """The JSON values of ``text`` when it is a stream of two or more (as ``kubectl get -w -o json`` prints
    them); None for any other text, which is read as YAML (a single JSON value is YAML too)."""
    start = _skip_space(text, 0)
    if start >= len(text) or text[start] not in _STREAM_STARTS:
        return None
    decoder = json.JSONDecoder()
    values: list[tuple[int, int]] = []
    at = start
    while at < len(text):
        try:
            _, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            if not values:
                return None  # not JSON at all: the YAML reader says what it is
            return JsonStream(values, (exc.pos, exc.msg))
        except RecursionError:
            return None  # nested beyond what the reader follows: the YAML reader reports it
        values.append((at, end))
        at = _skip_space(text, end)
        if at < len(text) and text[at] not in _STREAM_STARTS:
            if len(values) == 1:
                return None  # one JSON value and more text (`---`, a comment): YAML decides
            return JsonStream(values, (at, "expected another JSON object"))
    return JsonStream(values) if len(values) > 1 else None


def shift_nodes(root: Node, offset: int, line: int, column: int, source: SourceText) -> None:
    """Move the nodes of a value read from ``text[offset:]`` on its own to where it stands in the whole text:
    ``line`` and ``column`` are the 1-based position of ``offset``; scalars then map offsets through
    ``source``, the whole text's."""
    for node in iter_nodes(root):
        node.start += offset
        node.end += offset
        node.span = shift_span(node.span, line, column)
        if isinstance(node, ScalarNode):
            node.source = source


def placed(part: SourceFile, start: int, whole: SourceText, index: int, found: list[FileFinding]
           ) -> list[Document]:
    """The documents of a JSON value of a stream, read on its own from ``start`` of the whole text, moved to
    where they stand in it (with the findings of the reading); a document past a limit is kept, unbuilt, at
    the value's first line."""
    line, column = whole.position(start)
    found.extend(shift_finding(finding, line, column) for finding in part.problems)
    documents = []
    for document in part.documents:
        if document.over_limit is not None:
            documents.append(Document(index, None, whole, Span.point(line, 1)))
            continue
        if document.root is None:
            continue
        shift_nodes(document.root, start, line, column, whole)
        whole.roots.append((document.root.start, document.root.end))
        documents.append(Document(index=index, root=document.root, source=whole))
    return documents


def stream_broken(stream: JsonStream, whole: SourceText) -> YamlSyntax | None:
    """Where a stream of JSON values stops being one, as the YAML fault it is; None when it is whole."""
    if stream.broken is None:
        return None
    offset, message = stream.broken
    line, column = whole.position(offset)
    said = f"the stream of JSON objects breaks here: {message}"
    return YamlSyntax(whole.path, Span.point(line, column), said)


def stream_source(text: str, path: str, stream: JsonStream) -> SourceFile:
    """A stream of JSON values (``kubectl get -w -o json``) as the documents of one file, each value read on
    its own under a file's limits (YAML reads JSON, but not values one after another) where it stands."""
    whole = SourceText(path, text)
    source = SourceFile(path=path, source=whole)
    for index, (start, end) in enumerate(stream.values):
        part = load_text(text[start:end], path)
        source.documents.extend(placed(part, start, whole, index, source.problems))
        if part.refused is not None:  # past a file's limits: the values before it are kept, as in a file
            source.refused = part.refused
            return source
    broken = stream_broken(stream, whole)
    if broken is not None:
        source.problems.append(broken)
    return source


def shift_span(span: Span, line: int, column: int) -> Span:
    """A span of a text that starts at ``line``:``column`` of a larger one, in the larger one."""
    start_col = span.start_col + column - 1 if span.start_line == 1 else span.start_col
    end_col = span.end_col + column - 1 if span.end_line == 1 else span.end_col
    return Span(span.start_line + line - 1, start_col, span.end_line + line - 1, end_col)


def shift_finding(finding: FileFinding, line: int, column: int) -> FileFinding:
    """A finding found in a value read on its own, placed in the whole text (every span it holds)."""
    moved = {f.name: shift_span(getattr(finding, f.name), line, column)
             for f in fields(finding) if isinstance(getattr(finding, f.name), Span)}
    shifted: FileFinding = replace(finding, **moved)  # type: ignore[arg-type]  # only the Span fields are given
    return shifted


def _text(node: Node | None) -> str | None:
    return node.value if isinstance(node, ScalarNode) and isinstance(node.value, str) else None


def is_list(root: Node | None) -> bool:
    """A list object: ``kind: List`` (what kubectl prints) or ``<Kind>List`` (the API server's), with its
    ``items`` and nothing but apiVersion, kind and metadata beside them."""
    if not isinstance(root, MappingNode) or not set(root.keys()) <= _LIST_KEYS:
        return False
    kind, api_version = _text(root.get("kind")), _text(root.get("apiVersion"))
    return (kind is not None and kind.endswith("List") and api_version is not None
            and isinstance(root.get("items"), SequenceNode))


def watch_event(root: Node | None) -> str | None:
    """The type of a watch event (``{type, object}``), None when the node is no watch event."""
    if not isinstance(root, MappingNode) or set(root.keys()) != _EVENT_KEYS:
        return None
    kind = _text(root.get("type"))
    return kind if kind in WATCH_TYPES and isinstance(root.get("object"), MappingNode) else None


@dataclass(frozen=True, slots=True)
class Held:
    """An object a document holds: its node, and the watch event that carried it (None outside a watch)."""

    node: Node
    event: str | None = None


def held_objects(root: Node) -> tuple[list[Held], list[str]]:
    """The objects a document holds (its items, a watch event's object, else itself), and what was passed
    by: a watch ERROR event, said as a line."""
    if is_list(root):
        assert isinstance(root, MappingNode)
        items = root.get("items")
        assert isinstance(items, SequenceNode)
        return [Held(item) for item in items.items], []
    event = watch_event(root)
    if event is None:
        return [Held(root)], []
    assert isinstance(root, MappingNode)
    carried = root.get("object")
    assert carried is not None
    if event == "BOOKMARK":
        return [], []  # a resourceVersion only, no object
    if event == "ERROR":
        status = carried if isinstance(carried, MappingNode) else None
        reason = _text(status.get("reason")) if status is not None else None
        message = _text(status.get("message")) if status is not None else None
        said = ": ".join(part for part in (reason, message) if part) or "no message"
        return [], [f"line {root.span.start_line}: the watch ended with an ERROR event ({said})"]
    return [Held(carried, event)], []


def object_key(value: Any) -> tuple[str, str, str, str] | None:
    """What names an object in a watch: group, kind, namespace and name (None without a name)."""
    if not isinstance(value, dict):
        return None
    metadata = value.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    if not isinstance(name, str):
        return None
    namespace = metadata.get("namespace") if isinstance(metadata, dict) else None
    api_version = value.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
    kind = value.get("kind")
    space = namespace if isinstance(namespace, str) else ""
    return (group, kind if isinstance(kind, str) else "", space, name)


class Version(Protocol):
    """An object of a watch as read: its value and the event that carried it."""

    @property
    def value(self) -> Any: ...

    @property
    def event(self) -> str | None: ...


V = TypeVar("V", bound=Version)


def latest_versions(documents: Iterable[V]) -> list[V]:
    """The last version of each object of a watch, in the order the objects first appear; an object whose
    last event is ``DELETED`` is left out."""
    current: dict[object, V] = {}
    for position, document in enumerate(documents):
        key = object_key(document.value) or ("", "", "", f"#{position}")
        if document.event == "DELETED":
            current.pop(key, None)
        else:
            current[key] = document
    return list(current.values())
