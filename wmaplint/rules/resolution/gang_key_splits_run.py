"""WM733 gang-key-splits-run: a gang key gives the parts of one replica of the workload different values."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.facts import GangKeySplitsRun
from wmaplint.rules import reports
from wmaplint.rules.examples import mpijob_tree

RULE = define(
    "WM733",
    "gang-key-splits-run",
    "warning",
    "A gang's groupByKeyPaths give the components of one replica of the workload different values.",
    why="Pods with different groupByKeyPaths values form different gangs. A key that names a part of the "
    "workload (a replica type, a role, an entry) rather than the workload or its run splits one run into "
    "gangs that are scheduled apart: the launcher may start while its workers cannot. Checked on the pods "
    "`tree` synthesizes for the manifest, with the labels the controller writes.",
    bad=mpijob_tree(gang_key='.metadata.labels["training.kubeflow.org/job-role"]'),
    good=mpijob_tree(),
    fix="Group by a label naming the workload or its run (its name, a restart attempt), or leave "
    "groupByKeyPaths out to group by the owning workload.",
    example_mode="tree",
)


@reports(RULE, GangKeySplitsRun)
def splits_run(fact: GangKeySplitsRun) -> str:
    return (
        f"groupByKeyPaths of gang {fact.group} split one replica of the workload into several gangs: "
        f"{fact.first}; {fact.second} (labels written per {fact.source})"
    )
