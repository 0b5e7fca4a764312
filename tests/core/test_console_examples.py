"""Every console example of README.md and docs/ is what the tool prints (`python -m tests.console_examples
--write` brings them up to date)."""

from __future__ import annotations

import pytest
from console_examples import ELISION, blocks, documents, elided, matches, run

BLOCKS = [block for document in documents() for block in blocks(document)]


def test_the_documents_have_console_examples() -> None:
    names = {block.document.name for block in BLOCKS}
    assert {"README.md", "writing-definitions.md", "json-output.md"} <= names


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_console_example_is_what_the_tool_prints(block) -> None:
    for command, output in zip(block.commands, run(block), strict=True):
        assert matches(command.expected, output), (
            f"{block.name}: `{' '.join(command.args)}` prints otherwise (`python -m tests.console_examples "
            "--write` updates the documents):\n" + "\n".join(output)
        )


def test_elisions() -> None:
    assert matches(["a", ELISION, "z"], ["a", "b", "c", "z"])
    assert matches(["a", ELISION], ["a"])
    assert not matches(["a", ELISION, "z"], ["a", "b"])
    assert elided(["a", ELISION, "z"], ["a", "b", "c", "y"]) == ["a", ELISION, "y"]
