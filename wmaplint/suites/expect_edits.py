"""`test --update` in place: the text of a suite with the ``expect`` of some cases replaced, every other byte
kept.

Dumping the whole suite again with ruamel.yaml's round trip kept its comments but wrote the file in one
indentation of ruamel's: a suite indented by four, or with indented lists, came back re-indented, and
comments moved with the keys around them. The suite's positioned nodes (``wmaplint.source``) say where each
block stands, so only those characters are replaced; ruamel.yaml writes the new block, at the block's own
indentation and with the suite's indentation step. The result is read again and must hold exactly the
expectations written, else nothing is written.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import TYPE_CHECKING, Any

import yaml

from wmaplint.source import MappingNode, Node, content_span, find_node, iter_nodes

if TYPE_CHECKING:
    from wmaplint.resolve.loading import LoadedDocument

WIDTH = 110


def _is_block(node: Node, text: str) -> bool:
    return text[node.start:node.start + 1] not in ("{", "[")


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1)


def _last_line_end(node: Node, suite: LoadedDocument) -> int:
    """Where the line a node's own text ends on ends (``content_span``: a block collection is cut back to its
    last item), before its line break: a comment after the value goes with it."""
    return suite.file.source.lines.line_bounds(content_span(node).end_line)[1]


def _indent_step(root: Node | None, text: str) -> int:
    """How far the suite indents a block mapping below its key: the most common step, else 2."""
    steps: Counter[int] = Counter()
    for node in iter_nodes(root) if root is not None else ():
        if isinstance(node, MappingNode):
            for key, value in node.pairs:
                if isinstance(value, MappingNode) and value.pairs and _is_block(value, text):
                    step = _column(text, value.start) - _column(text, key.start)
                    if 2 <= step <= 9:  # what a YAML writer can write
                        steps[step] += 1
    return steps.most_common(1)[0][0] if steps else 2


def _block(value: dict[str, Any], indent: int, step: int) -> str:
    """The expectation as block YAML, each line after the first indented by ``indent``; collections of plain
    values in flow style, as suites write them (``totals: {pods: 3, gpus: 12}``)."""
    from ruamel.yaml import YAML

    writer = YAML(typ="safe", pure=True)
    writer.default_flow_style = None
    writer.width = max(WIDTH - indent, 40)
    writer.indent(mapping=step, sequence=step, offset=0)
    writer.representer.sort_base_mapping_type_on_output = False  # the order of the results, as compared
    buffer = io.StringIO()
    writer.dump(value, buffer)
    lines = buffer.getvalue().rstrip("\n").split("\n")
    return ("\n" + " " * indent).join(lines)


def expect_edits(suite: LoadedDocument, changed: dict[int, dict[str, Any]]) -> str | None:
    """The suite's text with the ``expect`` of each case in ``changed`` (its index) set to the value given;
    None when the edit would not read back as exactly those values."""
    text = suite.file.text
    step = _indent_step(suite.document.root, text)
    edits: list[tuple[int, int, str]] = []
    for index, value in changed.items():
        case = find_node(suite.document.root, ("cases", index))
        if not isinstance(case, MappingNode) or not case.pairs:
            return None
        key = case.key_node("expect")
        node = case.get("expect")
        if key is not None and node is not None:
            end = _last_line_end(node, suite)
            if isinstance(node, MappingNode) and node.pairs and _is_block(node, text):
                column = _column(text, node.start)  # a block mapping: written where it stands
                edits.append((node.start, end, _block(value, column, step)))
            else:  # a flow mapping or a scalar after `expect:`: a block below the key
                column = _column(text, key.start) + step
                colon = text.index(":", key.end)
                edits.append((colon + 1, end, "\n" + " " * column + _block(value, column, step)))
        else:  # no expectation yet: below the case's last line, at the keys' indentation
            column = _column(text, case.pairs[0][0].start)
            end = _last_line_end(case, suite)
            inner = column + step
            edits.append((end, end, f"\n{' ' * column}expect:\n{' ' * inner}{_block(value, inner, step)}"))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text if _reads_back(text, changed) else None


def _reads_back(text: str, changed: dict[int, dict[str, Any]]) -> bool:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        return False
    return all(index < len(cases) and isinstance(cases[index], dict) and cases[index].get("expect") == value
               for index, value in changed.items())
