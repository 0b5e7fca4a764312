"""A project's own controller facts (`controllers:` in .wmaplint.yaml) reach every reader of the model: the
rules of `check`, `tree`, `new` and the editor's hover."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner
from lsprotocol import types as lsp

from wmaplint.cli import main
from wmaplint.engine import lint_text
from wmaplint.lsp.hover import hover
from wmaplint.lsp.snapshot import Snapshot

from .helpers import EXAMPLES

# a fork of KubeRay that sets one condition more, and says what a RayCluster's head pod carries
OURS = """\
version: 1
kinds:
  - group: ray.io
    kind: RayCluster
    versions: [v1]
    source: our fork of kuberay
    status:
      source: our fork's raycluster_controller.go
      conditions:
        Quiesced: {source: "our fork: True while the cluster drains", reasons: [Draining]}
      phases:
        .status.state: {values: [quiescing], source: "our fork: the state while draining"}
    assumptions:
      - {source: our fork, note: '"our fork drains a cluster before it suspends it"'}
"""

QUIESCED = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: ray-io-raycluster-v1}
spec:
  structureDefinition:
    rootComponent:
      name: raycluster
      kind: {group: ray.io, version: v1, kind: RayCluster}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          running: [{byConditions: [{type: HeadPodReady, status: "True"}]}]
          suspending: [{byConditions: [{type: Quiesced, status: "True"}]}]
          degraded:
            - byExpression: {expression: '(.status.state // "") == "quiescing"', expectedResult: "true"}
"""


def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "ours.yaml").write_text(OURS, encoding="utf-8")
    (tmp_path / ".wmaplint.yaml").write_text("controllers: [ours.yaml]\n", encoding="utf-8")
    return tmp_path


def in_directory(directory: Path, *args: str) -> tuple[int, str, str]:
    before = os.getcwd()
    os.chdir(directory)
    try:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)
    return result.exit_code, result.stdout, result.stderr


def test_the_rules_see_a_projects_condition_and_phase(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    alone = [d.rule for d in lint_text(QUIESCED, str(elsewhere / "definition.yaml"))]
    assert "WM420" in alone and "WM441" in alone  # the shipped model knows neither
    ours = tmp_path / "ours"
    ours.mkdir()
    found = [d.rule for d in lint_text(QUIESCED, str(project(ours) / "definition.yaml"))]
    assert "WM420" not in found and "WM441" not in found


def test_tree_prints_a_projects_assumption(tmp_path: Path) -> None:
    manifest = EXAMPLES / "ray-io-raycluster-v1" / "gpu-cluster-ready.yaml"
    shutil.copy(manifest, project(tmp_path) / "cluster.yaml")
    code, stdout, _ = in_directory(tmp_path, "tree", "cluster.yaml", "--format", "json")
    assert code == 0
    [workload] = json.loads(stdout)["workloads"]
    assert "our fork drains a cluster before it suspends it" in workload["assumptions"]


def test_new_lists_a_projects_condition(tmp_path: Path) -> None:
    code, stdout, stderr = in_directory(project(tmp_path), "new", "--kind", "RayCluster", "--version", "v1")
    assert code == 0, stderr
    assert "Quiesced" in stdout


def test_hover_shows_a_projects_condition(tmp_path: Path) -> None:
    ours = tmp_path / "ours"
    ours.mkdir()
    path = project(ours) / "definition.yaml"
    path.write_text(QUIESCED, encoding="utf-8")
    offset = QUIESCED.index("Quiesced") + 2
    line = QUIESCED.count("\n", 0, offset)
    position = lsp.Position(line=line, character=offset - (QUIESCED.rfind("\n", 0, offset) + 1))
    found = hover(Snapshot(QUIESCED, str(path)), position)
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert "our fork: True while the cluster drains" in found.contents.value
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    alone = hover(Snapshot(QUIESCED, str(elsewhere / "definition.yaml")), position)
    assert alone is not None and isinstance(alone.contents, lsp.MarkupContent)
    assert "never set" in alone.contents.value
