"""The pods' labels of the controller model: the older pod labels shape is validated, projects extend the
model with it, and the model agrees with the catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from wmaplint.controllers import ModelError, load_model
from wmaplint.controllers.legacy import PodLabelsError, parse_pod_labels

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
# a label read on a pod: .metadata.labels["k"], .metadata.labels.k, or $l["k"] after `.metadata.labels as $l`
_LABEL_READ = re.compile(r'(?:labels|\$[A-Za-z_]\w*)\["([^"]+)"\]|\.labels\.([A-Za-z_][\w-]*)')


def _pod_expressions(definition: dict) -> list[str]:
    """Every Pod-context expression of a definition: selector paths, gang keys and filters."""
    structure = definition["spec"]["structureDefinition"]
    found: list[str] = []
    for component in [structure["rootComponent"], *structure.get("childComponents", [])]:
        for selector in (component.get("podSelector") or {}).values():
            for key, value in selector.items():
                if key == "matchLabels":
                    found.extend(f'.metadata.labels["{label}"]' for label in value)
                elif key in ("keyPath", "idPath"):
                    found.append(value)
    gangs = (definition["spec"].get("optimizationInstructions") or {}).get("gangScheduling") or {}
    for group in gangs.get("podGroups") or []:
        for member in group["members"]:
            found.extend(member.get("groupByKeyPaths", []) + member.get("filters", []))
    return found


def _catalog_label_reads() -> list[tuple[str, str, str]]:
    reads = []
    for path in sorted(CATALOG.glob("*.yaml")):
        definition = yaml.safe_load(path.read_text(encoding="utf-8"))
        kind = definition["spec"]["structureDefinition"]["rootComponent"]["kind"]
        gvk = "/".join(part for part in (kind["group"], kind["version"], kind["kind"]) if part)
        for expression in _pod_expressions(definition):
            for match in _LABEL_READ.finditer(expression):
                reads.append((path.name, gvk, match.group(1) or match.group(2)))
    return reads


def test_the_catalog_reads_labels_of_most_kinds() -> None:
    kinds = {gvk for _, gvk, _ in _catalog_label_reads()}
    assert len(kinds) >= 18 and "ray.io/v1/RayJob" in kinds and "apps.nvidia.com/v1alpha1/NIMCache" in kinds


@pytest.mark.parametrize(("file", "gvk", "label"), _catalog_label_reads())
def test_every_label_a_catalog_definition_reads_is_known_for_its_kind(file: str, gvk: str,
                                                                      label: str) -> None:
    group, version, kind = gvk.split("/") if gvk.count("/") == 2 else ("", *gvk.split("/"))
    facts = load_model().model_for(group, kind, version)
    assert facts is not None and facts.pods is not None, f"{file}: no pod labels known for {gvk}"
    assert label in facts.pods.labels, f"{file} reads {label}, which the controller model lacks for {gvk}"


def test_every_kind_and_label_names_its_source() -> None:
    kinds = [kind for kind in load_model().kinds if kind.pods is not None]
    assert sum(len(kind.versions) for kind in kinds) >= 25
    for kind in kinds:
        assert kind.pods is not None and kind.pods.source
        assert all(label.source and label.value for label in kind.pods.labels.values())


def test_component_and_entry_labels_point_at_locations() -> None:
    ray = load_model().model_for("ray.io", "RayJob", "v1")
    assert ray is not None
    node_type = ray.pod_labels()["ray.io/node-type"]
    assert node_type.role == "component"
    assert dict(node_type.values) == {"head": ".spec.rayClusterSpec.headGroupSpec",
                                      "worker": ".spec.rayClusterSpec.workerGroupSpecs"}
    group = ray.pod_labels()["ray.io/group"]
    assert (group.role, group.of) == ("entry", ".spec.rayClusterSpec.workerGroupSpecs")
    pytorch = load_model().model_for("kubeflow.org", "PyTorchJob", "v1")
    assert pytorch is not None and pytorch.pod_labels()["training.kubeflow.org/replica-type"].lower


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a mapping with `kinds`"),
        ({"kinds": {"Job": {}}}, "expected a key group/version/kind"),
        ({"kinds": {"batch/v1/Job": {"labels": {}}}},
         "kinds.batch/v1/Job.source: expected a non-empty string"),
        ({"kinds": {"batch/v1/Job": {"source": "s", "lables": {}}}}, "unknown key 'lables'"),
        ({"kinds": {"a/v1/K": {"source": "s", "labels": {"k": {"role": "boss", "value": "v",
                                                                "source": "s"}}}}},
         "kinds.a/v1/K.labels.k.role: expected one of workload"),
        ({"kinds": {"a/v1/K": {"source": "s", "labels": {"k": {"role": "entry", "value": "v",
                                                                "source": "s"}}}}},
         "an entry label needs `of`"),
        ({"kinds": {"a/v1/K": {"source": "s", "labels": {"k": {"role": "component", "value": "v",
                                                                "source": "s", "values": {"a": "spec.x"}}}}}},
         "labels.k.values.a: expected a location such as .spec.template"),
        ({"version": 2, "kinds": {}}, "version 2 is not supported"),
    ],
)
def test_a_wrong_shape_is_one_error_naming_the_place(data: object, message: str) -> None:
    with pytest.raises(PodLabelsError, match=re.escape(message)):
        parse_pod_labels(data, "extra.yaml")


def test_a_project_file_is_merged_over_the_shipped_one_label_by_label(tmp_path) -> None:
    extra = tmp_path / "labels.yaml"
    extra.write_text(
        "kinds:\n"
        "  ray.io/v1/RayCluster:\n"
        "    source: our fork of kuberay\n"
        "    gang: false\n"
        "    labels:\n"
        "      example.com/team: {role: other, value: the owning team, source: our admission webhook}\n"
        "  example.com/v1/Widget:\n"
        "    source: the widget operator\n"
        "    labels:\n"
        "      example.com/widget: {role: workload, value: the Widget's name, source: main.go}\n"
    )
    model = load_model([extra])
    ray = model.model_for("ray.io", "RayCluster", "v1")
    assert ray is not None and ray.pods is not None
    assert ray.pods.source == "our fork of kuberay" and ray.pods.gang is False
    assert {"ray.io/cluster", "example.com/team"} <= set(ray.pod_labels())
    widget = model.model_for("example.com", "Widget", "v1")
    assert widget is not None and widget.pod_labels()["example.com/widget"].role == "workload"


def test_an_unreadable_project_file_is_an_error(tmp_path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("kinds: [\n")
    with pytest.raises(ModelError, match=r"broken.yaml:2:1: not valid YAML \(did not find expected node"):
        load_model([broken])
    with pytest.raises(ModelError, match="missing.yaml: cannot read the controller model"):
        load_model([tmp_path / "missing.yaml"])
