"""The language server end to end over stdio, as VS Code drives it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from wmaplint.rules.examples import JOB

pytestmark = pytest.mark.asyncio(loop_scope="module")

BROKEN = JOB.replace("[{type: Failed", "[{tpe: Failed")
EMOJI = JOB.replace(".spec.template}", "'\"😀\" as $x | .spec.templat'}")
WITH_CHILD = (
    JOB
    + """\
    childComponents:
    - name: pods
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: job
      scaleDefinition: {replicasPath: '[.spec.parallelism, 1] | max'}
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: gang
        members:
        - componentName: pods
"""
)


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "wmaplint", "lsp"])
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _uri(tmp_path: Path, name: str) -> str:
    return (tmp_path / name).as_uri()


async def _open(client: LanguageClient, uri: str, text: str, language: str = "yaml") -> list[lsp.Diagnostic]:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    return await _diagnostics(client, uri)


async def _diagnostics(client: LanguageClient, uri: str, until=lambda found: True) -> list[lsp.Diagnostic]:
    for _ in range(400):
        if uri in client.diagnostics and until(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await asyncio.sleep(0.025)
    raise AssertionError(f"no diagnostics published for {uri}")


def _find(lines: list[str], line: int, token: str) -> int:
    """UTF-16 column of a token on a line."""
    return len(lines[line][: lines[line].index(token)].encode("utf-16-le")) // 2


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        s, e = edit.range.start, edit.range.end
        assert s.line == e.line, "test helper applies single-line edits only"
        line = lines[s.line].encode("utf-16-le")
        lines[s.line] = (
            line[: s.character * 2].decode("utf-16-le")
            + edit.new_text
            + line[e.character * 2 :].decode("utf-16-le")
        )
    return "\n".join(lines)


async def test_broken_definition_gets_positioned_diagnostics(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "broken.yaml")
    found = await _open(client, uri, BROKEN)
    unknown = [d for d in found if d.code == "WM112"]
    assert len(unknown) == 1
    line = BROKEN.splitlines().index('          failed: [{byConditions: [{tpe: Failed, status: "True"}]}]')
    col = _find(BROKEN.splitlines(), line, "tpe")
    assert unknown[0].range == lsp.Range(
        start=lsp.Position(line=line, character=col), end=lsp.Position(line=line, character=col + 3)
    )
    assert unknown[0].severity == lsp.DiagnosticSeverity.Warning
    assert unknown[0].source == "wmaplint"
    assert any(d.code == "WM111" and d.severity == lsp.DiagnosticSeverity.Error for d in found)


async def test_quick_fix_renames_the_field(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "fix.yaml")
    found = await _open(client, uri, BROKEN)
    target = next(d for d in found if d.code == "WM112")
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=target.range,
            context=lsp.CodeActionContext(diagnostics=[target]),
        )
    )
    assert result is not None
    titles = [a.title for a in result if isinstance(a, lsp.CodeAction)]
    assert "rename to type" in titles
    assert "Disable WM112 for this line" in titles
    fix = next(a for a in result if isinstance(a, lsp.CodeAction) and a.title == "rename to type")
    assert fix.edit is not None and fix.edit.changes is not None
    fixed = _apply(BROKEN, fix.edit.changes[uri])
    assert fixed == JOB
    disable = next(a for a in result if isinstance(a, lsp.CodeAction) and a.title.startswith("Disable"))
    assert disable.edit is not None and disable.edit.changes is not None
    suppressed = _apply(BROKEN, disable.edit.changes[uri])
    assert '[{tpe: Failed, status: "True"}]}]  # wmaplint: disable=WM112 -- reason' in suppressed


async def test_change_relints_and_drops_fixed_findings(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "change.yaml")
    assert any(d.code == "WM112" for d in await _open(client, uri, BROKEN))
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=JOB)],
        )
    )
    after = await _diagnostics(client, uri, until=lambda found: not any(d.code == "WM112" for d in found))
    assert not any(d.code == "WM111" for d in after)


async def test_utf16_range_after_an_emoji(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "emoji.yaml")
    found = await _open(client, uri, EMOJI)
    wrong_path = next(d for d in found if d.code == "WM301")
    lines = EMOJI.splitlines()
    line = next(i for i, text in enumerate(lines) if "😀" in text)
    col = _find(lines, line, "templat")
    assert wrong_path.range.start == lsp.Position(line=line, character=col)
    assert wrong_path.range.end == lsp.Position(line=line, character=col + len("templat"))


async def test_other_yaml_gets_no_diagnostics(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "deployment.yaml")
    text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: [unclosed\n"
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    # lints run in order: once a definition opened after it has its diagnostics, the other file had its turn
    assert await _open(client, _uri(tmp_path, "after.yaml"), BROKEN)
    assert uri not in client.diagnostics


async def test_hover_on_a_field_and_on_a_jq_builtin(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "hover.yaml")
    await _open(client, uri, WITH_CHILD)
    lines = WITH_CHILD.splitlines()
    line = next(i for i, t in enumerate(lines) if "[.spec.parallelism, 1] | max" in t)
    on_key = await client.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=line, character=_find(lines, line, "replicasPath") + 2),
        )
    )
    assert on_key is not None and isinstance(on_key.contents, lsp.MarkupContent)
    assert "Current or desired replicas" in on_key.contents.value
    assert "root workload object" in on_key.contents.value
    on_builtin = await client.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=line, character=_find(lines, line, "max'") + 1),
        )
    )
    assert on_builtin is not None and isinstance(on_builtin.contents, lsp.MarkupContent)
    assert "**max/0**" in on_builtin.contents.value
    assert on_builtin.range is not None and on_builtin.range.start.character == _find(lines, line, "max'")


async def test_completion_offers_fields_and_component_names(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "complete.yaml")
    text = WITH_CHILD.replace("      ownerRef: job\n", "      ownerRef: j\n      \n")
    await _open(client, uri, text)
    lines = text.splitlines()
    blank = lines.index("      ", 20)
    fields = await client.text_document_completion_async(
        lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=blank, character=6)
        )
    )
    assert isinstance(fields, lsp.CompletionList)
    labels = {item.label for item in fields.items}
    assert {"instanceIdPath", "podSelector", "specDefinition"} <= labels
    assert not labels & {"name", "kind", "ownerRef"}  # already present in this component
    ref_line = lines.index("      ownerRef: j")
    refs = await client.text_document_completion_async(
        lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=ref_line, character=17),
        )
    )
    assert isinstance(refs, lsp.CompletionList)
    assert {item.label for item in refs.items} == {"job", "pods"}


async def test_go_to_definition_of_owner_ref_and_gang_member(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "definition.yaml")
    await _open(client, uri, WITH_CHILD)
    lines = WITH_CHILD.splitlines()
    owner = lines.index("      ownerRef: job")
    result = await client.text_document_definition_async(
        lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=owner, character=17)
        )
    )
    assert isinstance(result, list) and len(result) == 1
    job_line = lines.index("      name: job")
    assert result[0].uri == uri
    assert result[0].range.start == lsp.Position(line=job_line, character=12)
    member = lines.index("        - componentName: pods")
    result = await client.text_document_definition_async(
        lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=member, character=26),
        )
    )
    assert isinstance(result, list)
    assert result[0].range.start == lsp.Position(line=lines.index("    - name: pods"), character=12)


async def test_symbols_show_the_component_tree_and_gangs(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "symbols.yaml")
    await _open(client, uri, WITH_CHILD)
    result = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    assert result is not None and len(result) == 1
    top = result[0]
    assert isinstance(top, lsp.DocumentSymbol) and top.name == "batch-job-v1"
    children = {c.name: c for c in top.children or []}
    assert set(children) == {"job", "gang"}
    job = children["job"]
    assert job.detail == "root · batch/v1/Job"
    assert [(c.name, c.detail) for c in job.children or []] == [("pods", "child · v1/Pod")]
    assert [m.name for m in children["gang"].children or []] == ["pods"]
