"""WM309 unguarded-optional-iteration: a path iterates a list or map the schema lets be absent, unguarded."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import UnguardedIteration
from wmaplint.rules import reports
from wmaplint.rules.examples import RAYJOB, rayjob_with

RULE = define(
    "WM309", "unguarded-optional-iteration", "warning",
    "A path on the workload object iterates a list or map that the schema lets be absent, with no guard.",
    why="gojq stops with `cannot iterate over: null` when `[]` meets a missing field, and so do `map`, "
    "`any`, `all`, `sort_by` and the other builtins it defines over `[]` (GOJQ.md §5.3, gojq's builtin.jq). "
    "FORMAT.md §8 has the real case: `.spec.rayClusterSpec.workerGroupSpecs[]` on a RayJob that runs on an "
    "existing cluster (`clusterSelector`, no `rayClusterSpec`), or whose cluster has a head and no worker "
    "groups. The runtime returns that error instead of a value, and building the workload tree stops at it "
    "(dsx-ai-factory/workload-map@932dddf `karta/pkg/resource/accessor.go`, `karta/pkg/tree/builder.go` "
    "`buildComponentNodes`): `kli get` and `kli describe` cannot resolve the workload, and KAI cannot size "
    "its pod group from a scale or instance-id path that fails. Reported only where the schema proves the "
    "value can be missing: a field on the path that is neither required nor defaulted, or is nullable, and "
    "no `[]?`, `try`, `?`, `// []`, type selector (`arrays`...) or `if`, `select`, `and`, `or` condition "
    "reading the path around the iteration. A `spec` (the object's own or a pod template's) is taken as "
    "present: the OpenAPI marks it optional, but an object without one runs nothing. So is a field every pod "
    "spec of the object's schema lies below (a JobSet's `replicatedJobs`, a DynamoGraphDeployment's "
    "`services` or `components`): the API server admits an object without it (kubernetes-sigs/jobset@08dfbdf "
    "`pkg/webhooks/jobset_webhook.go` requires no replicated job), but such a workload has no pod to run, "
    "show or group. Pod selector and gang paths are not checked by this rule.",
    bad=rayjob_with("'.spec.rayClusterSpec.workerGroupSpecs[]?.groupName'",
                    "'.spec.rayClusterSpec.workerGroupSpecs[].groupName'"),
    good=RAYJOB,
    fix="Iterate with `[]?` (the quick fix): a missing list then yields nothing, as an empty one does (Go "
    "clients leave empty lists out of objects), and `[]?` is a path expression, so spec paths stay writable. "
    "Before `map(f)` and the like, default the input: `(.items // []) | map(f)`.",
)


@reports(RULE, UnguardedIteration)
def message(finding: UnguardedIteration) -> str:
    field = finding.absent.rsplit(".", 1)[-1].removesuffix("[]")
    if finding.how == "null":
        why = f"the schema lets `{field}` be null"
    else:
        why = f"the schema neither requires `{field}` nor gives it a default"
    subject = f"`.{finding.path}` can be {finding.how}"
    if finding.absent != finding.path:
        subject = f"`.{finding.path}` is null whenever `.{finding.absent}` is {finding.how}"
    if finding.builtin is None:
        lead, remedy = "", "write `[]?` to iterate nothing there"
    else:
        lead, remedy = f"`{finding.builtin}` iterates its input, and ", "give it a default first (`// []`)"
    return (f"{lead}{subject} ({why}): iterating it then stops gojq with `cannot iterate over: null`, so the "
            f"runtime cannot evaluate this path for that workload; {remedy}")
