"""Rules of the schema checks: paths and types (WM3xx)."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules.examples import JOB, JOBSET, MPIJOB, job_with, jobset_with, mpijob_with

UNKNOWN_FIELD = define(
    "WM301", "unknown-schema-field", "error",
    "A jq path reads a field that the target schema does not declare.",
    why="A misspelled or misplaced field is valid jq and yields null at runtime, so the scheduler or "
    "dashboard silently sees no pod template, no replicas or no status. Upstream accepts it; only the CRD "
    "can tell. The object's own `metadata`, and that of embedded resources, is checked against Kubernetes' "
    "ObjectMeta, which the API server serves whatever the CRD declares. Under a nested `metadata` that the "
    "CRD declares as an object without properties, the API server prunes every field when the object is "
    "written, so reading one is reported too.",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: .spec.templat}"),
    good=JOB,
    fix="Use the field name the CRD declares (the message lists the closest ones).",
)
NOT_ITERABLE = define(
    "WM302", "not-iterable", "error",
    "A jq path iterates or indexes a value that is not a list or an object.",
    why="`.[]` and `.name` on a string or number, and `.[n]` on a number, are runtime errors in gojq "
    "(`cannot iterate over: ...`, `expected an object but got: ...`, GOJQ.md §5.3; gojq indexes a string by "
    "character): the runtime gets the error instead of a value, and the workload cannot be resolved.",
    bad=job_with("'.spec.parallelism // 1'", "'.spec.parallelism[] // 1'"),
    good=JOB,
    fix="Remove the iteration or point the path at the list it was meant to walk.",
)
INCOMPATIBLE_OPERANDS = define(
    "WM303", "incompatible-operands", "warning",
    "Two values of types that cannot be compared or combined meet in an operator.",
    why="Values of different kinds never compare by value in jq: between an integer and a string `==` is "
    "always false, `!=` always true, and `<` or `>` follow the order of kinds (every number sorts before "
    "every string); adding them is an error. A status expression or replica formula built that way never "
    "does what it says.",
    bad=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0) > \"0\"'"),
    good=JOB,
    fix="Compare values of the same type (convert with tonumber or tostring if needed).",
)
NON_BOOLEAN_CONDITION = define(
    "WM304", "non-boolean-condition", "warning",
    "A condition (select, if, and/or/not) receives a value that is never a boolean.",
    why="jq treats every value except false and null as true, so a condition on a string or number is always "
    "true: a select that filters nothing, a status that always matches.",
    bad=job_with("'(.status.active // 0) > 0'", "'[.status.conditions[] | select(.type)] | length > 0'"),
    good=JOB,
    fix="Compare the value explicitly (for example `select(.type == \"Ready\")`).",
)
OPTIONAL_WITHOUT_DEFAULT = define(
    "WM305", "optional-without-default", "warning",
    "A replicasPath reads an optional field that has no default.",
    why="When the field is omitted the path yields null, which the runtime takes as \"replicas not set\", "
    "not as the value the controller defaults to: replica totals fall back to minReplicas or 1 and gang "
    "sizing to minReplicas or 0. A null from minReplicasPath or maxReplicasPath is normal and not reported, "
    "nor are fields of built-in kinds, whose API server fills defaults the OpenAPI does not declare. A "
    "default outside an iteration breaks the instance alignment, so it belongs inside it.",
    bad=mpijob_with(
        "'.spec.mpiReplicaSpecs.Worker.replicas // 1'", "'.spec.mpiReplicaSpecs.Worker.replicas'"
    ),
    good=MPIJOB,
    fix="Give the controller's default next to the field, inside any iteration: "
    "`.items[] | (.replicas // 1)`.",
)
WRONG_TARGET_TYPE = define(
    "WM306", "wrong-target-type", "error",
    "A definition path reaches a value of the wrong shape for its field.",
    why="Each definition field expects a specific Kubernetes type (a PodTemplateSpec, a PodSpec, a list of "
    "containers, an integer...), and the runtime converts every output to it through JSON (upstream "
    "`safeConvertSlice`): a value of another type fails the conversion, and the component with it, while an "
    "object of the wrong kind converts without a word into an empty or partial one (a PodSpec read as a "
    "PodTemplateSpec has no containers).",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: .spec.template.spec}"),
    good=JOB,
    fix="Point the path at a value of the expected type.",
)
SUSPEND_VALUE_TYPE = define(
    "WM307", "suspend-value-type", "error",
    "A suspend or resume action writes a value the target field's type does not accept.",
    why="The value is decoded as JSON and written into the object; the API server rejects the update "
    "(for example the string \"yes\" into a boolean), so the workload can never be suspended.",
    bad=job_with("      statusDefinition:",
                 "      suspendDefinition:\n"
                 "        suspendActions: [{path: .spec.suspend, value: '\"yes\"'}]\n"
                 "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    good=job_with("      statusDefinition:",
                  "      suspendDefinition:\n"
                  "        suspendActions: [{path: .spec.suspend, value: 'true'}]\n"
                  "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    fix="Write a JSON value of the field's type (`true`, `0`, `\"Paused\"`, `null`).",
)
UNREACHABLE_EXPECTED_RESULT = define(
    "WM308", "unreachable-expected-result", "warning",
    "A byExpression's expected result can never equal what the expression yields.",
    why="The runtime compares `(<expression>) | tostring` with expectedResult; when the expression yields a "
    "boolean and the expected result is \"True\", or a string whose enum excludes the expected value, the "
    "status never matches.",
    bad=job_with('expectedResult: "true"', 'expectedResult: "True"'),
    good=JOB,
    fix="Write the expected result as the expression's value prints (`true`, `false`, a number, an enum "
    "value).",
)
UNGUARDED_ITERATION = define(
    "WM309", "unguarded-optional-iteration", "warning",
    "A path on the workload object iterates a list or map that the schema lets be absent, with no guard.",
    why="gojq stops with `cannot iterate over: null` when `[]` meets a missing field, and so do `map`, "
    "`any`, `all`, `sort_by` and the other builtins it defines over `[]` (GOJQ.md §5.3, gojq's builtin.jq). "
    "FORMAT.md §8 has the real case: `.spec.rayClusterSpec.workerGroupSpecs[]` on a RayJob that runs on an "
    "existing cluster (`clusterSelector`, no `rayClusterSpec`). The runtime returns that error instead of a "
    "value, and building the workload tree stops at it (upstream `pkg/resource/accessor.go`, "
    "`pkg/tree/builder.go`): `kli get` and `kli describe` cannot resolve the workload, and KAI cannot size "
    "its pod group from a scale or instance-id path that fails. Reported only where the schema proves the "
    "value can be missing: a field on the path that is neither required nor defaulted, or is nullable, and "
    "no `[]?`, `try`, `?`, `// []`, type selector (`arrays`...) or `if`, `select`, `and`, `or` condition "
    "reading the path around the iteration. A `spec` (the object's own or a pod template's) is taken as "
    "present: the OpenAPI marks it optional, but an object without one runs nothing. Pod selector and gang "
    "paths are not checked by this rule.",
    bad=jobset_with("'.spec.replicatedJobs[]?.name'", "'.spec.replicatedJobs[].name'"),
    good=JOBSET,
    fix="Iterate with `[]?` (the quick fix): a missing list then yields nothing, as an empty one does (Go "
    "clients leave empty lists out of objects), and `[]?` is a path expression, so spec paths stay writable. "
    "Before `map(f)` and the like, default the input: `(.items // []) | map(f)`.",
)
