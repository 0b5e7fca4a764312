"""Rules WM701-WM749: problems found by resolving manifests with a definition, and definition tests.

Examples run in mode ``tree``: a multi-document file holding one definition followed by manifests
(and optionally Pods); see ``wmaplint.resolve.examples.lint_example``.
"""

from __future__ import annotations

from wmaplint.diagnostics import define

_JOBSET_HEAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: jobset-x-k8s-io-jobset-v1alpha2}
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions}
        statusMappings:
          completed: [{byConditions: [{type: Completed, status: "True"}]}]
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'}
"""
_JOBSET_MANIFEST = """\
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train}
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: trainer}]}}}}
  - name: workers
    replicas: 2
    template: {spec: {parallelism: 1, template: {spec: {containers: [{name: main, image: trainer}]}}}}
"""


def _jobset(scale: str, manifest: str = _JOBSET_MANIFEST) -> str:
    return _JOBSET_HEAD + f"      scaleDefinition: {{replicasPath: '{scale}'}}\n" + manifest


_GOOD_SCALE = ".spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)"

JQ_RUNTIME_ERROR = define(
    "WM701",
    "jq-runtime-error",
    "error",
    "A definition expression fails when evaluated on a manifest of its kind.",
    why="The runtime evaluates the same expression on every workload of the kind and returns the error "
    "instead of a value: building the workload tree stops there (upstream `pkg/tree/builder.go`), so `kli "
    "get` and `kli describe` cannot resolve the workload, and KAI cannot size its pod group from a scale or "
    "instance-id path that fails.",
    bad=_jobset(".spec.replicatedJobs[] | .replicas * .template.spec.parallelism.count"),
    good=_jobset(_GOOD_SCALE),
    fix="Guard optional fields (`.x // default`, `.[]?`) and index only values of the right type.",
    example_mode="tree",
).id

INSTANCE_COUNT_MISMATCH = define(
    "WM702",
    "instance-count-mismatch",
    "error",
    "A spec or scale path yields a different number of outputs than the component has instances.",
    why="Output i of every spec/scale path belongs to instance i (the zip rule); the runtime rejects the "
    "component when the counts differ. `.a[].x // 1` is the usual cause: `//` applies to the whole stream.",
    bad=_jobset(".spec.replicatedJobs[].replicas // 1"),
    good=_jobset(".spec.replicatedJobs[] | (.replicas // 1)"),
    fix="Apply defaults per element: `.a[] | (.x // 1)`.",
    example_mode="tree",
).id

REPLICAS_NOT_A_NUMBER = define(
    "WM703",
    "replicas-not-a-number",
    "error",
    "A replicas path yields something that is neither a number nor a numeric string.",
    why="The runtime reads each output as an optional int32: null means not set; integral numbers and, in "
    "newer releases, base-10 numeric strings are accepted; a name, an object, a fraction, `\"2.0\"` or a "
    "number beyond int32 fails the whole component. A negative number passes the runtime but is reported "
    "too: it is never a replica count.",
    bad=_jobset(".spec.replicatedJobs[] | .name"),
    good=_jobset(_GOOD_SCALE),
    fix="Point replicasPath at the replica count, not at a name or an object.",
    example_mode="tree",
).id

INVALID_INSTANCE_ID = define(
    "WM704",
    "invalid-instance-id",
    "error",
    "instanceIdPath yields a null, empty or non-scalar id.",
    why="An instance id is matched against a label of each pod. The runtime reads the ids as strings "
    "(upstream `ExtractInstanceIds`): a null reads as empty, and an empty id fails the component (`instance "
    "id path contained empty string values`); a number, boolean, object or list fails the conversion to a "
    "string.",
    bad=_jobset(_GOOD_SCALE).replace(
        "instanceIdPath: .spec.replicatedJobs[].name", "instanceIdPath: .spec.replicatedJobs[].id"
    ),
    good=_jobset(_GOOD_SCALE),
    fix="Use a field that every element has and that is unique, such as `.name`.",
    example_mode="tree",
).id

JQ_NOT_ALLOWED = define(
    "WM705",
    "jq-not-allowed",
    "error",
    "A definition expression uses a builtin that the workload runtime does not offer.",
    why="The runtime embeds gojq as a library (GOJQ.md §6): `input` and `inputs` fail to compile, `env` and "
    "`$ENV` are `{}`, `debug`, `stderr`, `input_filename` and C jq's `keys_unsorted` are not defined, and "
    "`halt` and `halt_error` end the evaluation with an error.",
    bad=_jobset(".spec.replicatedJobs[] | $ENV.REPLICAS // 1"),
    good=_jobset(_GOOD_SCALE),
    fix="Read everything from the workload object itself; use `keys` (gojq keys are always sorted).",
    example_mode="tree",
).id

JQ_LIMIT = define(
    "WM706",
    "jq-evaluation-limit",
    "error",
    "A definition expression exceeds the runtime's limits (1000 outputs or the time bound).",
    why="The runtime's jq runner stops an evaluation at 1000 outputs or after 10 seconds with an error "
    "(FORMAT.md §3.3), so the workload never resolves.",
    bad=_jobset(".spec.replicatedJobs[] | until(false; .) | 1"),
    good=_jobset(_GOOD_SCALE),
    fix="Remove unbounded loops and generators; navigate to the values directly.",
    example_mode="tree",
).id

SPEC_NOT_OBJECT = define(
    "WM707",
    "spec-not-object",
    "warning",
    "A spec path yields a value that is not a pod template or pod spec object.",
    why="The runtime converts each output into a PodTemplateSpec or PodSpec through JSON (upstream "
    "`safeConvertSlice`): a string, number or list fails the conversion, and with it the component and the "
    "workload tree.",
    bad=_jobset(_GOOD_SCALE).replace(
        "podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'",
        "podTemplateSpecPath: '.spec.replicatedJobs[].name'",
    ),
    good=_jobset(_GOOD_SCALE),
    fix="Point the spec path at the PodTemplateSpec (`{metadata, spec}`), or podSpecPath at the PodSpec.",
    example_mode="tree",
).id

_FRAGMENTS = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example-com-service-v1}
spec:
  structureDefinition:
    rootComponent:
      name: service
      kind: {group: example.com, version: v1, kind: Service}
      statusDefinition: {statusMappings: {running: [{}]}}
    childComponents:
    - name: part
      ownerRef: service
      instanceIdPath: .spec.parts[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          containerPath: '.spec.parts[] | .containers[] | select(.name == "main")'
          labelsPath: '.spec.parts[] | (.labels // {})'
      podSelector: {componentInstanceSelector: {idPath: .metadata.labels.part}}
---
apiVersion: example.com/v1
kind: Service
metadata: {name: demo}
spec:
  parts:
  - {name: a, containers: [{name: sidecar}]}
  - {name: b, containers: [{name: main}]}
"""

FRAGMENT_MISALIGNED = define(
    "WM708",
    "fragment-misaligned",
    "warning",
    "A fragmentedPodSpecDefinition field yields fewer outputs than the other fragments.",
    why="Fragments are merged by index without any check, so a missing value shifts every later instance "
    "onto the wrong resources or containers.",
    bad=_FRAGMENTS,
    good=_FRAGMENTS.replace(
        "containerPath: '.spec.parts[] | .containers[] | select(.name == \"main\")'",
        "containersPath: '.spec.parts[] | .containers'",
    ),

    fix="Yield one value per instance: `.spec.parts[] | (first(.containers[] | select(...)) // null)`.",
    example_mode="tree",
).id

INVALID_QUANTITY = define(
    "WM709",
    "invalid-quantity",
    "warning",
    "A pod template asks for a resource amount that is not a Kubernetes quantity, or one outside its bounds.",
    why="The API server rejects the pod (or, above 2^63-1, caps the amount, as Kubernetes' Quantity type "
    "documents), and GPU totals cannot count it. "
    "Negative amounts and amounts above 2^63-1 are reported the same way and left out of the totals.",
    bad=_jobset(
        _GOOD_SCALE,
        _JOBSET_MANIFEST.replace(
            "containers: [{name: main, image: trainer}]}}}}\n  - name: workers",
            "containers: [{name: main, image: trainer, resources: "
            "{limits: {nvidia.com/gpu: four}}}]}}}}\n  - name: workers",
        ),
    ),
    good=_jobset(
        _GOOD_SCALE,
        _JOBSET_MANIFEST.replace(
            "containers: [{name: main, image: trainer}]}}}}\n  - name: workers",
            "containers: [{name: main, image: trainer, resources: "
            "{limits: {nvidia.com/gpu: 4}}}]}}}}\n  - name: workers",
        ),
    ),
    fix="Write quantities as numbers with an optional suffix: `4`, `500m`, `16Gi`.",
    example_mode="tree",
).id

NO_DEFINITION = define(
    "WM710",
    "no-definition-for-kind",
    "warning",
    "No definition describes the kind of this manifest.",
    why="Without a definition the manifest cannot be resolved into a workload tree.",
    bad=_JOBSET_MANIFEST + "---\napiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: x}\n",
    good=_jobset(_GOOD_SCALE),
    fix="Pass the definition with --definition FILE or add it to the catalog.",
    example_mode="tree",
).id

AMBIGUOUS_DEFINITION = define(
    "WM711",
    "ambiguous-definition",
    "error",
    "Two definitions describe the same root kind (group, version, kind).",
    why="The operator's admission webhook admits one Karta per root kind (FORMAT.md §3.4). Where two meet "
    "anyway, KAI refuses to group the workload's pods (more than one match is an error, FORMAT.md §6) and "
    "`kli` asks to remove one.",
    bad=_JOBSET_HEAD
    + "---\n"
    + _JOBSET_HEAD.replace("jobset-x-k8s-io-jobset-v1alpha2", "jobset-copy")
    + _JOBSET_MANIFEST,
    good=_jobset(_GOOD_SCALE),
    fix="Keep one definition per root kind.",
    example_mode="tree",
).id

_PODS_GOOD = """\
---
apiVersion: v1
kind: Pod
metadata:
  name: train-workers-0-0
  labels: {jobset.sigs.k8s.io/jobset-name: train, jobset.sigs.k8s.io/replicatedjob-name: workers}
spec: {containers: [{name: main, image: trainer}]}
"""
_SELECTOR = """\
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["jobset.sigs.k8s.io/jobset-name"]'}
        componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}
"""

POD_UNATTRIBUTED = define(
    "WM712",
    "pod-unattributed",
    "warning",
    "A pod of the workload is claimed by no component.",
    why="The platform cannot show, count or gang-schedule pods that no component selector claims.",
    bad=_JOBSET_HEAD
    + f"      scaleDefinition: {{replicasPath: '{_GOOD_SCALE}'}}\n"
    + _SELECTOR
    + _JOBSET_MANIFEST
    + _PODS_GOOD.replace("replicatedjob-name: workers", "replicatedjob-name: evaluators"),
    good=_JOBSET_HEAD
    + f"      scaleDefinition: {{replicasPath: '{_GOOD_SCALE}'}}\n"
    + _SELECTOR
    + _JOBSET_MANIFEST
    + _PODS_GOOD,
    fix="Make the componentTypeSelector and instance idPath read labels that the pods carry.",
    example_mode="tree",
).id

_CLAIMED_TWICE = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: kubeflow-org-pytorchjob-v1}
spec:
  structureDefinition:
    rootComponent:
      name: pytorchjob
      kind: {group: kubeflow.org, version: v1, kind: PyTorchJob}
      statusDefinition: {statusMappings: {running: [{}]}}
    childComponents:
    - name: master
      ownerRef: pytorchjob
      specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Master.template}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'}
    - name: worker
      ownerRef: pytorchjob
      specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Worker.template}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: mnist}
spec:
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: mnist}]}}}
    Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: mnist}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: mnist-worker-0, labels: {training.kubeflow.org/replica-type: worker}}
spec: {containers: [{name: pytorch, image: mnist}]}
"""
_REPLICA_TYPE_KEY = """'.metadata.labels["training.kubeflow.org/replica-type"]'"""
_REPLICA_TYPE_SELECTOR = f"        componentTypeSelector: {{keyPath: {_REPLICA_TYPE_KEY}}}\n"


def _with_selector_values(text: str, *values: str) -> str:
    """The example with each replica-type selector, in order, compared with a value."""
    for value in values:
        text = text.replace(
            _REPLICA_TYPE_SELECTOR,
            "        componentTypeSelector:\n"
            f"          {{keyPath: {_REPLICA_TYPE_KEY}, value: {value}}}\n",
            1,
        )
    return text


POD_CLAIMED_TWICE = define(
    "WM713",
    "pod-claimed-twice",
    "warning",
    "A pod matches the componentTypeSelector of more than one leaf component.",
    why="KAI's pod grouper takes the first matching leaf in definition order, root first (FORMAT.md §2.7), "
    "while kli describe lists the pod under every component whose selector matches it, counting it twice; "
    "either way some view of the workload is wrong.",
    bad=_CLAIMED_TWICE,
    good=_with_selector_values(_CLAIMED_TWICE, "master", "worker"),

    fix="Compare the selector with a value (`value: worker`) so that each pod matches one component.",
    example_mode="tree",
).id

_GANG = """\
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - {componentName: %s, groupByKeyPaths: ['.metadata.labels["jobset.sigs.k8s.io/jobset-name"]']}
"""

GANG_MIN_AVAILABLE_UNKNOWN = define(
    "WM714",
    "gang-min-available-unknown",
    "warning",
    "The gang scheduler gets no positive min-available for a pod group on this manifest.",
    why="KAI sizes a gang from the members' subtree scale (minReplicas if positive, else replicas if "
    "positive, else 0; upstream `CalculateSubtreeScale`). A podGroup sub-group of scale 0 is refused "
    "(`component %s must expose a replica scale definition`), and a podGroups group whose members add up to "
    "0 gets a min-available of 0.",
    bad=_jobset(".spec.replicatedJobs[] | 0")
    .replace("    childComponents:", "    childComponents:")
    .replace(_JOBSET_MANIFEST, "")
    + _GANG % "replicatedjob"
    + _JOBSET_MANIFEST,
    good=_jobset(_GOOD_SCALE).replace(_JOBSET_MANIFEST, "") + _GANG % "replicatedjob" + _JOBSET_MANIFEST,
    fix="Give every gang member a scaleDefinition whose replicasPath or minReplicasPath is positive.",
    example_mode="tree",
).id

GANG_MEMBER_UNKNOWN = define(
    "WM715",
    "gang-member-not-resolved",
    "error",
    "A pod group member or sub-group names a component that the definition does not have.",
    why="Upstream's validator rejects a podGroups member that names no component, and KAI skips a Karta "
    "that fails it (FORMAT.md §3.2, §6); a podGroup sub-group is checked only by KAI when it groups a pod, "
    "which then fails.",
    bad=_jobset(_GOOD_SCALE).replace(_JOBSET_MANIFEST, "") + _GANG % "replicatedjobs" + _JOBSET_MANIFEST,
    good=_jobset(_GOOD_SCALE).replace(_JOBSET_MANIFEST, "") + _GANG % "replicatedjob" + _JOBSET_MANIFEST,
    fix="Use the name of a root or child component.",
    example_mode="tree",
).id

SELECTOR_NOT_SINGLE = define(
    "WM716",
    "pod-selector-not-single-value",
    "warning",
    "An instance idPath, replica keyPath or groupByKeyPath gives no value or several values on a pod.",
    why="The runtime needs exactly one non-empty value per pod to place it in an instance, replica or gang.",
    bad=_JOBSET_HEAD
    + f"      scaleDefinition: {{replicasPath: '{_GOOD_SCALE}'}}\n"
    + _SELECTOR.replace('.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]', ".metadata.labels[]")
    + _JOBSET_MANIFEST
    + _PODS_GOOD,
    good=_JOBSET_HEAD
    + f"      scaleDefinition: {{replicasPath: '{_GOOD_SCALE}'}}\n"
    + _SELECTOR
    + _JOBSET_MANIFEST
    + _PODS_GOOD,
    fix="Read one label or field per pod.",
    example_mode="tree",
).id

_SUITE = """\
definition:
  apiVersion: run.ai/v1alpha1
  kind: Karta
  metadata: {name: batch-job-v1}
  spec:
    structureDefinition:
      rootComponent:
        name: job
        kind: {group: batch, version: v1, kind: Job}
        specDefinition: {podTemplateSpecPath: .spec.template}
        scaleDefinition: {replicasPath: '.spec.parallelism // 1'}
        statusDefinition:
          conditionsDefinition: {path: .status.conditions}
          statusMappings:
            completed: [{byConditions: [{type: Complete, status: "True"}]}]
cases:
- name: two pods with one GPU each
  manifest:
    apiVersion: batch/v1
    kind: Job
    metadata: {name: pi}
    spec:
      parallelism: 2
      template: {spec: {containers: [{name: pi, image: perl, resources: {limits: {nvidia.com/gpu: 1}}}]}}
  expect:
    totals: {pods: %d, gpus: 2}
    status: Undefined
"""

TEST_FAILED = define(
    "WM720",
    "definition-test-failed",
    "error",
    "A definition test case resolves differently from its expectations.",
    why="A definition test pins what a platform shows for a manifest; a difference means the definition "
    "changed behaviour.",
    bad=_SUITE % 3,
    good=_SUITE % 2,
    fix="Fix the definition, or run `wmaplint test --update` when the new result is the intended one.",
    example_mode="test",
    example_filename="example.test.yaml",
).id

INVALID_TEST_SUITE = define(
    "WM721",
    "invalid-test-suite",
    "error",
    "A definition test suite file cannot be read or has the wrong shape.",
    why="A suite that cannot be read tests nothing, silently.",
    bad="cases: {name: missing-definition}\n",
    good=_SUITE % 2,
    fix="See docs/testing.md for the suite format.",
    example_mode="test",
    example_filename="example.test.yaml",
).id

_ALIASED_LIST = "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 8)}]\n" for i in range(4)
)

INPUT_LIMIT = define(
    "WM718",
    "resolution-input-limit",
    "error",
    "A manifest input exceeds what `tree` and `test` resolve: a document over 1 MiB of text or 30,000 YAML "
    "nodes, or more than 5,000 manifest documents in one run.",
    why="Resolution time and memory grow with the input; past these limits wmaplint reports the input "
    "instead of working for minutes. Real workload objects are far smaller: etcd, which stores them, "
    "refuses requests over 1.5 MiB by default.",
    bad=_jobset(_GOOD_SCALE).replace(
        "metadata: {name: train}\n",
        "metadata: {name: train}\npadding:\n  a: &a [x, x, x, x, x, x, x, x]\n"
        + "".join("  " + line + "\n" for line in _ALIASED_LIST.splitlines()),
    ),
    good=_jobset(_GOOD_SCALE),
    fix="Resolve the workloads in smaller pieces: split the stream across runs, or trim generated lists.",
    example_mode="tree",
).id

INVALID_DEFINITION_INPUT = define(
    "WM717",
    "definition-file-without-definition",
    "error",
    "A file passed with --definition holds no Karta or ResourceInterface document with a root kind.",
    why="Without a root kind the definition matches no manifest, so nothing is resolved with it.",
    bad="""\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: incomplete}
spec:
  structureDefinition:
    rootComponent: {name: job}
""",
    good=_jobset(_GOOD_SCALE).replace(_JOBSET_MANIFEST, ""),
    fix="Give rootComponent a kind with group, version and kind.",
    example_mode="definition-file",
).id
