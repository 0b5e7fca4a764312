"""The controller model in the editor: hover on a label key, a condition type or a phase value shows the
model's fact and its source; completion inside a selector offers the keys the controller writes on the
component's pods. The functions first, then once over stdio through the server."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from wmaplint.lsp.completion import completions
from wmaplint.lsp.hover import hover
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.shipped_data import shipped

RAYJOB = (shipped("catalog") / "ray-io-rayjob-v1.yaml").read_text(encoding="utf-8")
RAYCLUSTER = (shipped("catalog") / "ray-io-raycluster-v1.yaml").read_text(encoding="utf-8")
PYTORCH = (shipped("catalog") / "kubeflow-org-pytorchjob-v1.yaml").read_text(encoding="utf-8")
SUBMITTER_KEY = 'keyPath: .metadata.labels["batch.kubernetes.io/job-name"]'
HEAD_KEY = 'keyPath: .metadata.labels["ray.io/node-type"]'


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def _at(text: str, marker: str, delta: int = 0) -> lsp.Position:
    return _position(text, text.index(marker) + delta)


def _hover_text(text: str, marker: str, delta: int = 0) -> str:
    found = hover(Snapshot(text, "definition.yaml"), _at(text, marker, delta))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    return found.contents.value


def test_hover_on_a_label_key_shows_its_role_derivation_and_source() -> None:
    text = _hover_text(RAYJOB, 'ray.io/group"]', 3)
    assert text.startswith("**label `ray.io/group`** (entry): the worker group's groupName")
    assert "names the entries of `.spec.rayClusterSpec.workerGroupSpecs`" in text
    assert "ray-operator/controllers/ray/utils/constant.go" in text
    assert "schemas/controllers/kuberay.yaml" in text


def test_hover_on_a_label_another_component_carries_says_so() -> None:
    head = "\n            value: head"
    text = RAYJOB.replace(HEAD_KEY + head, SUBMITTER_KEY + head, 1)
    shown = _hover_text(text, 'batch.kubernetes.io/job-name"]\n            value: head', 2)
    assert "written on the submitter pods only" in shown
    assert "**not written on the pods of `head`** (head)" in shown


def test_hover_range_is_the_key() -> None:
    found = hover(Snapshot(RAYJOB, "d.yaml"), _at(RAYJOB, 'ray.io/group"]', 1))
    assert found is not None and found.range is not None
    start = _at(RAYJOB, 'ray.io/group"]')
    assert (found.range.start, found.range.end.character) == (start, start.character + len("ray.io/group"))


def test_hover_on_a_condition_type_and_on_one_the_controller_never_sets() -> None:
    text = _hover_text(PYTORCH, "type: Succeeded", 7)
    said = "**condition `Succeeded`** of kubeflow.org/v1/PyTorchJob: kubeflow/training-operator v1.9.0"
    assert said in text
    assert "PyTorchJobSucceeded" in text
    wrong = PYTORCH.replace("type: Succeeded", "type: Complete", 1)
    assert "never set by kubeflow.org/v1/PyTorchJob" in _hover_text(wrong, "type: Complete", 7)


def test_hover_on_a_phase_value() -> None:
    text = _hover_text(RAYCLUSTER, "byPhase: ready", 10)
    assert "**phase `ready`**: one of the values ray.io/v1/RayCluster sets at `.status.state`" in text
    wrong = RAYCLUSTER.replace("byPhase: ready", "byPhase: Ready", 1)
    assert "**not** a value" in _hover_text(wrong, "byPhase: Ready", 10)


def _cleared(text: str, marker: str, replacement: str) -> tuple[str, lsp.Position]:
    at = text.index(marker)
    changed = text[:at] + replacement + text[at + len(marker):]
    return changed, _position(changed, at + len(replacement))


def test_completion_in_a_selector_offers_the_keys_written_on_that_components_pods() -> None:
    text, position = _cleared(RAYJOB, SUBMITTER_KEY, 'keyPath: .metadata.labels["')
    items = completions(Snapshot(text, "d.yaml"), position)
    labels = [i.label for i in items]
    # the submitter's pod: the Job controller's labels and the RayJob's own (ray-project/kuberay v1.7.0
    # ray-operator/controllers/ray/rayjob_controller.go getSubmitterTemplate), none of the cluster's pods
    assert {"batch.kubernetes.io/job-name", "job-name", "ray.io/originated-from-cr-name",
            "ray.io/originated-from-crd"} <= set(labels)
    assert "ray.io/node-type" not in labels and "ray.io/group" not in labels
    edit = items[labels.index("batch.kubernetes.io/job-name")].text_edit
    assert isinstance(edit, lsp.TextEdit) and edit.new_text == "batch.kubernetes.io/job-name"
    selector = f"{HEAD_KEY}\n            value: head"
    head, position = _cleared(RAYJOB, selector, 'keyPath: .metadata.labels["ray.')
    labels = [i.label for i in completions(Snapshot(head, "d.yaml"), position)]
    assert "ray.io/node-type" in labels and "batch.kubernetes.io/job-name" not in labels


def test_no_label_completion_outside_a_label_read() -> None:
    text, position = _cleared(RAYJOB, SUBMITTER_KEY, "keyPath: .metadata.")
    items = completions(Snapshot(text, "d.yaml"), position)
    assert all(i.kind != lsp.CompletionItemKind.Value for i in items)


# -- over stdio

over_stdio = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "wmaplint", "lsp"])
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


@over_stdio
async def test_the_server_hovers_and_completes_from_the_model(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "rayjob.yaml").as_uri()
    text, position = _cleared(RAYJOB, SUBMITTER_KEY, 'keyPath: .metadata.labels["')
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    found = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_at(text, 'ray.io/group"]', 2)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert "**label `ray.io/group`** (entry)" in found.contents.value
    listed = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=position))
    assert isinstance(listed, lsp.CompletionList)
    assert "batch.kubernetes.io/job-name" in {item.label for item in listed.items}
