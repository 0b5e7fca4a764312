"""Findings of a shipped definition, placed on the manifest.

A finding found while resolving stands where the definition says what went wrong (a spec path, a pod group).
When the definition is one of the shipped catalog, that file lies inside the installed package, where a user
cannot open or change it; what they can change is the manifest. So such a finding is placed on the manifest's
field that the definition read and found wrong (a quantity, the zero a scale path read, the entry of an
instance), else on the manifest's kind, and its message names the shipped definition and the line of
`wmaplint catalog show` that the finding was found at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from wmaplint.dataclass import replace
from wmaplint.diagnostics import Diagnostic, Span
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.resolve.findings import (
    InvalidQuantity,
    PodCountDiffers,
    PodGroupEmpty,
    PodGroupRejected,
    PodInstanceUnknown,
)
from wmaplint.resolve.loading import LoadedDocument, catalog_dir
from wmaplint.resolve.model import Workload
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode, anchor_node

Path = tuple[str | int, ...]

# what pod_template reports of a resource amount: `requests.memory: '128GB' is not a quantity`
_QUANTITY_PROBLEM = re.compile(r"(requests|limits|overhead)\.([^:]+): ")
# the fields a jq expression reads: `.replicas`, `.template.spec.parallelism`, `.["x"]` is left out
_FIELD = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)")


def is_shipped(definition_path: str) -> bool:
    """Whether a definition was read from the shipped catalog."""
    return bool(definition_path) and os.path.dirname(os.path.abspath(definition_path)) == str(catalog_dir())


def on_manifest(findings: list[FileFinding], workload: Workload,
                manifest: LoadedDocument) -> Iterator[Diagnostic]:
    """The diagnostics of ``findings``; those standing in the shipped definition placed on the manifest."""
    name = workload.definition_name
    for finding in findings:
        if finding.path != workload.definition_path:
            yield from diagnostics_of([finding])
            continue
        placed = replace(finding, path=manifest.path, span=_field_span(finding, workload, manifest))
        for diagnostic in diagnostics_of([placed]):
            diagnostic.message += (f" (shipped definition {name}, line {finding.span.start_line} of "
                                   f"`wmaplint catalog show {name}`)")
            yield diagnostic


def _field_span(finding: FileFinding, workload: Workload, manifest: LoadedDocument) -> Span:
    root = manifest.document.root
    node: Node | None = None
    if isinstance(finding, InvalidQuantity):
        node = _quantity(root, finding.problem, finding.instance)
    elif isinstance(finding, PodCountDiffers) and finding.instance:
        node = _instance_entry(root, finding.instance, at_list=False)
    elif isinstance(finding, PodInstanceUnknown) and finding.known:
        node = _instance_entry(root, finding.known[0], at_list=True)
    elif isinstance(finding, PodGroupEmpty) or (
            isinstance(finding, PodGroupRejected) and "replica scale" in finding.error):
        node = _zero_scale(root, workload)
    if node is None and isinstance(root, MappingNode):
        node = root.get("kind")
    node = node or root
    return node.span if node is not None else Span.whole_file()


def _entries(node: Node | None, path: Path = ()) -> Iterator[tuple[Path, Node]]:
    """Every value below ``node`` with its key path."""
    if isinstance(node, MappingNode):
        for key, value in node.pairs:
            if isinstance(key, ScalarNode):
                inner = (*path, str(key.value))
                yield inner, value
                yield from _entries(value, inner)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.items):
            inner = (*path, index)
            yield inner, item
            yield from _entries(item, inner)


def _scalar_paths(root: Node | None, text: str) -> list[Path]:
    return [path for path, node in _entries(root) if isinstance(node, ScalarNode) and node.text == text]


def _quantity(root: Node | None, problem: str, instance: str) -> Node | None:
    """The amount a pod template's problem is about: under resources.<section>.<name> (overhead: in the pod
    spec), in the entry of ``instance`` when the manifest lists its instances by that id."""
    match = _QUANTITY_PROBLEM.match(problem)
    if match is None:
        return None
    section, name = match.groups()
    wanted = ("overhead", name) if section == "overhead" else ("resources", section, name)
    found = [path for path, _ in _entries(root) if path[-len(wanted):] == wanted]
    owners = {path[:-1] for path in _scalar_paths(root, instance)}
    within = [path for path in found if any(path[:len(owner)] == owner for owner in owners)]
    chosen = (within or found)[:1]
    return anchor_node(root, chosen[0], at_key=False) if chosen else None


def _instance_entry(root: Node | None, instance: str, *, at_list: bool) -> Node | None:
    """Where the manifest writes an instance's id (`name: worker` of a replicatedJobs entry), or, with
    ``at_list``, the key of the list that holds the entry (the instances the manifest has)."""
    for path in _scalar_paths(root, instance):
        if not at_list:
            return anchor_node(root, path, at_key=False)
        listed = [i for i, part in enumerate(path) if isinstance(part, int)]
        if listed:
            return anchor_node(root, path[:listed[-1]])
    return None


def _zero_scale(root: Node | None, workload: Workload) -> Node | None:
    """A zero in the manifest under a field a scale path of the definition reads: what made a gang empty."""
    read: set[str] = set()
    for node in workload.components.values():
        for expr in node.component.scale_paths.values():
            read.update(_FIELD.findall(expr.text))
    for path, value in _entries(root):
        if isinstance(value, ScalarNode) and _is_zero(value.value) and path and path[-1] in read:
            return value
    return None


def _is_zero(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == 0
