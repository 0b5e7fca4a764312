"""Read YAML or JSON text into positioned nodes; YAML faults become diagnostics, never exceptions.

PyYAML's C composer gives exact marks (character offsets, lines, columns) at C speed; scalar types are
resolved with YAML 1.1 rules as Kubernetes' decoder does (``yes``/``on`` are booleans there too).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import Span
from wmaplint.facts import Fact
from wmaplint.source.faults import AliasExpansion, DuplicateKey, HelmTemplate, YamlSyntax
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

# Nodes that aliases may add to a document; a "billion laughs" file stops here instead of exhausting memory.
MAX_ALIAS_EXPANSION = 100_000

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(slots=True)
class Document:
    index: int
    root: Node | None
    source: SourceText

    @property
    def path(self) -> str:
        return self.source.path


@dataclass(slots=True)
class SourceFile:
    path: str
    source: SourceText
    documents: list[Document] = field(default_factory=list)
    problems: list[Fact] = field(default_factory=list)  # the file's faults (wmaplint.source.faults)

    @property
    def text(self) -> str:
        return self.source.text


def load_path(path: str | Path) -> SourceFile:
    return load_text(read_path(path), str(path))


def load_text(text: str, path: str) -> SourceFile:
    source = SourceText(path, text)
    result = SourceFile(path=path, source=source)
    template = recognise_template(path, text)
    if template is not None:  # not YAML until rendered: one fault instead of what the parser would say
        span, action, chart = template
        result.problems.append(HelmTemplate(path, span, action, chart))
        return result
    # libyaml numbers lines as YAML 1.1 does; where that differs from our line model, offsets give positions
    translate = has_yaml11_breaks(text)
    builder = _Builder(source, result.problems, translate)
    try:
        with no_cyclic_gc():
            for index, ynode in enumerate(yaml.compose_all(text, Loader=_Loader)):
                root = builder.convert(ynode) if ynode is not None else None
                result.documents.append(Document(index=index, root=root, source=source))
                if root is not None:
                    source.roots.append((root.start, root.end))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _mark_position(source, mark, translate) if mark is not None else (1, 1)
        problem = _yaml_problem(exc, source, translate)
        result.problems.append(YamlSyntax(path, Span(line, col, line, col + 1), problem))
    except yaml.YAMLError as exc:
        result.problems.append(YamlSyntax(path, Span.point(1, 1), str(exc)))
    except _AliasBomb as exc:
        result.problems.append(AliasExpansion(path, exc.span, MAX_ALIAS_EXPANSION))
    except RecursionError:
        result.problems.append(YamlSyntax(path, Span.point(1, 1), "nesting is too deep to read"))
    return result


def scalar_reading_at(text: str, start: int) -> tuple[int, str | None, bool] | None:
    """How the scalar that starts at offset ``start`` reads in ``text``, straight from the composer: its end
    offset, its value when it resolves as a string (None for another type), and whether it is a mapping key
    that repeats a sibling key. None when the text does not compose or holds no scalar there: ``load_text``
    then tells. Edits check themselves with this; converting a whole document again costs several times
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
    """Aliases expand the document past MAX_ALIAS_EXPANSION nodes, here."""

    def __init__(self, span: Span) -> None:
        super().__init__(span)
        self.span = span


_scalar_constructor = yaml.SafeLoader("")


class _Builder:
    """Converts PyYAML nodes to ours without recursion, checking duplicate keys and alias growth."""

    def __init__(self, source: SourceText, problems: list[Fact], translate: bool = False) -> None:
        self.source = source
        self.problems = problems
        self.expanded = 0
        self.translate = translate

    def _span(self, ynode: yaml.Node) -> Span:
        if self.translate:
            return self.source.span(ynode.start_mark.index, ynode.end_mark.index)
        return Span(
            ynode.start_mark.line + 1, ynode.start_mark.column + 1,
            ynode.end_mark.line + 1, ynode.end_mark.column + 1,
        )

    def scalar(self, ynode: yaml.Node) -> ScalarNode:
        text = ynode.value if isinstance(ynode.value, str) else str(ynode.value)
        value: object = text
        tag = ynode.tag or _STR_TAG
        if tag != _STR_TAG and isinstance(ynode, yaml.ScalarNode):
            try:
                value = _scalar_constructor.construct_object(ynode, deep=False)
            except Exception:
                value = text
            if not isinstance(value, (str, int, float, bool, type(None))):
                value = text  # timestamps, binary: Kubernetes sees their text
        return ScalarNode(
            span=self._span(ynode),
            start=ynode.start_mark.index,
            end=ynode.end_mark.index,
            value=value,
            text=text,
            style=STYLE_NAMES.get(getattr(ynode, "style", None), "plain"),
            tag=tag,
            source=self.source,
        )

    def convert(self, top: yaml.Node) -> Node:
        seen: set[int] = set()

        def shell(ynode: yaml.Node, inside_alias: bool) -> Node:
            reused = id(ynode) in seen
            seen.add(id(ynode))
            if reused or inside_alias:
                self.expanded += 1
                if self.expanded > MAX_ALIAS_EXPANSION:
                    raise _AliasBomb(self._span(ynode))
            if isinstance(ynode, yaml.MappingNode):
                node: Node = MappingNode(self._span(ynode), ynode.start_mark.index, ynode.end_mark.index, [])
            elif isinstance(ynode, yaml.SequenceNode):
                node = SequenceNode(self._span(ynode), ynode.start_mark.index, ynode.end_mark.index, [])
            else:
                return self.scalar(ynode)
            work.append((ynode, node, reused or inside_alias))
            return node

        work: list[tuple[yaml.Node, Node, bool]] = []
        root = shell(top, False)
        while work:
            ynode, node, aliased = work.pop()
            if isinstance(node, SequenceNode):
                node.items = [shell(child, aliased) for child in ynode.value]
                continue
            assert isinstance(node, MappingNode)
            first_seen: dict[object, ScalarNode] = {}
            merges: list[yaml.Node] = []
            for ykey, yvalue in ynode.value:
                if ykey.tag == _MERGE_TAG:
                    merges.append(yvalue)
                    continue
                key = self.scalar(ykey) if isinstance(ykey, yaml.ScalarNode) else self._complex_key(ykey)
                marker = key.value if isinstance(key.value, (str, int, float, bool, type(None))) else key.text
                earlier = first_seen.get(marker)
                if earlier is not None:
                    self.problems.append(DuplicateKey(self.source.path, key.span, key.text, earlier.span))
                else:
                    first_seen[marker] = key
                node.pairs.append((key, shell(yvalue, aliased)))
            # merge keys (<<): keys already present win, as in YAML 1.1
            for merged in merges:
                sources = merged.value if isinstance(merged, yaml.SequenceNode) else [merged]
                for src in sources:
                    if not isinstance(src, yaml.MappingNode):
                        continue
                    for ykey, yvalue in src.value:
                        merged_keys = {str(m) for m in first_seen}
                        if not isinstance(ykey, yaml.ScalarNode) or ykey.value in merged_keys:
                            continue
                        key = self.scalar(ykey)
                        first_seen[key.value] = key
                        node.pairs.append((key, shell(yvalue, True)))
        return root

    def _complex_key(self, ykey: yaml.Node) -> ScalarNode:
        problem = "a mapping key must be a plain value, not a collection"
        self.problems.append(YamlSyntax(self.source.path, self._span(ykey), problem))
        return ScalarNode(self._span(ykey), ykey.start_mark.index, ykey.end_mark.index, "", "", "plain")
