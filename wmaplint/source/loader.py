"""Read YAML or JSON text into positioned nodes; YAML faults become diagnostics, never exceptions.

libyaml's parser (PyYAML's C extension) gives exact marks (character offsets, lines, columns) at C speed;
nodes are composed from its events here, counted as they come, so a file past its limits stops being read
before a tree of it exists. Scalar types are resolved with YAML 1.1 rules as Kubernetes' decoder does
(``yes``/``on`` are booleans there too).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import Span
from wmaplint.findings import FileFinding
from wmaplint.source.faults import (
    AliasExpansion,
    DuplicateKey,
    DuplicateKeysNotListed,
    HelmTemplate,
    YamlSyntax,
)
from wmaplint.source.lines import has_yaml11_breaks
from wmaplint.source.nodes import (
    STYLE_NAMES,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    SourceText,
    no_cyclic_gc,
)
from wmaplint.source.reading import read_path
from wmaplint.source.templates import recognise as recognise_template

# Nodes that aliases (and merge keys) may add to a file; a "billion laughs" file stops here instead of
# exhausting memory.
MAX_ALIAS_EXPANSION = 100_000
# A file's nodes as written, and its documents. The largest real CRD file met (kserve's
# llminferenceservice, 2.7 MB) holds 100,000 nodes; a node takes about 350 bytes once built, and libyaml
# makes one of every byte of `{?,?,...}` (empty explicit keys), which took gigabytes unbounded.
MAX_FILE_NODES = 500_000
MAX_FILE_DOCUMENTS = 5_000
# Duplicate keys listed one by one in a file; the rest are counted in one fault (a file of nothing but
# repeated keys made half a million findings).
MAX_LISTED_DUPLICATES = 100

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NO_SPAN = Span(1, 1, 1, 1)  # of a collection until its end is read


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """What one file may hold. ``document_nodes``: a document with more nodes (aliases expanded) is passed
    over unbuilt, the rest of the file read on (manifests: ``resolve.loading``)."""

    nodes: int = MAX_FILE_NODES
    documents: int = MAX_FILE_DOCUMENTS
    document_nodes: int | None = None


FILE_LIMITS = ReadLimits()


@dataclass(slots=True)
class Document:
    index: int
    root: Node | None
    source: SourceText
    # where a document past ``ReadLimits.document_nodes`` starts; it is not built (its root is None)
    over_limit: Span | None = None

    @property
    def path(self) -> str:
        return self.source.path


@dataclass(slots=True)
class SourceFile:
    path: str
    source: SourceText
    documents: list[Document] = field(default_factory=list)
    problems: list[FileFinding] = field(default_factory=list)  # the file's faults (wmaplint.source.faults)
    # why the file was not read on, past one of its limits (one line): the documents before it are kept,
    # and a reader refuses the file as it refuses one over its size
    refused: str | None = None

    @property
    def text(self) -> str:
        return self.source.text


def load_path(path: str | Path) -> SourceFile:
    return load_text(read_path(path), str(path))


def load_text(text: str, path: str, limits: ReadLimits = FILE_LIMITS) -> SourceFile:
    """The documents of a YAML (or JSON) text as positioned nodes, read under ``limits``; never raises."""
    source = SourceText(path, text)
    result = SourceFile(path=path, source=source)
    template = recognise_template(path, text)
    if template is not None:  # not YAML until rendered: one fault instead of what the parser would say
        span, action, chart = template
        result.problems.append(HelmTemplate(path, span, action, chart))
        return result
    # libyaml numbers lines as YAML 1.1 does; where that differs from our line model, offsets give positions
    translate = has_yaml11_breaks(text)
    composer = _Composer(source, result.problems, translate, limits)
    try:
        with no_cyclic_gc():
            composer.compose(text, result.documents)
        source.composed = True
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _mark_position(source, mark, translate) if mark is not None else (1, 1)
        problem = _yaml_problem(exc, source, translate)
        result.problems.append(YamlSyntax(path, Span(line, col, line, col + 1), problem))
    except yaml.YAMLError as exc:
        result.problems.append(YamlSyntax(path, Span.point(1, 1), str(exc)))
    except _AliasBomb as exc:
        result.problems.append(AliasExpansion(path, exc.span, MAX_ALIAS_EXPANSION))
    except _OverLimit as exc:
        result.refused = exc.reason
    for document in result.documents:
        if document.root is not None:
            source.roots.append((document.root.start, document.root.end))
    if composer.unlisted:
        first, count = composer.unlisted
        result.problems.append(DuplicateKeysNotListed(path, first, count))
    return result


def screen(text: str | bytes, limits: ReadLimits = FILE_LIMITS) -> str | None:
    """Why a YAML text is past the limits of a file (its nodes as written, its documents), counted from the
    parser's events alone, for a reader that composes with PyYAML: None within them, or when the text does
    not parse (its composer then says why). The events cost about a third of composing them."""
    loader = _Loader(text)
    nodes = documents = 0
    try:
        while True:
            event = loader.get_event()
            kind = type(event)
            if kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
                nodes += 1
                if nodes > limits.nodes:
                    return _too_many_nodes(limits, event.start_mark.line + 1)
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > limits.documents:
                    return _too_many_documents(limits, event.start_mark.line + 1)
            elif kind is StreamEndEvent:
                return None
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()


def _too_many_nodes(limits: ReadLimits, line: int) -> str:
    return f"more than {limits.nodes:,} YAML nodes (at line {line}); not read"


def _too_many_documents(limits: ReadLimits, line: int) -> str:
    return f"more than {limits.documents:,} YAML documents (the next starts at line {line}); not read"


def scalar_reading_at(text: str, start: int, keys: bool = True) -> tuple[int, str | None, bool] | None:
    """How the scalar that starts at offset ``start`` reads in ``text``, straight from the composer: its end
    offset, its value when it resolves as a string (None for another type), and whether it is a mapping key
    that repeats a sibling key. None when the text does not compose or holds no scalar there: ``load_text``
    then tells; without ``keys``, None too when the scalar is a mapping key (a text cut short may lack its
    siblings). Edits check themselves with this; converting a whole document again costs several times
    more."""
    try:
        with no_cyclic_gc():
            documents = list(yaml.compose_all(text, Loader=_Loader))
    except (yaml.YAMLError, RecursionError):
        return None
    for top in documents:
        ynode: yaml.Node | None = top
        while ynode is not None and ynode.start_mark.index <= start < max(ynode.end_mark.index, start + 1):
            if isinstance(ynode, yaml.ScalarNode):
                if ynode.start_mark.index != start:
                    return None
                value = ynode.value if (ynode.tag or _STR_TAG) == _STR_TAG else None
                return ynode.end_mark.index, value, False
            if isinstance(ynode, yaml.SequenceNode):
                ynode = next((i for i in ynode.value if i.start_mark.index <= start < i.end_mark.index
                              or i.start_mark.index == start), None)
                continue
            following = None
            for key, value in ynode.value:
                if key.start_mark.index == start and isinstance(key, yaml.ScalarNode):
                    if not keys:
                        return None
                    repeated = sum(1 for k, _ in ynode.value if isinstance(k, yaml.ScalarNode)
                                   and k.value == key.value and k.tag == key.tag) > 1
                    resolved = key.value if (key.tag or _STR_TAG) == _STR_TAG else None
                    return key.end_mark.index, resolved, repeated
                if value.start_mark.index <= start < value.end_mark.index or value.start_mark.index == start:
                    following = value
                    break
            ynode = following
    return None


def _mark_position(source: SourceText, mark: yaml.Mark, translate: bool) -> tuple[int, int]:
    return source.position(mark.index) if translate else (mark.line + 1, mark.column + 1)


def _yaml_problem(exc: yaml.MarkedYAMLError, source: SourceText, translate: bool) -> str:
    parts = [p for p in (exc.context, exc.problem) if p]
    text = "; ".join(parts) if parts else "invalid YAML"
    if exc.context_mark is not None and exc.problem_mark is not None and exc.context:
        line = _mark_position(source, exc.context_mark, translate)[0]
        text += f" (the construct starts at line {line})"
    return text


class _AliasBomb(Exception):
    """Aliases expand the file past MAX_ALIAS_EXPANSION nodes, here."""

    def __init__(self, span: Span) -> None:
        super().__init__(span)
        self.span = span


class _OverLimit(Exception):
    """The file passes one of its read limits: ``reason`` says which, and where."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_scalar_constructor = yaml.SafeLoader("")
_CONSTRUCTORS = yaml.SafeLoader.yaml_constructors
# (tag, text) -> value of the scalars resolved to another type than a string: the same few (null, true, small
# numbers) come back all the time
_CONSTRUCTED: dict[tuple[str, str], object] = memo.kept(__name__, "_CONSTRUCTED", {}, pure=True)
# plain scalar text -> its resolved tag (keys and the common values repeat across files)
_TAGS: dict[str, str] = memo.kept(__name__, "_TAGS", {}, pure=True)
_CACHED = 4096  # entries of each before it starts afresh
_MISSING = object()
_PLAIN_TYPES = (str, int, float, bool, type(None))
_MERGE = object()  # the pending key of a mapping whose next value is a merge (<<) source


def _construct(tag: str, text: str) -> object:
    """A scalar's value as Kubernetes' decoder reads it; its text when the tag gives another kind of value
    (timestamps and binary: Kubernetes sees their text) or none."""
    key = (tag, text)
    value = _CONSTRUCTED.get(key, _MISSING)
    if value is _MISSING:
        make = _CONSTRUCTORS.get(tag)
        try:  # the constructor itself: construct_object would remember every node it is given
            value = make(_scalar_constructor, yaml.ScalarNode(tag, text)) if make is not None else text
        except Exception:
            value = text
        if not isinstance(value, _PLAIN_TYPES):
            value = text
        if len(_CONSTRUCTED) > _CACHED:
            _CONSTRUCTED.clear()
        _CONSTRUCTED[key] = value
    return value


def _resolve_tag(text: str) -> str:
    """The tag of a plain scalar, resolved with YAML 1.1 rules (remembered: keys and values repeat)."""
    tag: str = _scalar_constructor.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    if len(_TAGS) > _CACHED:
        _TAGS.clear()
    _TAGS[text] = tag
    return tag


class _Composer:
    """Builds positioned nodes straight from libyaml's events, counting as it goes: the file's nodes and
    documents stop the read at their limits before a tree of them exists (``_OverLimit``), a document past
    its own node limit is passed over unbuilt, aliases are expanded (each place a copy of its own) up to
    MAX_ALIAS_EXPANSION nodes, and duplicate keys are listed up to MAX_LISTED_DUPLICATES.

    Composing from events in Python, rather than converting the tree PyYAML's C composer builds, costs no
    more: that composer resolves every scalar's tag in Python, and building its nodes took most of a read.
    """

    def __init__(self, source: SourceText, problems: list[FileFinding], translate: bool,
                 limits: ReadLimits) -> None:
        self.source = source
        self.problems = problems
        self.translate = translate
        self.limits = limits
        self.nodes = 0  # of the file, as written
        self.expanded = 0  # nodes added by aliases, in the file
        self.duplicates = 0
        self.unlisted: tuple[Span, int] | None = None  # the first duplicate key not listed, and how many

    def _span(self, start: Any, end: Any) -> Span:
        if self.translate:
            return self.source.span(start.index, end.index)
        return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def _line(self, mark: Any) -> int:
        return self.source.position(mark.index)[0] if self.translate else mark.line + 1

    def compose(self, text: str, documents: list[Document]) -> None:
        loader = _Loader(text)
        try:
            get = loader.get_event
            get()  # the stream's start
            while True:
                event = get()
                if type(event) is StreamEndEvent:
                    return
                if len(documents) >= self.limits.documents:
                    raise _OverLimit(_too_many_documents(self.limits, self._line(event.start_mark)))
                root, over = self._document(get)
                documents.append(Document(len(documents), root, self.source, over))
        finally:
            loader.dispose()

    def _count(self, event: Any) -> None:
        self.nodes += 1
        if self.nodes > self.limits.nodes:
            raise _OverLimit(_too_many_nodes(self.limits, self._line(event.start_mark)))

    def _document(self, get: Callable[[], Any]) -> tuple[Node | None, Span | None]:
        """The root of the next document (its events up to its end), or None and where it starts when it
        holds more nodes than a document may (``ReadLimits.document_nodes``).

        Every node of every file passes through this loop: the common events (a scalar, a plain scalar key,
        a collection's start and end) are handled inline, names bound locally (a quarter of a read)."""
        limit = self.limits.document_nodes
        most = self.limits.nodes
        anchors: dict[str, Node | None] = {}  # None: the anchored collection is still open
        first_marks: dict[str, Any] = {}
        # open collections: [node, anchor, pending key (None, a key node or _MERGE), keys seen, merge sources]
        stack: list[list[Any]] = []
        root: Node | None = None
        built = 0  # of this document, alias copies included
        first: Span | None = None
        translate = self.translate
        source = self.source
        span_of = source.span
        tags_get = _TAGS.get
        styles_get = STYLE_NAMES.get
        while True:
            event = get()
            kind = type(event)
            if kind is ScalarEvent:
                self.nodes += 1
                if self.nodes > most:
                    raise _OverLimit(_too_many_nodes(self.limits, self._line(event.start_mark)))
                built += 1
                text: str = event.value
                tag = event.tag
                if tag is None or tag == "!":
                    if event.implicit[0]:
                        tag = tags_get(text)
                        if tag is None:
                            tag = _resolve_tag(text)
                    else:
                        tag = _STR_TAG
                start_mark, end_mark = event.start_mark, event.end_mark
                scalar = ScalarNode(
                    span_of(start_mark.index, end_mark.index) if translate else Span(
                        start_mark.line + 1, start_mark.column + 1, end_mark.line + 1, end_mark.column + 1),
                    start_mark.index,
                    end_mark.index,
                    text if tag == _STR_TAG else _construct(tag, text),
                    text,
                    styles_get(event.style, "plain"),
                    tag,
                    source,
                )
                node: Node = scalar
                anchor = event.anchor
                if anchor is not None:
                    self._anchor(anchors, first_marks, anchor, event)
                    anchors[anchor] = node
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                self._count(event)
                built += 1
                mark = event.start_mark
                if kind is MappingStartEvent:
                    node = MappingNode(_NO_SPAN, mark.index, mark.index, [])
                    merges = None
                else:
                    node = SequenceNode(_NO_SPAN, mark.index, mark.index, [])
                    # a list of merge sources (`<<: [*a, *b]`): its aliases are the sources, not copies
                    merges = _MERGE if stack and stack[-1][2] is _MERGE else None
                anchor = event.anchor
                if anchor is not None:
                    self._anchor(anchors, first_marks, anchor, event)
                    anchors[anchor] = None
                stack.append([node, anchor, None, {}, merges, mark])
                if first is None:
                    first = self._span(mark, mark)
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                node, anchor, _, seen, merges, mark = stack.pop()
                node.end = event.end_mark.index
                node.span = self._span(mark, event.end_mark)
                if merges and isinstance(node, MappingNode):
                    built += self._merge(node, seen, merges)
                if anchor is not None:
                    anchors[anchor] = node
            elif kind is AliasEvent:
                target = anchors.get(event.anchor, _MISSING)
                if target is _MISSING:
                    raise ComposerError(None, None, "found undefined alias", event.start_mark)
                where = self._span(event.start_mark, event.end_mark)
                if target is None:  # an alias inside the collection it names: it never ends
                    raise _AliasBomb(where)
                assert isinstance(target, Node)
                if stack and (stack[-1][2] is _MERGE or stack[-1][4] is _MERGE):
                    node = target  # a merge source: the pairs it gives are copied when merged
                else:
                    before = self.expanded
                    node = self._copy(target, where)
                    built += self.expanded - before
            elif kind is DocumentEndEvent:
                return root, None
            else:  # pragma: no cover - libyaml gives no other event inside a document
                raise ComposerError(None, None, f"unexpected {kind.__name__}", event.start_mark)
            if first is None:
                first = node.span
            if limit is not None and built > limit:
                self._pass_over(get)
                return None, first
            if not stack:
                root = node
                continue
            parent = stack[-1]
            collection = parent[0]
            if type(collection) is SequenceNode:
                collection.items.append(node)
            elif parent[2] is None:
                if type(node) is ScalarNode and node.tag != _MERGE_TAG and type(node.value) is str:
                    # a plain key (the key of nearly every pair): as ``_key`` takes it
                    seen = parent[3]
                    earlier = seen.get(node.value)
                    if earlier is None:
                        seen[node.value] = node
                    else:
                        self._duplicate(node, earlier)
                    parent[2] = node
                else:
                    parent[2] = self._key(node, parent[3])
            else:
                key = parent[2]
                parent[2] = None
                if key is _MERGE:
                    parent[4] = parent[4] or []
                    parent[4].append(node)
                else:
                    collection.pairs.append((key, node))

    def _pass_over(self, get: Callable[[], Any]) -> None:
        """Read the rest of a document past its node limit without building it (its nodes still count for
        the file's limit)."""
        while True:
            event = get()
            kind = type(event)
            if kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
                self._count(event)
            elif kind is DocumentEndEvent:
                return

    def _anchor(self, anchors: dict[str, Node | None], first_marks: dict[str, Any], anchor: str,
                event: Any) -> None:
        if anchor in anchors:  # libyaml's composer refuses this too, in these words
            raise ComposerError("found duplicate anchor; first occurrence", first_marks[anchor],
                                "second occurrence", event.start_mark)
        first_marks[anchor] = event.start_mark

    def _key(self, node: Node, seen: dict[object, ScalarNode]) -> Any:
        """The key a node makes in its mapping (whose keys so far are ``seen``): a merge (<<), a scalar (a
        repeat is a fault) or, for a collection, a placeholder with a fault."""
        if not isinstance(node, ScalarNode):
            problem = "a mapping key must be a plain value, not a collection"
            self.problems.append(YamlSyntax(self.source.path, node.span, problem))
            return ScalarNode(node.span, node.start, node.end, "", "", "plain")
        if node.tag == _MERGE_TAG:
            return _MERGE
        marker = node.value if isinstance(node.value, _PLAIN_TYPES) else node.text
        earlier = seen.get(marker)
        if earlier is None:
            seen[marker] = node
        else:
            self._duplicate(node, earlier)
        return node

    def _duplicate(self, key: ScalarNode, earlier: ScalarNode) -> None:
        self.duplicates += 1
        if self.duplicates <= MAX_LISTED_DUPLICATES:
            self.problems.append(DuplicateKey(self.source.path, key.span, key.text, earlier.span))
        elif self.unlisted is None:
            self.unlisted = (key.span, 1)
        else:
            self.unlisted = (self.unlisted[0], self.unlisted[1] + 1)

    def _merge(self, node: MappingNode, seen: dict[object, ScalarNode], merges: list[Node]) -> int:
        """Merge keys (<<) into ``node``: keys already present win, as in YAML 1.1; each merged key and value
        is a copy, counted as aliases are. How many nodes were added."""
        before = self.expanded
        present = {str(marker) for marker in seen}
        for merged in merges:
            sources = merged.items if isinstance(merged, SequenceNode) else [merged]
            for src in sources:
                if not isinstance(src, MappingNode):
                    continue
                for key, value in src.pairs:
                    if not key.tag or key.text in present:  # no tag: a collection's placeholder
                        continue
                    copy = self._copy(key, node.span)
                    assert isinstance(copy, ScalarNode)
                    seen[key.value] = copy
                    present.add(str(key.value))
                    node.pairs.append((copy, self._copy(value, node.span)))
        return self.expanded - before

    def _copy(self, node: Node, where: Span) -> Node:
        """A copy of an anchored tree for one more place of it (aliases are expanded: each place has nodes
        of its own), counted against MAX_ALIAS_EXPANSION; past it, an alias bomb at ``where``."""

        def fresh(item: Node) -> Node:
            self.expanded += 1
            if self.expanded > MAX_ALIAS_EXPANSION:
                raise _AliasBomb(where)
            if isinstance(item, ScalarNode):
                return ScalarNode(item.span, item.start, item.end, item.value, item.text, item.style,
                                  item.tag, item.source)
            if isinstance(item, MappingNode):
                twin: Node = MappingNode(item.span, item.start, item.end, [])
            else:
                assert isinstance(item, SequenceNode)
                twin = SequenceNode(item.span, item.start, item.end, [])
            work.append((item, twin))
            return twin

        work: list[tuple[Node, Node]] = []
        top = fresh(node)
        while work:
            original, twin = work.pop()
            if isinstance(original, MappingNode) and isinstance(twin, MappingNode):
                twin.pairs = [(fresh(key), fresh(value)) for key, value in original.pairs]  # type: ignore[misc]
            elif isinstance(original, SequenceNode) and isinstance(twin, SequenceNode):
                twin.items = [fresh(item) for item in original.items]
        return top
