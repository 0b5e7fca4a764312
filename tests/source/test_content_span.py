"""A node's content span: block collections end at their last item, flow collections keep their bracket."""

from __future__ import annotations

from wmaplint.source import content_span, load_text

TEXT = """\
failed:
  - byConditions: [{type: Failed, status: "True"}]
  - byPhase: Failed
    byConditions:
      - type: Ready
        status: "False"
flow: {a: 1, b: [x, y]}
"""


def test_block_collections_end_at_their_last_item() -> None:
    root = load_text(TEXT, "d.yaml").documents[0].root
    first, second = root.get("failed").items
    assert first.span.end_line == 3  # PyYAML ends it where the next item starts
    assert content_span(first) == type(first.span)(2, 5, 2, 51)
    assert content_span(second) == type(first.span)(3, 5, 6, 24)
    assert content_span(root.get("failed")).end_line == 6


def test_flow_collections_and_scalars_keep_their_span() -> None:
    root = load_text(TEXT, "d.yaml").documents[0].root
    flow = root.get("flow")
    assert content_span(flow) == flow.span and TEXT.splitlines()[6][flow.span.end_col - 2] == "}"
    scalar = root.get("failed").items[1].get("byPhase")
    assert content_span(scalar) == scalar.span
