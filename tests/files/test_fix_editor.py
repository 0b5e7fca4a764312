"""The editor's quick fixes are the same edits as `check --fix`: asked through the server's code-action
handler, they keep a folded block scalar whole, and their titles are one line."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from wmaplint.engine import lint_text
from wmaplint.fixes import apply_edits
from wmaplint.source import find_node, load_text

from .test_fix_properties import FAN_OUT, JOBSET, MPIJOB, SELECTOR

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The replicas path in a folded block scalar, over two lines, with an anchor the fix must keep.
FOLDED = JOBSET.replace(
    f"scaleDefinition: {{replicasPath: '{FAN_OUT}'}}",
    f"scaleDefinition:\n        replicasPath: &replicas >-\n          {FAN_OUT}\n          // 1",
)
# A keyPath with a comment in a literal block: the fix's text spans two lines, its title must not.
LITERAL = MPIJOB.replace(f"keyPath: '{SELECTOR}'", f"keyPath: |\n            {SELECTOR}  # role as fallback")
REPLICAS = ("spec", "structureDefinition", "childComponents", 0, "scaleDefinition", "replicasPath")


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "wmaplint", "lsp"])
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def _quick_fixes(client: LanguageClient, uri: str, text: str, rule: str) -> list[lsp.CodeAction]:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    for _ in range(400):
        found = [d for d in client.diagnostics.get(uri, []) if d.code == rule]
        if found:
            break
        await asyncio.sleep(0.025)
    else:
        raise AssertionError(f"no {rule} published for {uri}")
    result = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found)))
    assert result is not None
    return [a for a in result if isinstance(a, lsp.CodeAction) and not a.title.startswith("Disable")]


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """LSP edits (0-based lines, UTF-16 columns; ASCII text here) applied from the end."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: lsp.Position) -> int:
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def test_quick_fix_in_a_folded_block_scalar_keeps_the_file_whole(client: LanguageClient,
                                                                      tmp_path: Path) -> None:
    uri = (tmp_path / "folded.yaml").as_uri()
    (action,) = await _quick_fixes(client, uri, FOLDED, "WM220")
    assert action.edit is not None and action.edit.changes is not None
    fixed = _apply(FOLDED, action.edit.changes[uri])
    (finding,) = [d for d in lint_text(FOLDED, "folded.yaml") if d.rule == "WM220"]
    assert fixed == apply_edits(FOLDED, list(finding.fixes[0].edits))  # the same edit as `check --fix`
    source = load_text(fixed, "folded.yaml")
    assert not source.problems
    node = find_node(source.documents[0].root, REPLICAS)
    assert node is not None and node.value == ".spec.replicatedJobs[]? | (.template.spec.parallelism // 1)"
    assert "replicasPath: &replicas >-\n" in fixed
    assert fixed.replace("replicatedJobs[]? | (.template", "replicatedJobs[].template").replace(
        "parallelism // 1)", "parallelism\n          // 1") == FOLDED


async def test_quick_fix_titles_are_one_line(client: LanguageClient, tmp_path: Path) -> None:
    uri = (tmp_path / "literal.yaml").as_uri()
    (action,) = await _quick_fixes(client, uri, LITERAL, "WM235")
    assert "\n" not in action.title and len(action.title) <= 80
    assert action.edit is not None and action.edit.changes is not None
    fixed = _apply(LITERAL, action.edit.changes[uri])
    selector = ("spec", "structureDefinition", "childComponents", 0, "podSelector", "componentTypeSelector")
    node = find_node(load_text(fixed, "literal.yaml").documents[0].root, (*selector, "keyPath"))
    (finding,) = [d for d in lint_text(LITERAL, "literal.yaml") if d.rule == "WM235"]
    assert fixed == apply_edits(LITERAL, list(finding.fixes[0].edits))  # the same edit as `check --fix`
    # the closing parenthesis goes on a line of its own, out of the comment's reach, indented as the block
    assert node is not None and node.value.startswith(f"({SELECTOR}  # role as fallback")
    assert node.value.endswith("\n)\n") and node.value.count("\n") == 2
    assert fixed.startswith(LITERAL.split(SELECTOR)[0] + "(")
    assert "\n            )\n" in fixed
