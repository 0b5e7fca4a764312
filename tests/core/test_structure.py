"""Upstream's validation rules, each with its own case, and what upstream misses; every finding is
reported."""

from __future__ import annotations

from wmaplint.engine import lint_text
from wmaplint.fixes import apply_edits
from wmaplint.rules.examples import JOB, job_with

JOBSET = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: jobset-x-k8s-io-jobset-v1alpha2}
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          completed: [{byConditions: [{type: Completed, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: jobset
        members:
        - componentName: replicatedjob
          groupByKeyPaths: ['.metadata.labels["jobset.sigs.k8s.io/jobset-name"]']
"""


def rules(text: str) -> list[tuple[str, int]]:
    return [(d.rule, d.span.start_line) for d in lint_text(text, "def.yaml")
            if d.rule.startswith(("WM1", "WM40", "WM5"))]


def test_the_jobset_definition_is_clean() -> None:
    assert rules(JOBSET) == []


def test_duplicate_names_do_not_stop_the_other_checks() -> None:
    text = JOBSET.replace("- name: replicatedjob", "- name: jobset").replace(
        "ownerRef: jobset", "ownerRef: jobsets")
    found = {r for r, _ in rules(text)}
    assert {"WM501", "WM507", "WM513"} <= found  # upstream would report only the duplicate


def test_root_pod_may_have_the_empty_core_group() -> None:
    text = job_with("{group: batch, version: v1, kind: Job}", '{group: "", version: v1, kind: Pod}')
    assert "WM503" not in {r for r, _ in rules(text)}


def test_root_owner_ref_even_empty_is_an_error() -> None:
    assert ("WM504", 8) in rules(job_with("      name: job\n", "      name: job\n      ownerRef: \"\"\n"))


def test_child_owner_ref_points_at_the_value_with_a_suggestion() -> None:
    text = JOBSET.replace("ownerRef: jobset", "ownerRef: jobst")
    (d,) = [d for d in lint_text(text, "x.yaml") if d.rule == "WM507"]
    assert d.span.start_line == 17 and d.data["suggestions"] == ["jobset"] and d.fixes


def test_cycle_is_reported_once() -> None:
    text = JOBSET.replace(
        "    childComponents:\n",
        "    childComponents:\n    - {name: a, ownerRef: b}\n    - {name: b, ownerRef: a}\n")
    assert [r for r, _ in rules(text)].count("WM508") == 1


def test_cycle_check_walks_each_component_once() -> None:
    """A chain of owners is walked once in all (it was walked again from every component, at n^3 cost)."""
    from types import SimpleNamespace

    from wmaplint.rules.components.ownership_cycle import cycles

    class Counted(dict):
        lookups = 0

        def get(self, key, default=None):  # type: ignore[no-untyped-def]
            Counted.lookups += 1
            return super().get(key, default)

    chain = [SimpleNamespace(name=f"c{i}", owner_ref=f"c{i + 1}" if i < 499 else "root", is_root=False,
                             owner_ref_node=None)
             for i in range(500)]
    by_name = Counted({c.name: c for c in chain})
    assert list(cycles(chain[::-1], by_name)) == []  # type: ignore[arg-type]
    assert Counted.lookups <= 2 * len(chain)
    chain[-1].owner_ref = "c0"  # now one cycle through all 500
    Counted.lookups = 0
    [(closing, names)] = cycles(chain[::-1], by_name)  # type: ignore[arg-type]
    assert Counted.lookups <= 1000
    assert closing is chain[-1] and names[:3] == ["c499", "c0", "c1"] and names[-1] == "c499"


def test_instance_id_path_needs_an_instance_selector_and_back() -> None:
    without_sel = JOBSET.replace(
        "      podSelector:\n        componentInstanceSelector: {idPath: "
        "'.metadata.labels[\"jobset.sigs.k8s.io/replicatedjob-name\"]'}\n", "")
    assert ("WM512", 18) in rules(without_sel)
    without_ids = JOBSET.replace("      instanceIdPath: .spec.replicatedJobs[].name\n", "")
    assert "WM512" in {r for r, _ in rules(without_ids)}


def test_list_map_keys_and_sets_are_unique() -> None:
    text = JOBSET.replace(
        "groupByKeyPaths: ['.metadata.labels[\"jobset.sigs.k8s.io/jobset-name\"]']",
        "groupByKeyPaths: ['.metadata.name', '.metadata.name']")
    assert "WM113" in {r for r, _ in rules(text)}


def test_additional_child_kinds_are_keyed_by_kind_alone() -> None:
    text = JOB.replace("    rootComponent:", "    additionalChildKinds:\n    - {group: apps, version: v1, "
                       "kind: Deployment}\n    - {group: other.io, version: v1, kind: Deployment}\n    "
                       "rootComponent:")
    (d,) = [d for d in lint_text(text, "x.yaml") if d.rule == "WM113"]
    assert "keyed by kind alone" in d.message


def test_unknown_status_key_is_named_as_a_status() -> None:
    text = job_with("          failed:", "          pending: [{byPhase: Pending}]\n          failed:")
    (d,) = [d for d in lint_text(text, "x.yaml") if d.rule == "WM112"]
    assert "'pending' is not a status" in d.message


def test_misspelled_key_gets_a_rename_fix() -> None:
    text = job_with("{podTemplateSpecPath: .spec.template}", "{fragmentedPodDefinition: {imagePath: "
                    ".spec.image}}")
    (d,) = [d for d in lint_text(text, "x.yaml") if d.rule == "WM112"]
    assert d.data["suggestions"][0] == "fragmentedPodSpecDefinition"
    assert apply_edits(text, list(d.fixes[0].edits)) == text.replace("fragmentedPodDefinition",
                                                                      "fragmentedPodSpecDefinition")


def test_unquoted_expected_result_is_a_type_error_with_a_quote_fix() -> None:
    (d,) = [d for d in lint_text(job_with('expectedResult: "true"', "expectedResult: true"), "x.yaml")
            if d.rule == "WM110"]
    assert d.fixes[0].edits[0].new_text == '"true"'  # a plain `true` cannot be the string


def test_topology_needs_all_three_keys() -> None:
    text = JOB + ("  optimizationInstructions:\n    gangScheduling:\n      podGroup:\n        name: job\n"
                  "        topology: {topologyName: t, requiredTopologyLevel: rack}\n")
    assert ("WM111", 21) in rules(text)


def test_legacy_kind_gets_a_migration_fix() -> None:
    text = JOB.replace("apiVersion: run.ai/v1alpha1\nkind: Karta",
                       "apiVersion: optimization.nvidia.com/v1alpha1\nkind: ResourceInterface")
    (d,) = [d for d in lint_text(text, "x.yaml") if d.rule == "WM104"]
    assert apply_edits(text, list(d.fixes[0].edits)) == JOB


def test_reason_field_name_null_means_reasons_are_never_read() -> None:
    text = job_with("[{type: Failed, status: \"True\"}]", "[{type: Failed, reason: "
                    "DeadlineExceeded}]").replace(
        "statusFieldName: status}", "statusFieldName: status, reasonFieldName: null}")
    assert "WM404" in {r for r, _ in rules(text)}


def test_other_documents_in_the_file_are_left_alone() -> None:
    assert rules(JOB + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nbogus: 1\n") == []
