"""WM534 sibling-template-path: a component reads its sibling's pod template or replica count (a copy-paste
slip)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.reading import navigations, segments, spec_texts
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import PYTORCHJOB

if TYPE_CHECKING:
    from wmaplint.definition.model import Component
    from wmaplint.rules.context import DefinitionContext

_MASTER = """\
      - name: master
        kind: {group: "", version: v1, kind: Pod}
        ownerRef: pytorchjob
        specDefinition: {podTemplateSpecPath: '.spec.pytorchReplicaSpecs.Master.template'}
        scaleDefinition: {replicasPath: '.spec.pytorchReplicaSpecs.Master.replicas // 1'}
        podSelector:
          componentTypeSelector:
            keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'
            value: master
"""
_WITH_MASTER = PYTORCHJOB.replace("    childComponents:\n", "    childComponents:\n" + _MASTER)

RULE = define(
    "WM534", "sibling-template-path", "error",
    "A component reads the pod template or the replica count of a sibling component.",
    why="Each component describes the pods the controller makes from its own part of the spec. A spec or "
    "replicas path copied from a sibling and not adapted gives the component the sibling's pods or count: "
    "the tree double-counts one part and never shows the other, and gang sizes are wrong. The parts are "
    "where the controller reads each pod template (schemas/controllers/, `creates[].template`, e.g. the "
    "training operator makes each replica type's pods from .spec.pytorchReplicaSpecs[<type>].template, "
    "kubeflow/training-operator pkg/controller.v1/common/pod.go).",
    bad=_WITH_MASTER.replace(
        "scaleDefinition: {replicasPath: '.spec.pytorchReplicaSpecs.Worker.replicas // 1'}",
        "scaleDefinition: {replicasPath: '.spec.pytorchReplicaSpecs.Master.replicas // 1'}"),
    good=_WITH_MASTER,
    fix="Read the component's own part of the spec.",
)

_LEAVES = {"template", "podTemplate", "spec", "podSpec", "extraPodSpec", "mainContainer"}


def spec_root(component: Component) -> tuple[str, ...] | None:
    """The part of the spec the component's pods come from: its template's parent (``.a.Worker`` of
    ``.a.Worker.template``, ``.a.*`` of ``.a[].template``, each entry of a list), or what all its fragment
    paths share."""
    paths = [s for s in (segments(t) for t in spec_texts(component)) if s is not None]
    if not paths:
        return None
    if len(paths) == 1 or len({p for p in paths}) == 1:
        root = paths[0][:-1] if paths[0][-1] in _LEAVES else paths[0]
    else:
        root = paths[0]
        for p in paths[1:]:
            n = 0
            while n < min(len(root), len(p)) and root[n] == p[n]:
                n += 1
            root = root[:n]
    return root if len(root) >= 2 else None


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _within(path: tuple[str, ...], root: tuple[str, ...]) -> bool:
    return path[: len(root)] == root


def _inside(path: tuple[str, ...], root: tuple[str, ...]) -> bool:
    """A field inside ``root`` (a guard such as `.spec.transformer == null` reads none)."""
    return len(path) > len(root) and _within(path, root)


@definition_check(RULE)
def sibling_template_path(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    components = [c for c in ctx.definition.children if c.name]
    roots = {c.name: spec_root(c) for c in components}
    for component in components:
        for name, expr in component.spec_paths.items():
            if name not in ("podTemplateSpecPath", "podSpecPath"):
                continue  # metadata may be shared (a group's labels)
            for sibling in components:
                other = sibling.spec_paths.get(name)
                if sibling is component or sibling.owner_ref != component.owner_ref or other is None:
                    continue
                if components.index(sibling) < components.index(component) and _same(other.text, expr.text):
                    yield ctx.diag(RULE, expr.node,
                                   f"{name} of {component.name!r} is the one of its sibling {sibling.name!r} "
                                   f"({other.text.strip()}): both describe the same pods, and the pods of "
                                   f"{component.name!r} are described by neither",
                                   related=[ctx.here(other.node, "the sibling's path")])
                    break
        own = roots[component.name]
        if own is None:
            continue
        siblings = [(s, r) for s in components
                    if s is not component and s.owner_ref == component.owner_ref
                    and (r := roots[s.name]) is not None and not _within(own, r) and not _within(r, own)]
        for name, expr in component.scale_paths.items():
            reads = [(segments(c) or (), s, e) for c, s, e in navigations(expr.text)]
            if any(_inside(path, own) for path, _, _ in reads):
                continue
            for sibling, root in siblings:
                hit = next(((s, e) for path, s, e in reads if _inside(path, root)), None)
                if hit is None:
                    continue
                yield ctx.diag(RULE, expr.node.span_of(*hit),
                               f"{name} of {component.name!r} reads {'.' + '.'.join(root)}, the part of the "
                               f"spec its sibling {sibling.name!r} describes, and nothing of its own "
                               f"{'.' + '.'.join(own)}: it counts the sibling's pods")
                break
