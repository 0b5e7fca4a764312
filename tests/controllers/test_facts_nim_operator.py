"""Facts of the NIM operator controller model (schemas/controllers/nim-operator.yaml), each shown on a real
catalog definition, example or recorded object: the outcome that changed with the fact. NIM operator:
NIMService states NotReady, Ready, Failed and PVC-Created; Pending is never written."""

from __future__ import annotations

from wmaplint.engine import lint_text

from .helpers import (
    catalog,
    findings,
    vary,
)


def test_a_nimservice_mapping_a_state_never_written() -> None:
    text = vary(catalog("apps-nvidia-com-nimservice-v1alpha1.yaml"), "            - byPhase: NotReady\n",
                "            - byPhase: NotReady\n            - byPhase: Pending\n")
    [d] = findings(text, "WM421")
    assert "'Pending'" in d.message and "PVC-Created" in d.message


def test_the_shipped_nim_and_milvus_definitions_map_no_unknown_phase() -> None:
    for name in ("apps-nvidia-com-nimservice-v1alpha1.yaml", "apps-nvidia-com-nimcache-v1alpha1.yaml",
                 "milvus-io-milvus-v1beta1.yaml", "agents-x-k8s-io-sandbox-v1beta1.yaml"):
        status_rules = ("WM421", "WM440", "WM441")
        assert [d.message for d in lint_text(catalog(name), name) if d.rule in status_rules] == []
