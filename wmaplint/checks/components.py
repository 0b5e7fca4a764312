"""Components, ownership, pod selectors and gang members (upstream's validator, with every finding
reported)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from wmaplint.checks import Context, check, fix
from wmaplint.definition.model import Component
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import MappingNode, ScalarNode
from wmaplint.source.edits import remove_pair, replace_scalar

_CHILD = """\
    childComponents:
    - name: worker
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: job
      specDefinition: {podTemplateSpecPath: .spec.template}
"""


def _with_child(child: str) -> str:
    return JOB.replace("    rootComponent:", child + "    rootComponent:", 1)


DUPLICATE_NAME = define(
    "WM501", "duplicate-component-name", "error",
    "Two components have the same name.",
    why="Component names identify components in ownerRef, gang members and pod attribution; upstream's "
    "validator rejects repeats (\"component name %s is not unique\") and stops checking anything else.",
    bad=_with_child(_CHILD.replace("name: worker", "name: job")),
    good=_with_child(_CHILD),
    fix="Give each component a unique name.",
)
EMPTY_NAME = define(
    "WM502", "empty-component-name", "error",
    "A component's name is empty.",
    why="Upstream rejects it (\"component name is empty\"); nothing can refer to the component.",
    bad=job_with("name: job\n", 'name: ""\n'),
    good=JOB,
    fix="Name the component.",
)
ROOT_KIND = define(
    "WM503", "root-kind-incomplete", "error",
    "The root component lacks a full group, version and kind.",
    why="The root kind is how platforms find the definition for a workload (one definition per GVK); only "
    "the core kind Pod may have an empty group.",
    bad=job_with("{group: batch, version: v1, kind: Job}", '{group: "", version: v1, kind: Job}'),
    good=JOB,
    fix="Set group, version and kind of the workload's CRD.",
)
ROOT_OWNER = define(
    "WM504", "root-owner-ref", "error",
    "The root component has an ownerRef.",
    why="The root is the workload object itself and owns everything; upstream rejects any ownerRef on it, "
    "even an empty one.",
    bad=job_with("      name: job\n", "      name: job\n      ownerRef: job\n"),
    good=JOB,
    fix="Remove ownerRef from the root component.",
)
ROOT_STATUS = define(
    "WM505", "root-status-missing", "error",
    "The root component has no statusDefinition.",
    why="Platforms show the workload's status from the root's status mapping; upstream rejects a root "
    "without one.",
    bad=JOB.split("      statusDefinition:")[0],
    good=JOB,
    fix="Add a statusDefinition with statusMappings to the root component.",
)
CHILD_OWNER = define(
    "WM506", "child-owner-ref-missing", "error",
    "A child component has no ownerRef.",
    why="Children hang under their parent component; without ownerRef upstream rejects the definition "
    "(\"child component '%s' has no owner ref\").",
    bad=_with_child(_CHILD.replace("      ownerRef: job\n", "")),
    good=_with_child(_CHILD),
    fix="Set ownerRef to the name of the parent component.",
)
OWNER_UNKNOWN = define(
    "WM507", "owner-ref-unknown", "error",
    "An ownerRef names a component that does not exist.",
    why="Upstream rejects it (\"has owner ref to non-existing component\"); the tree cannot be built.",
    bad=_with_child(_CHILD.replace("ownerRef: job", "ownerRef: jobs")),
    good=_with_child(_CHILD),
    fix="Use the name of an existing component (the message suggests the closest).",
)
OWNER_CYCLE = define(
    "WM508", "ownership-cycle", "error",
    "ownerRefs form a cycle that never reaches the root.",
    why="The component tree must be a tree rooted at the root component; a cycle makes it unbuildable.",
    bad=_with_child(
        "    childComponents:\n    - {name: a, ownerRef: b}\n    - {name: b, ownerRef: a}\n"
    ),
    good=_with_child("    childComponents:\n    - {name: a, ownerRef: job}\n    - {name: b, ownerRef: a}\n"),
    fix="Point one of the ownerRefs at the root or at a component outside the cycle.",
)
MULTIPLE_SPECS = define(
    "WM509", "multiple-pod-spec-shapes", "error",
    "A component uses more than one of podTemplateSpecPath, podSpecPath and fragmentedPodSpecDefinition.",
    why="The runtime reads exactly one shape; upstream rejects the mix (\"has multiple pod spec "
    "definitions\").",
    bad=job_with("{podTemplateSpecPath: .spec.template}",
                 "{podTemplateSpecPath: .spec.template, podSpecPath: .spec.template.spec}"),
    good=JOB,
    fix="Keep one shape; metadataPath may accompany podSpecPath.",
)
SELECTOR_EMPTY = define(
    "WM510", "type-selector-empty", "error",
    "A componentTypeSelector has neither keyPath nor matchLabels.",
    why="The API server rejects it (\"at least one of keyPath or matchLabels must be set\") and so does "
    "upstream's validator; no pod could ever match.",
    bad=_with_child(_CHILD + "      podSelector:\n        componentTypeSelector: {}\n"),
    good=_with_child(_CHILD + "      podSelector:\n        componentTypeSelector: {keyPath: "
                     "'.metadata.labels.role', value: worker}\n"),
    fix="Set keyPath (optionally with value) or matchLabels.",
)
VALUE_WITHOUT_KEYPATH = define(
    "WM511", "selector-value-without-keypath", "error",
    "A componentTypeSelector has a value but no keyPath.",
    why="The value is compared with keyPath's output; the API server rejects it (\"value requires "
    "keyPath\").",
    bad=_with_child(_CHILD + "      podSelector:\n        componentTypeSelector: {value: worker, "
                    "matchLabels: {role: worker}}\n"),
    good=_with_child(_CHILD + "      podSelector:\n        componentTypeSelector: {matchLabels: {role: "
                     "worker}}\n"),
    fix="Add keyPath, or drop value and use matchLabels.",
)
INSTANCE_PAIRING = define(
    "WM512", "instance-selector-unpaired", "error",
    "instanceIdPath and podSelector.componentInstanceSelector must come together.",
    why="Instances are listed by instanceIdPath and pods are attributed to them by "
    "componentInstanceSelector; upstream rejects one without the other.",
    bad=_with_child(_CHILD + "      instanceIdPath: .spec.template.metadata.name\n"),
    good=JOB,
    fix="Add the missing half, or remove instanceIdPath for a single-instance component.",
)
GANG_MEMBER_UNKNOWN = define(
    "WM513", "gang-member-unknown", "error",
    "A gang member names a component that does not exist.",
    why="Upstream rejects it (\"pod-group member component '%s' is not defined\"); the scheduler cannot form "
    "the gang.",
    bad=JOB + "  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n      - name: job\n       "
    " members: [{componentName: jobs}]\n",
    good=JOB + "  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n      - name: job\n      "
    "  members: [{componentName: job}]\n",
    fix="Use the name of a root or child component.",
)
SUBGROUP_UNKNOWN = define(
    "WM514", "subgroup-component-unknown", "error",
    "A podGroup sub-group names a component that does not exist.",
    why="Upstream's validator does not check sub-groups; the scheduler fails at runtime when it builds the "
    "PodGroup.",
    bad=JOB + "  optimizationInstructions:\n    gangScheduling:\n      podGroup:\n        name: job\n        "
    "subGroups: [{componentName: jobs}]\n",
    good=JOB + "  optimizationInstructions:\n    gangScheduling:\n      podGroup:\n        name: job\n       "
    " subGroups: [{componentName: job}]\n",
    fix="Use the name of an existing component.",
)
METADATA_WITHOUT_PODSPEC = define(
    "WM516", "metadata-path-without-pod-spec", "warning",
    "metadataPath is set without podSpecPath.",
    why="The Go type documents metadataPath for use only with podSpecPath, for pod metadata kept apart from "
    "the PodSpec (upstream `SpecDefinition`). The library still evaluates it whenever it is set: its outputs "
    "are matched to the component's instances, so a count mismatch or a jq error fails the component, and "
    "the metadata it yields is handed over beside the pod template or fragments, whose own labels then "
    "compete with it; which one a consumer uses is not defined (upstream `GetExtractedInstances`; kli "
    "describe reads neither).",
    bad=job_with("{podTemplateSpecPath: .spec.template}",
                 "{podTemplateSpecPath: .spec.template, metadataPath: .spec.template.metadata}"),
    good=job_with("{podTemplateSpecPath: .spec.template}",
                  "{podSpecPath: .spec.template.spec, metadataPath: .spec.template.metadata}"),
    fix="Remove metadataPath, or use podSpecPath with it.",
)
EMPTY_FRAGMENTS = define(
    "WM517", "empty-fragmented-spec", "warning",
    "fragmentedPodSpecDefinition has no paths.",
    why="An empty fragmented definition still counts as the component's pod spec shape, but yields no "
    "fragment at all, and the runtime matches fragments to the component's instances (upstream "
    "`GetFragmentedPodSpec`): `instance ids count (1) does not match results count (0)`, so the workload "
    "tree cannot be built.",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{fragmentedPodSpecDefinition: {}}"),
    good=JOB,
    fix="Add the fragment paths, or remove the spec definition.",
)
CHILD_STATUS = define(
    "WM518", "status-definition-on-child", "warning",
    "A child component has a statusDefinition.",
    why="Only the root's statusDefinition is read; on a child it is silently ignored.",
    bad=_with_child(_CHILD + "      statusDefinition:\n        statusMappings:\n          running: "
                    "[{byPhase: Running}]\n"),
    good=_with_child(_CHILD),
    fix="Move the mapping to the root component or remove it.",
)
UNATTRIBUTED_PODS = define(
    "WM520", "unattributable-pods", "warning",
    "Several components carry pods but this one has no componentTypeSelector.",
    why="When more than one component has a pod spec, pods are attributed by componentTypeSelector: KAI "
    "takes the first leaf whose selector matches and skips leaves without one (FORMAT.md §2.7), and kli "
    "describe gives a selector-less component no pods. A pod-bearing component without one (the Milvus "
    "etcd/minio case) never gets its pods: kli does not list them, and KAI infers no component for them.",
    bad=_with_child(_CHILD),
    good=_with_child(_CHILD + "      podSelector:\n        componentTypeSelector: {keyPath: "
                     "'.metadata.labels.role', value: worker}\n").replace(
        "      statusDefinition:", "      podSelector:\n        componentTypeSelector: {keyPath: "
        "'.metadata.labels.role', value: main}\n      statusDefinition:", 1),
    fix="Add a componentTypeSelector that matches this component's pods (a label the controller sets).",
)


def _suggest(name: str, names: list[str]) -> list[str]:
    return difflib.get_close_matches(name, names, n=3, cutoff=0.5)


@check
def components(ctx: Context) -> Iterator[Diagnostic]:
    d = ctx.definition
    comps = d.components
    first: dict[str, Component] = {}
    for c in comps:
        if c.name_node is not None and c.name == "":
            yield ctx.diag(EMPTY_NAME, c.name_node, "component name is empty")
        if not c.name:
            continue
        if c.name in first:
            yield ctx.diag(DUPLICATE_NAME, c.name_node, f"component name {c.name!r} is not unique",
                           related=[ctx.here(first[c.name].name_node, "first used here")])  # type: ignore[arg-type]
        else:
            first[c.name] = c
    names = list(first)

    root = d.root
    if root is not None:
        gvk = root.kind
        if gvk is None or not gvk.version or not gvk.kind or (not gvk.group and gvk.kind != "Pod"):
            where = gvk.node if gvk is not None else (root.name_node or root.node)
            missing = "kind" if gvk is None else ", ".join(
                f for f, v in (("group", gvk.group or gvk.kind == "Pod"), ("version", gvk.version),
                               ("kind", gvk.kind)) if not v)
            yield ctx.diag(ROOT_KIND, where, f"root component must have full kind (group, version, kind); "
                           f"missing {missing}" + ("; only Pod may have the empty core "
                                                   "group" if gvk and gvk.kind else ""))
        if root.owner_ref_node is not None:
            key = root.node.key_node("ownerRef")
            yield ctx.diag(ROOT_OWNER, key, "root component cannot have an ownerRef",
                           fixes=fix("remove ownerRef", remove_pair(root.node, key)) if key else [])
        if root.status is None:
            yield ctx.diag(ROOT_STATUS, root.name_node or root.node,
                           "root component must have a statusDefinition: platforms read the workload's "
                           "status from it")

    for c in d.children:
        if not c.owner_ref:
            yield ctx.diag(CHILD_OWNER, c.owner_ref_node or c.name_node or c.node,
                           f"child component {c.label!r} has no ownerRef")
        elif c.owner_ref not in first:
            hint = _suggest(c.owner_ref, names)
            yield ctx.diag(
                OWNER_UNKNOWN, c.owner_ref_node,
                f"child component {c.label!r} has ownerRef to non-existing component {c.owner_ref!r}"
                + (f"; did you mean {hint[0]!r}?" if hint else ""),
                fixes=fix(f"use {hint[0]}", replace_scalar(c.owner_ref_node, hint[0]))
                if hint and isinstance(c.owner_ref_node, ScalarNode) else [],
                data={"suggestions": hint, "valid": sorted(names)},
            )
        if c.status is not None:
            yield ctx.diag(CHILD_STATUS, c.node.key_node("statusDefinition"),
                           f"statusDefinition on child component {c.label!r} is ignored: only the root's is "
                           f"read")
    yield from _cycles(ctx, first)

    for c in comps:
        yield from _component(ctx, c)
    yield from _attribution(ctx, comps)
    yield from _gang(ctx, names)


def _cycles(ctx: Context, by_name: dict[str, Component]) -> Iterator[Diagnostic]:
    """Each ownership cycle once. Every component is walked at most once: a walk stops at a component an
    earlier walk finished, so a chain of n owners costs n steps, not n squared."""
    finished: set[str] = set()
    for c in ctx.definition.children:
        walk: dict[str, int] = {}  # name -> position on this walk
        order: list[str] = []
        current: Component | None = c
        while current is not None and not current.is_root and current.name and current.owner_ref:
            if current.name in finished:
                break
            if current.name in walk:
                cycle = order[walk[current.name]:]
                yield ctx.diag(OWNER_CYCLE, current.owner_ref_node,
                               f"ownership cycle: {' -> '.join([*cycle, current.name])}")
                break
            walk[current.name] = len(order)
            order.append(current.name)
            current = by_name.get(current.owner_ref)
        finished.update(order)


def _component(ctx: Context, c: Component) -> Iterator[Diagnostic]:
    shapes = c.spec_shapes()
    if len(shapes) > 1:
        yield ctx.diag(MULTIPLE_SPECS, c.spec_node.key_node(shapes[1]),  # type: ignore[union-attr]
                       f"component {c.label!r} has multiple pod spec definitions ({', '.join(shapes)})")
    spec = c.spec_node
    if spec is not None:
        if spec.get("metadataPath") is not None and spec.get("podSpecPath") is None:
            shape = next((k for k in ("podTemplateSpecPath", "fragmentedPodSpecDefinition")
                          if spec.get(k) is not None), None)
            beside = (f"beside {shape} it is still evaluated, and its metadata competes with the pod's own"
                      if shape else "without a pod spec it is still evaluated, but describes no pod")
            yield ctx.diag(METADATA_WITHOUT_PODSPEC, spec.key_node("metadataPath"),
                           f"metadataPath of component {c.label!r} is meant only for podSpecPath; {beside}")
        fragments = spec.get("fragmentedPodSpecDefinition")
        if isinstance(fragments, MappingNode) and not fragments.pairs:
            yield ctx.diag(EMPTY_FRAGMENTS, spec.key_node("fragmentedPodSpecDefinition"),
                           f"component {c.label!r} has an empty fragmentedPodSpecDefinition: it counts as a "
                           "pod spec but yields no fragment, so matching fragments to the instances fails")
    sel = c.type_selector_node
    if sel is not None:
        key_path = sel.get("keyPath")
        labels = sel.get("matchLabels")
        has_key = isinstance(key_path, ScalarNode) and bool(key_path.value)
        has_labels = isinstance(labels, MappingNode) and bool(labels.pairs)
        if not has_key and not has_labels:
            yield ctx.diag(SELECTOR_EMPTY, c.pod_selector_node.key_node("componentTypeSelector"),  # type: ignore
                           f"component {c.label!r} has a componentTypeSelector with neither keyPath nor "
                           f"matchLabels")
        elif sel.get("value") is not None and not has_key:
            yield ctx.diag(VALUE_WITHOUT_KEYPATH, sel.key_node("value"),
                           f"component {c.label!r} has a componentTypeSelector value without keyPath")
    has_ids = c.node.get("instanceIdPath") is not None
    has_instance_sel = c.instance_selector_node is not None
    if has_ids and not has_instance_sel:
        yield ctx.diag(INSTANCE_PAIRING, c.node.key_node("instanceIdPath"),
                       f"component {c.label!r} has instanceIdPath but no "
                       f"podSelector.componentInstanceSelector: its "
                       "pods cannot be told apart by instance")
    elif has_instance_sel and not has_ids:
        yield ctx.diag(INSTANCE_PAIRING, c.pod_selector_node.key_node("componentInstanceSelector"),  # type: ignore
                       f"component {c.label!r} has a componentInstanceSelector but no instanceIdPath")


def _attribution(ctx: Context, comps: list[Component]) -> Iterator[Diagnostic]:
    bearing = [c for c in comps if c.has_pods]
    if len(bearing) < 2:
        return
    for c in bearing:
        if c.type_selector_node is None:
            yield ctx.diag(
                UNATTRIBUTED_PODS, c.name_node or c.node,
                f"component {c.label!r} carries pods but has no componentTypeSelector, and "
                f"{len(bearing) - 1} other component(s) carry pods too: its pods cannot be attributed",
            )


def _gang(ctx: Context, names: list[str]) -> Iterator[Diagnostic]:
    known = set(names)  # members x components would be quadratic with a list
    for member in ctx.definition.gang_members:
        if member.component and member.component not in known:
            hint = _suggest(member.component, names)
            yield ctx.diag(
                GANG_MEMBER_UNKNOWN, member.component_node,
                f"pod-group member component {member.component!r} is not defined (should be a root or child "
                "component)" + (f"; did you mean {hint[0]!r}?" if hint else ""),
                fixes=fix(f"use {hint[0]}", replace_scalar(member.component_node, hint[0]))
                if hint and member.component_node is not None else [],
                data={"suggestions": hint, "valid": sorted(names)},
            )
    for sub in ctx.definition.subgroup_refs:
        if sub.component and sub.component not in known:
            hint = _suggest(sub.component, names)
            yield ctx.diag(
                SUBGROUP_UNKNOWN, sub.component_node,
                f"podGroup sub-group component {sub.component!r} is not defined; the scheduler fails when it "
                f"builds "
                "the PodGroup" + (f"; did you mean {hint[0]!r}?" if hint else ""),
                data={"suggestions": hint, "valid": sorted(names)},
            )
