from tests.resolve.typed import findings, resolve
from wmaplint.report.workloads import render_text
from wmaplint.rules.resolution.gang_member_not_resolved import RULE as GANG_MEMBER_UNKNOWN
from wmaplint.rules.resolution.gang_min_available_unknown import RULE as GANG_MIN_AVAILABLE_UNKNOWN


def test_alpha_pod_groups_use_subtree_scale(jobset_definition, jobset_manifest, runtime):
    [gang] = resolve(jobset_definition, jobset_manifest, runtime=runtime).gangs
    assert (gang.name, gang.api, gang.min_available) == ("job", "podGroups", 3)
    assert gang.members[0].component == "replicatedjob"


def test_min_replicas_is_preferred_over_replicas(jobset_definition, jobset_manifest, runtime):
    child = jobset_definition["spec"]["structureDefinition"]["childComponents"][0]
    child["scaleDefinition"]["minReplicasPath"] = ".spec.replicatedJobs[] | 1"
    [gang] = resolve(jobset_definition, jobset_manifest, runtime=runtime).gangs
    assert gang.min_available == 2


def test_v2_pod_group_with_sub_groups_and_unknown_member(jobset_definition, jobset_manifest, runtime):
    jobset_definition["spec"]["optimizationInstructions"]["gangScheduling"] = {
        "podGroup": {
            "name": "train",
            "topology": {
                "topologyName": "rack",
                "requiredTopologyLevel": "rack",
                "preferredTopologyLevel": "host",
            },
            "subGroups": [{"componentName": "replicatedjob"}, {"componentName": "nosuch"}],
        }
    }
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    [gang] = workload.gangs
    assert gang.api == "podGroup" and gang.min_subgroups == 2 and gang.min_available is None
    assert gang.members[0].min_available == 3 and gang.topology["topologyName"] == "rack"
    assert GANG_MEMBER_UNKNOWN.id in {f.rule for f in findings(workload)}


def test_v2_without_sub_groups_sizes_the_whole_workload(jobset_definition, jobset_manifest, runtime):
    jobset_definition["spec"]["optimizationInstructions"]["gangScheduling"] = {"podGroup": {"name": "all"}}
    [gang] = resolve(jobset_definition, jobset_manifest, runtime=runtime).gangs
    assert gang.min_available == 3


def test_zero_scale_cannot_be_computed(jobset_definition, jobset_manifest, runtime):
    for job in jobset_manifest["spec"]["replicatedJobs"]:
        job["replicas"] = 0
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    assert workload.gangs[0].min_available is None
    assert GANG_MIN_AVAILABLE_UNKNOWN.id in {f.rule for f in findings(workload)}


def test_a_min_available_not_computed_is_said_once(jobset_definition, jobset_manifest, runtime):
    for job in jobset_manifest["spec"]["replicatedJobs"]:
        job["replicas"] = 0
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    [line] = [line for line in render_text([workload]).splitlines() if line.lstrip().startswith("gang ")]
    assert line.count("cannot be computed") == 1, line


def test_a_v2_min_available_not_computed_is_said_once(jobset_definition, jobset_manifest, runtime):
    jobset_definition["spec"]["optimizationInstructions"]["gangScheduling"] = {
        "podGroup": {"name": "train", "subGroups": [{"componentName": "nosuch"}]}}
    for job in jobset_manifest["spec"]["replicatedJobs"]:
        job["replicas"] = 0
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    [line] = [line for line in render_text([workload]).splitlines() if line.lstrip().startswith("gang ")]
    assert "min-available cannot be computed" in line and line.count("cannot be computed") == 1, line


def test_alpha_member_without_pods_adds_nothing(jobset_definition, jobset_manifest, runtime):
    members = jobset_definition["spec"]["optimizationInstructions"]["gangScheduling"]["podGroups"][0][
        "members"
    ]
    members.append({"componentName": "jobset"})  # the root: no spec, scale 1 x children
    jobset_manifest["spec"]["replicatedJobs"][0]["replicas"] = 0
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    [gang] = workload.gangs
    assert [m.min_available for m in gang.members] == [2, 2] and gang.min_available == 4
    assert findings(workload) == []
