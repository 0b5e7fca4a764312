"""Rule registrations for the CEL checks (WM601-WM649)."""

from __future__ import annotations

from wmaplint.diagnostics import define

_CRD_HEAD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              minReplicas: {type: integer}
"""


def _crd(validation: str, extra_properties: str = "") -> str:
    return _CRD_HEAD + extra_properties + "            x-kubernetes-validations:\n" + validation


define(
    "WM601",
    "cel-rule-compile-error",
    "error",
    "A CRD validation rule does not compile or type-check against its schema.",
    why="The API server rejects the CRD (or, for rules already stored, fails every object with 'rule compile "
    "error'). Typical causes: a misspelled or missing field, comparing an integer with a string, calling a "
    "string function on a number.",
    bad=_crd("            - rule: self.minReplica <= self.replicas\n"),
    good=_crd("            - rule: self.minReplicas <= self.replicas\n"),
    fix="Use the property names and types the schema declares; escaped names (x__dash__y) for odd "
    "characters.",
    tags=("cel", "crd"),
)

define(
    "WM602",
    "cel-message-expression-error",
    "error",
    "A validation rule's messageExpression does not compile or does not yield a string.",
    why="The API server rejects the CRD; a messageExpression must be a CEL expression of type string over "
    "the same variables as the rule.",
    bad=_crd(
        "            - rule: self.minReplicas <= self.replicas\n"
        "              messageExpression: self.minReplicas\n"
    ),
    good=_crd(
        "            - rule: self.minReplicas <= self.replicas\n"
        "              messageExpression: \"'minReplicas ' + string(self.minReplicas) + ' is too large'\"\n"
    ),
    fix="Return a string, e.g. with string(...) conversions and '+'.",
    tags=("cel", "crd"),
)

define(
    "WM603",
    "cel-cost-exceeded",
    "error",
    "A validation rule's estimated cost exceeds the API server's limit.",
    why="At CRD write time the API server estimates each rule's worst-case cost times how often it can run "
    "(cardinality from maxItems/maxProperties) and rejects rules above 10,000,000, and schemas whose total "
    "exceeds 100,000,000.",
    bad=_crd(
        "            - rule: self.names.all(a, self.names.all(b, a == b || a != b))\n",
        "              names: {type: array, items: {type: string}}\n",
    ),
    good=_crd(
        "            - rule: self.names.all(a, self.names.all(b, a == b || a != b))\n",
        "              names: {type: array, maxItems: 16, items: {type: string, maxLength: 63}}\n",
    ),
    fix="Add maxItems, maxProperties and maxLength where lists, maps and strings are declared, or simplify.",
    tags=("cel", "crd", "cost"),
)

define(
    "WM604",
    "crd-rule-violation",
    "error",
    "An object (manifest or definition) is rejected by a validation rule of its CRD.",
    why="The API server would refuse the object with this field error. Definitions are checked against the "
    "Karta CRD's rules, workload manifests (`wmaplint tree`) against their own CRD's rules.",
    bad="""apiVersion: apps.nvidia.com/v1alpha1
kind: NIMService
metadata: {name: llm}
spec:
  image: {repository: nvcr.io/nim/meta/llama-3.2-1b-instruct, tag: "1.12.0"}
  authSecret: ngc-api-secret
  storage: {nimCache: {name: llm}}
  replicas: 1
  scale:
    enabled: true
    hpa: {minReplicas: 1, maxReplicas: 2}
""",
    good="""apiVersion: apps.nvidia.com/v1alpha1
kind: NIMService
metadata: {name: llm}
spec:
  image: {repository: nvcr.io/nim/meta/llama-3.2-1b-instruct, tag: "1.12.0"}
  authSecret: ngc-api-secret
  storage: {nimCache: {name: llm}}
  scale:
    enabled: true
    hpa: {minReplicas: 1, maxReplicas: 2}
""",
    fix="Change the object so the rule holds; the message is the rule's own message.",
    tags=("cel", "crd"),
    example_mode="tree",
)

define(
    "WM605",
    "group-by-expression-error",
    "error",
    "A gang-scheduling groupByExpressions entry is not valid CEL over a Pod.",
    why="groupByExpressions exist only in an experimental upstream revision of the gang instructions "
    "(FORMAT.md §2.12; not in the Karta CRD), where each is evaluated as CEL over a member Pod: an "
    "expression that names a field the Pod type does not have, or does not compile, cannot group any pod.",
    bad="""apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example}
spec:
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - componentName: job
          groupByExpressions: ['self.metadata.label["app"]']
""",
    good="""apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example}
spec:
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - componentName: job
          groupByExpressions: ['self.metadata.labels["app"]']
""",
    fix="Use fields of io.k8s.api.core.v1.Pod (self and pod both name the Pod).",
    tags=("cel", "gang"),
)

define(
    "WM606",
    "cel-rule-field-invalid",
    "error",
    "A validation rule entry has an invalid field: multi-line rule without message, bad reason, "
    "optionalOldSelf without oldSelf, or oldSelf under a list that cannot be correlated.",
    why="The API server rejects the CRD with a field error on the entry.",
    bad=_crd("            - rule: self.minReplicas <= self.replicas\n              reason: Invalid\n"),
    good=_crd(
        "            - rule: self.minReplicas <= self.replicas\n              reason: FieldValueInvalid\n"
    ),
    fix="reason is one of FieldValueInvalid, FieldValueForbidden, FieldValueRequired, FieldValueDuplicate.",
    tags=("cel", "crd"),
)

define(
    "WM607",
    "manifest-schema-violation",
    "warning",
    "A workload manifest does not fit its kind's schema: an unknown field, a wrong type, a missing required "
    "field or a value outside an enum.",
    why="The API server rejects a wrong type, a missing required field or a value outside an enum, and an "
    "unknown field under strict field validation (kubectl's default since 1.27); without it, the server "
    "prunes the unknown field, so a misspelled setting silently keeps its default.",
    bad="""apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: demo}
spec:
  replica: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: worker, image: busybox}]
""",
    good="""apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: demo}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: worker, image: busybox}]
""",
    fix="Use the field names and types the CRD declares (`kubectl explain` shows them).",
    tags=("schema", "manifest"),
    example_mode="tree",
)


def _widget(count: int) -> str:
    """The example CRD, its rule looping over spec.sizes four deep, then a Widget with ``count`` sizes."""
    loops = "self.sizes.all(a, self.sizes.all(b, self.sizes.all(c, self.sizes.all(d, a <= b + c + d))))"
    sizes = "              sizes: {type: array, items: {type: integer}}\n"
    crd = _crd(f"            - rule: {loops}\n", sizes)
    widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
    return f"{crd}---\n{widget}spec:\n  sizes: [{', '.join(['1'] * count)}]\n"


define(
    "WM608",
    "cel-cost-unbounded",
    "warning",
    "A validation rule was not evaluated: on this object its cost may pass the API server's runtime limits.",
    why="The API server counts the cost of every rule evaluation: one evaluation may cost at most 1,000,000, "
    "and all rules of one object share 10,000,000; past either it stops validating and rejects the object. "
    "wmaplint bounds each evaluation's cost before running it, with the cost model's rules and this "
    "object's real list, map and string sizes; a rule whose bound passes a limit is not run (nor, past the "
    "shared budget, any rule after it). The bound is an upper bound, so the server, counting actual costs, "
    "may still accept the object. The same finding reports a rule stopped by the evaluator wmaplint uses, "
    "which runs at most 10,000 loop iterations per evaluation (the API server has no such cap).",
    bad=_widget(32),
    good=_widget(8),
    fix="Make the lists the rule loops over shorter, or simplify the rule (no nested loops over one list); "
    "maxItems and maxLength in the schema let the server reject oversized objects up front.",
    tags=("cel", "crd", "cost"),
    example_mode="crd-object",
)
