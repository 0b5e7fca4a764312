"""WM532 instance-selector-not-entry: an instance selector reads a label that does not identify the entries
instanceIdPath iterates."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.reading import label_reads
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import source_of
from wmaplint.rules.examples import JOBSET

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel, WrittenLabel
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM532", "instance-selector-not-entry", "error",
    "An instance selector reads a label that does not name the entries instanceIdPath iterates.",
    why="A pod belongs to the instance whose id equals its idPath value. A label naming the workload, a "
    "component or the entries of another list never equals an entry's id, so the instances claim no pod or "
    "all of them the same. What each label's value identifies is the controller model's "
    "(schemas/controllers/, `pods.labels[].role` and `of`, e.g. JobSet's "
    "`jobset.sigs.k8s.io/replicatedjob-name` names the entries of .spec.replicatedJobs, "
    "kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go).",
    bad=JOBSET.replace("jobset.sigs.k8s.io/replicatedjob-name", "jobset.sigs.k8s.io/jobset-name"),
    good=JOBSET,
    fix="Read the label the message names: its value is the id of the entry the pod was made from.",
)

ROLES = {"workload": "the workload's name", "run": "the run of the workload", "component": "a component",
         "replica": "a replica index", "revision": "the template revision"}


def _iterates(text: str, of: str) -> bool:
    compact = re.sub(r"[\s?]", "", text)
    return re.search(re.escape(of) + r"(?![A-Za-z0-9_])", compact) is not None


@definition_check(RULE)
def instance_selector_not_entry(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    model = ctx.root_model
    if model is None or model.pods is None:
        return
    for component in ctx.definition.components:
        ids, selector = component.instance_id_path, component.instance_selector_path
        if ids is None or selector is None:
            continue
        right = [label.key for label in model.labels_with_role("entry")
                 if label.of and _iterates(ids.text, label.of)]
        # ids read from a list the controller makes nothing of is most likely a misplaced path (the path
        # rules say so): which entries were meant is not known, so the label is not blamed
        known = any(_iterates(ids.text, place) for place in _entry_lists(model))
        for read in label_reads(selector, "instance selector"):
            label = model.label(read.key)
            problem = _problem(label, ids.text, known)
            if label is None or problem is None:
                continue
            instead = f"; the label naming those entries is {', '.join(right)}" if right else ""
            message = (f"instance selector reads label {read.key!r}, whose value is {problem}, not the id of "
                       f"the entry `{ids.text.strip()}` yields{instead} ({source_of(model, label.source)})")
            yield ctx.diag(RULE, selector.node.span_of(read.start, read.end), message)


def _entry_lists(model: KindModel) -> set[str]:
    """The lists whose entries the controller makes objects from: the entry labels' and the creates' ``each``
    written as a plain path."""
    places = {label.of for label in model.labels_with_role("entry") if label.of}
    for created in model.creates:
        each = re.sub(r"\[\]|\?|\s", "", created.each or "")
        if re.fullmatch(r"(\.[A-Za-z0-9_]+)+", each):
            places.add(each)
    return places


def _problem(label: WrittenLabel | None, ids: str, known: bool) -> str | None:
    if label is None:
        return None
    if label.role in ROLES:
        return ROLES[label.role]
    if label.role == "entry" and label.of and known and not _iterates(ids, label.of):
        return f"the id of an entry of {label.of}"
    return None


