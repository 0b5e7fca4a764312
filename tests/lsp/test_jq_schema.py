"""Schema-aware hover and completion inside jq expressions, end to end over stdio against the real CRDs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

JOBSET = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: jobset-v1}
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      instanceIdPath: '.spec.replicatedJobs[].name'
      specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'}
      scaleDefinition: {replicasPath: '.spec.replicatedJobs[].replicas // 1'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}
"""


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


async def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )


def _find(lines: list[str], line: int, token: str) -> int:
    """UTF-16 column of a token on a line."""
    return len(lines[line][: lines[line].index(token)].encode("utf-16-le")) // 2


def _at(text: str, marker: str, delta: int = 0) -> lsp.Position:
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines) if marker in t)
    return lsp.Position(line=line, character=_find(lines, line, marker) + delta)


async def _hover(client: LanguageClient, uri: str, position: lsp.Position) -> lsp.Hover | None:
    return await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=position)
    )


async def _complete(client: LanguageClient, uri: str, position: lsp.Position) -> list[lsp.CompletionItem]:
    found = await client.text_document_completion_async(
        lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=position)
    )
    assert isinstance(found, lsp.CompletionList)
    return found.items


async def test_hover_on_a_path_segment_shows_the_crd_property(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "jobset.yaml")
    await _open(client, uri, JOBSET)
    found = await _hover(client, uri, _at(JOBSET, "replicatedJobs[].name", 3))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    text = found.contents.value
    assert "**replicatedJobs**: array of object — optional" in text
    assert "replicatedJobs is the group of jobs that will form the set." in text
    assert "jobset_v1alpha2.yaml:" in text and "JobSet (jobset.x-k8s.io/v1alpha2)" in text
    start = _at(JOBSET, "replicatedJobs[].name")
    assert found.range == lsp.Range(
        start=start, end=lsp.Position(line=start.line, character=start.character + len("replicatedJobs"))
    )
    # a scalar with a default and the integer type
    replicas = await _hover(client, uri, _at(JOBSET, "replicas // 1", 1))
    assert replicas is not None and "**replicas**: integer" in replicas.contents.value
    assert "Default: `1`" in replicas.contents.value


async def test_hover_in_pod_context_uses_the_pod_schema(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "pod-hover.yaml")
    await _open(client, uri, JOBSET)
    found = await _hover(client, uri, _at(JOBSET, "labels[", 2))
    assert found is not None and "**labels**: map of string" in found.contents.value
    assert "Typed against a Pod" in found.contents.value


async def test_hover_on_an_unknown_segment_gives_nothing(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "unknown.yaml")
    text = JOBSET.replace(".spec.replicatedJobs[].name", ".spec.replicatedJob[].name")
    await _open(client, uri, text)
    assert await _hover(client, uri, _at(text, "replicatedJob[]", 3)) is None
    # the server still answers: the known segment before it hovers
    assert await _hover(client, uri, _at(text, "spec.replicatedJob", 1)) is not None


async def test_completion_after_spec_dot_lists_the_jobset_spec(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "complete-jobset.yaml")
    text = JOBSET.replace("'.spec.replicatedJobs[].replicas // 1'", "'.spec.'")
    await _open(client, uri, text)
    items = await _complete(client, uri, _at(text, ".spec.'", len(".spec.")))
    by_label = {item.label: item for item in items}
    assert {"replicatedJobs", "suspend", "network", "startupPolicy"} <= set(by_label)
    jobs = by_label["replicatedJobs"]
    assert jobs.detail == "array of object"
    assert isinstance(jobs.documentation, lsp.MarkupContent)
    assert "group of jobs" in jobs.documentation.value
    assert jobs.text_edit is not None and jobs.text_edit.new_text == "replicatedJobs"


async def test_completion_after_iteration_offers_the_element_fields(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "complete-element.yaml")
    text = JOBSET.replace("'.spec.replicatedJobs[].replicas // 1'", "'.spec.replicatedJobs[].rep // 1'")
    await _open(client, uri, text)
    items = await _complete(client, uri, _at(text, ".rep //", len(".rep")))
    labels = {item.label for item in items}
    assert {"name", "replicas", "template", "dependsOn"} <= labels
    edit = next(item.text_edit for item in items if item.label == "replicas")
    assert isinstance(edit, lsp.TextEdit)
    start = _at(text, "rep //")
    assert edit.range.start == start and edit.range.end.character == start.character + 3


async def test_pod_context_completion_after_metadata(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "complete-pod.yaml")
    text = JOBSET.replace(
        """'.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'""", "'.metadata.'"
    )
    await _open(client, uri, text)
    items = await _complete(client, uri, _at(text, ".metadata.'", len(".metadata.")))
    labels = {item.label for item in items}
    assert {"labels", "annotations", "name", "namespace"} <= labels
    assert "replicatedJobs" not in labels


async def test_yaml_completion_outside_expressions_is_unchanged(client: LanguageClient, tmp_path: Path):
    uri = _uri(tmp_path, "complete-yaml.yaml")
    text = JOBSET.replace("      podSelector:\n", "      \n      podSelector:\n")
    await _open(client, uri, text)
    lines = text.splitlines()
    blank = lines.index("      ")
    items = await _complete(client, uri, lsp.Position(line=blank, character=6))
    assert "statusDefinition" in {item.label for item in items}
