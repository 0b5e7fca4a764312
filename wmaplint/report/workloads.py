"""Render resolved workloads as a text tree, JSON, or Graphviz dot."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from wmaplint.report.gangs import gang_lines, grouping_json
from wmaplint.resolve.loading import shown_path
from wmaplint.resolve.model import ComponentNode, Instance, PodComparison, Workload
from wmaplint.resolve.quantities import (
    GPU,
    counted,
    format_amount,
    format_number,
    format_quantity,
    gpu_count,
    is_accelerator,
    quantities,
    totals,
)
from wmaplint.source import to_python

MAX_TEXT_LINES = 2000  # child subtrees repeat under every parent instance; keep output bounded


def _gpus(resources: dict[str, Decimal]) -> str:
    return counted(resources.get(GPU, Decimal(0)), "GPU")


def _accelerators(resources: dict[str, Decimal]) -> str:
    """Accelerators other than NVIDIA GPUs, by resource name: "32 google.com/tpu"."""
    return ", ".join(
        f"{format_amount(amount)} {name}"
        for name, amount in sorted(resources.items())
        if name != GPU and is_accelerator(name) and amount
    )


def _devices(resources: dict[str, Decimal]) -> str:
    """The GPU count, then other accelerators by name."""
    others = _accelerators(resources)
    return _gpus(resources) + (f", {others}" if others else "")


def _extra(resources: dict[str, Decimal]) -> str:
    parts = [
        f"{name} {format_quantity(name, amount, readable=True)}"
        for name, amount in sorted(resources.items())
        if not is_accelerator(name) and amount
    ]
    return ", ".join(parts)


def unseen_note(workload: Workload) -> str | None:
    """One plain sentence when the totals hold accelerators a platform reading the definition does not see."""
    unseen = {n: a for n, a in workload.total_unseen.items() if a and is_accelerator(n)}
    if not unseen:
        return None
    total = workload.total_resources
    asked = ", ".join(
        f"{format_amount(amount)} of the {_gpus(total)}"
        if name == GPU
        else f"{format_amount(amount)} of the {format_amount(total[name])} {name}"
        for name, amount in sorted(unseen.items(), key=lambda item: (item[0] != GPU, item[0]))
    )
    seen = {name: amount - unseen.get(name, Decimal(0)) for name, amount in total.items()}
    return (
        f"{workload.kind}'s own resource fields ask for {asked}, not the Kubernetes resource shapes the "
        f"definition points at: a platform reading the definition counts {_devices(seen)}"
    )


# -- JSON -------------------------------------------------------------------------------------------------
def _instance_json(inst: Instance) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": inst.id,
        "index": inst.index,
        "replicas": inst.replicas,
        "minReplicas": inst.min_replicas,
        "maxReplicas": inst.max_replicas,
        "effectiveReplicas": inst.effective_replicas,
        "pods": inst.pods,
        "gpus": gpu_count(inst.resources),
        "resources": quantities(inst.resources),
        "unseenByPlatform": quantities(inst.unseen),
    }
    if inst.template is not None:
        data["pod"] = {
            "gpus": gpu_count(inst.template.resources),
            "resources": quantities(inst.template.resources),
            "unseenByPlatform": quantities(inst.template.unseen),
            "containers": [
                c.get("name") for c in inst.template.spec.get("containers", []) if isinstance(c, dict)
            ]
            if isinstance(inst.template.spec.get("containers"), list)
            else [],
        }
    return data


def _component_json(node: ComponentNode) -> dict[str, Any]:
    return {
        "name": node.name,
        "kind": to_python(node.kind.node) if node.kind else None,
        "owner": node.owner,
        "hasSpec": node.has_spec,
        "pods": node.pods,
        "gpus": gpu_count(node.resources),
        "unseenByPlatform": quantities(node.unseen),
        "instances": [_instance_json(inst) for inst in node.instances],
    }


def workload_json(workload: Workload) -> dict[str, Any]:
    status = workload.status
    return {
        "apiVersion": workload.api_version,
        "kind": workload.kind,
        "name": workload.name,
        "namespace": workload.namespace,
        "definition": workload.definition_name,
        "definitionApiVersion": workload.definition_api_version,
        "definitionFile": workload.definition_path,
        "status": None
        if status is None
        else {
            "status": status.status,
            "matches": status.matches,
            "phase": status.phase,
            "conditions": status.conditions,
        },
        "totals": totals(workload),
        "assumptions": workload.assumptions,
        "notes": workload.notes,
        # per component: pods and GPUs under one instance of its parent
        "components": [_component_json(node) for node in workload.components.values()],
        "gangs": [
            {
                "name": g.name,
                "api": g.api,
                "minAvailable": g.min_available,
                "minSubGroups": g.min_subgroups,
                "topology": g.topology,
                "members": [
                    {
                        "component": m.component,
                        "groupByKeyPaths": m.group_by_key_paths,
                        "filters": m.filters,
                        "minAvailable": m.min_available,
                    }
                    for m in g.members
                ],
            }
            for g in workload.gangs
        ],
        "grouping": grouping_json(workload.grouping),
        "pods": [
            {"pod": p.pod, "component": p.component, "instance": p.instance, "replica": p.replica}
            for p in workload.pods
        ],
        "podComparison": _comparison_json(workload.comparison) if workload.comparison else None,
        "findings": [
            {"rule": d.rule, "message": d.message, "path": d.path, "line": d.span.start_line,
             "column": d.span.start_col}
            for d in workload.diagnostics
        ],
    }


def _comparison_json(c: PodComparison) -> dict[str, Any]:
    return {
        "agrees": c.agrees,
        "predicted": {"pods": c.predicted, "gpus": format_number(c.predicted_gpus)},
        "listed": {"pods": c.listed, "gpus": format_number(c.listed_gpus)},
        "components": [
            {"component": n.component, "instance": n.instance or None, "predicted": n.predicted,
             "listed": n.listed}
            for n in c.components
        ],
        "belonging": c.belonging,
        "claimedByNone": c.unclaimed,
        "claimedTwice": c.claimed_twice,
        "notOfWorkload": c.foreign,
    }


def _comparison_lines(c: PodComparison) -> list[str]:
    verdict = "agrees with the tree" if c.agrees else "differs from the tree"
    listed, predicted = counted(c.listed_gpus, "GPU"), counted(c.predicted_gpus, "GPU")
    lines = [
        f"  pod list: {counted(c.listed, 'pod')} of the workload, {listed}; "
        f"predicted {counted(c.predicted, 'pod')}, {predicted}: {verdict}"
    ]
    for n in c.components:
        if n.predicted != n.listed:
            part = f"{n.component}/{n.instance}" if n.instance else n.component
            lines.append(f"    {part}: predicted {n.predicted}, listed {n.listed}")
    lines.extend(f"    claimed by no component: {pod}" for pod in c.unclaimed)
    lines.extend(f"    claimed by several components: {pod}" for pod in c.claimed_twice)
    if c.foreign:
        more = f" and {len(c.foreign) - 10} more" if len(c.foreign) > 10 else ""
        shown = ", ".join(c.foreign[:10]) + more
        lines.append(f"    not of this workload: {shown}")
    return lines


def render_json(workloads: list[Workload], extra: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {"workloads": [workload_json(w) for w in workloads]}
    if extra:
        data.update(extra)
    return json.dumps(data, indent=2, default=str)


# -- text -------------------------------------------------------------------------------------------------
def _kind(node: ComponentNode) -> str:
    return f" [{node.kind.kind}]" if node.kind and node.kind.kind else ""


def _instance_line(node: ComponentNode, inst: Instance) -> str:
    label = inst.id if node.multi_instance else "(single)"
    scale = f"replicas {inst.effective_replicas}"
    if inst.replicas is None and inst.min_replicas is not None:
        scale += " (minReplicas)"
    elif inst.replicas is None:
        scale += " (default)"
    if inst.max_replicas is not None:
        scale += f", max {inst.max_replicas}"
    text = f"{label}: {scale} -> {counted(inst.pods, 'pod')}, {_devices(inst.resources)}"
    if inst.template is not None:
        extra = _extra(inst.template.resources)
        unseen = (
            " not seen by a platform"
            if any(amount and is_accelerator(name) for name, amount in inst.template.unseen.items())
            else ""
        )
        text += f"  (per pod: {_devices(inst.template.resources)}{unseen}{', ' + extra if extra else ''})"
    return text


def definition_source(workload: Workload) -> str:
    """Which version of the kind the definition is written for (and the manifest's, when they differ), and
    its file: drafts reuse the catalog's names, so the name alone does not say which definition ran."""
    written = workload.definition_api_version or "?"
    text = written
    if workload.api_version and written != workload.api_version:
        text += f", for a {workload.api_version} manifest"
    return f"{text}; file {shown_path(workload.definition_path)}"


def render_text(workloads: list[Workload], notes: list[str] | None = None) -> str:
    lines: list[str] = []
    for workload in workloads:
        t = totals(workload)
        name = workload.name or "(unnamed)"
        where = f"{workload.namespace}/{name}" if workload.namespace else name
        memory = workload.total_resources.get("memory")
        lines.append(
            f"{workload.kind} {where}: 1 workload, {counted(t['pods'], 'pod')}, "
            f"{_devices(workload.total_resources)}"
            + (f", cpu {t['cpu']}" if t["cpu"] else "")
            + (f", memory {format_quantity('memory', memory, readable=True)}" if memory else "")
        )
        name = workload.definition_name or "(unnamed)"
        lines.append(f"  definition: {name} ({definition_source(workload)})")
        note = unseen_note(workload)
        if note:
            lines.append(f"  note: {note}")
        lines.extend(f"  note: {note}" for note in workload.notes)
        lines.extend(f"  assumption: {assumption}" for assumption in workload.assumptions)
        if workload.status is not None:
            status = workload.status
            detail = f" (matches: {', '.join(status.matches)})" if len(status.matches) > 1 else ""
            native = []
            if status.phase is not None:
                native.append(f"phase {status.phase}")
            if status.conditions:
                native.append(
                    "conditions "
                    + ", ".join(f"{c.get('type')}={c.get('status')}" for c in status.conditions[:8])
                )
            lines.append(f"  status: {status.status}{detail}" + (f"; {'; '.join(native)}" if native else ""))
        if workload.root is not None:
            budget = [MAX_TEXT_LINES]
            _tree_lines(workload.root, "  ", lines, budget)
        lines.extend(gang_lines(workload))
        for pod in workload.pods:
            target = pod.component or "(no component)"
            if pod.instance is not None:
                target += f"/{pod.instance}"
            if pod.replica is not None:
                target += f" replica {pod.replica}"
            lines.append(f"  pod {pod.pod} -> {target}")
        if workload.comparison is not None:
            lines.extend(_comparison_lines(workload.comparison))
        for diagnostic in workload.diagnostics:
            lines.append(f"  {diagnostic.rule}: {diagnostic.message}")
    for note in notes or []:
        lines.append(note)
    return "\n".join(lines) + ("\n" if lines else "")


def _tree_lines(node: ComponentNode, indent: str, lines: list[str], budget: list[int]) -> None:
    """Components with their instances; a single-instance component shares one line with its instance."""
    stack: list[tuple[ComponentNode, str, str]] = [(node, indent, "")]  # (component, padding, branch)
    while stack:
        comp, pad, branch = stack.pop()
        if budget[0] <= 0:
            lines.append(f"{pad}... (output cut at {MAX_TEXT_LINES} lines)")
            return
        budget[0] -= 1
        head = f"{pad}{branch}{comp.name}{_kind(comp)}"
        child_pad = pad + ("   " if branch else "")
        pending: list[tuple[ComponentNode, str, str]] = []
        if not comp.multi_instance and len(comp.instances) == 1:
            inst = comp.instances[0]
            lines.append(f"{head}: {_instance_line(comp, inst).split(': ', 1)[1]}")
            kids = inst.children
            for k, child in enumerate(kids):
                pending.append((child, child_pad, "└─ " if k == len(kids) - 1 else "├─ "))
        else:
            lines.append(
                f"{head}: {counted(len(comp.instances), 'instance')}, {counted(comp.pods, 'pod')}, "
                f"{_devices(comp.resources)}"
            )
            for i, inst in enumerate(comp.instances):
                last = i == len(comp.instances) - 1
                budget[0] -= 1
                lines.append(f"{child_pad}{'└─ ' if last else '├─ '}{_instance_line(comp, inst)}")
                inner = child_pad + ("   " if last else "│  ")
                for k, child in enumerate(inst.children):
                    pending.append((child, inner, "└─ " if k == len(inst.children) - 1 else "├─ "))
        stack.extend(reversed(pending))


# -- dot --------------------------------------------------------------------------------------------------
def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _pods_and_gpus(pods: int, resources: dict[str, Decimal]) -> str:
    return f"{counted(pods, 'pod')}, {_gpus(resources)}"


def render_dot(workloads: list[Workload]) -> str:
    out = ["digraph workloads {", "  rankdir=LR;", "  node [shape=box, fontname=Helvetica];"]
    for w_index, workload in enumerate(workloads):
        t = totals(workload)
        wid = f"w{w_index}"
        status = workload.status.status if workload.status else "Undefined"
        counts = _pods_and_gpus(t["pods"], workload.total_resources)
        label = f"{workload.kind} {workload.name}\n{counts}\n{status}"
        out.append(f"  {wid} [shape=folder, label={_quote(label)}];")
        for c_index, node in enumerate(workload.components.values()):
            cid = f"{wid}c{c_index}"
            out.append(f"  {cid} [label={_quote(f'{node.name}{_kind(node)}')}];")
            parent = (
                f"{wid}c{list(workload.components).index(node.owner)}"
                if node.owner in workload.components and node is not workload.root
                else wid
            )
            out.append(f"  {parent} -> {cid};")
            for inst in node.instances:
                iid = f"{cid}i{inst.index}"
                label = f"{inst.id or '(single)'}\n{_pods_and_gpus(inst.pods, inst.resources)}"
                out.append(f"  {iid} [shape=ellipse, label={_quote(label)}];")
                out.append(f"  {cid} -> {iid};")
    out.append("}")
    return "\n".join(out) + "\n"
