"""`wmaplint record`: what a cluster showed of one workload, made a recording that `wmaplint test` replays.

The input is what kubectl prints while the workload runs (``kubectl get KIND NAME -w -o json``, with or
without ``--output-watch-events``, or the outputs of several ``kubectl get -o yaml``), read by
``wmaplint.resolve.loading`` with every version kept. The output is a recording in upstream's current format
(dsx-ai-factory/workload-map@3314756 test/e2e/recorder/recorder.go, and the recordings it wrote): one
``kind: STATE`` event per distinct resourceVersion, holding the object as the API server returned it less
``metadata.resourceVersion`` (written beside it as the event's ``resourceVersion``) and ``managedFields``, as
upstream's recordings hold it; ``phases``, the statuses the definition matches for the object in the runtime's
order (``Undefined`` when none); ``state``, the first of them, the status a platform reading the definition
shows; and the header fields ``flow``, ``kartaFile``, ``kartaName``, ``operator``, ``schemaVersion``,
``summary`` (runs of equal phases) and ``want`` (the last state).

Upstream's recorder judged each state from the object's own fields, by predicates written for the flow; here
the definition judges, so a recording says what the definition does now. A person reads the states, corrects
what the workload did not do, and commits: from then on `wmaplint test` holds every later definition to them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.resolve.kubectl import object_key
from wmaplint.resolve.loading import (
    Budget,
    DefinitionIndex,
    LoadedFile,
    catalog_dir,
    load_file,
    manifest_gvk,
    show_gvk,
)
from wmaplint.resolve.status_match import UNDEFINED
from wmaplint.resolve.values import get

if TYPE_CHECKING:
    from wmaplint.diagnostics import Diagnostic
    from wmaplint.jq.runtime import JqRuntime

SCHEMA_VERSION = 1  # upstream's recordings' schemaVersion
# Fields of the object the API server returns that upstream's recordings do not hold: the resourceVersion
# moves to the event, the field managers are bookkeeping of writes.
_LEFT_OUT = ("resourceVersion", "managedFields")


class RecordError(Exception):
    """What the input or the definitions given do not allow to record: one line."""


@dataclass
class Recording:
    """A recording made: its data (written as YAML), the states in order, the findings evaluating the status
    met, and the definition that judged."""

    data: dict[str, Any]
    states: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    definition: str = ""


def read_inputs(paths: list[str]) -> tuple[list[dict[str, Any]], list[Diagnostic], list[str]]:
    """Every object version the inputs hold, in order, with the findings reading them met (any makes the
    recording incomplete) and what was passed by (a watch's ERROR event)."""
    objects: list[dict[str, Any]] = []
    problems: list[Diagnostic] = []
    notes: list[str] = []
    budget = Budget()
    for path in paths:
        loaded: LoadedFile = load_file(path, budget=budget, versions=True)
        problems.extend(loaded.problems)
        notes.extend(loaded.notes)
        for document in loaded.documents:
            if manifest_gvk(document.value) is None:
                root = document.document.root
                line = root.span.start_line if root is not None else 1
                raise RecordError(f"{loaded.path}:{line}: not a Kubernetes object (no apiVersion and kind)")
            objects.append(document.value)
    return objects, problems, notes


def distinct_versions(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One object a resourceVersion, in the order first seen (a watch may repeat one: the list it starts from,
    a re-established watch); an object without one counts when it differs from the one before it."""
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    for obj in objects:
        version = get(get(obj, "metadata"), "resourceVersion")
        if isinstance(version, str) and version:
            if version in seen:
                continue
            seen.add(version)
        elif kept and kept[-1] == obj:
            continue
        kept.append(obj)
    return kept


def _one_object(objects: list[dict[str, Any]]) -> str:
    """The object the versions are of, as a reader names it; RecordError when there are several (a recording
    is of one workload)."""
    names: dict[object, str] = {}
    for obj in objects:
        metadata = get(obj, "metadata")
        namespace, name = get(metadata, "namespace"), get(metadata, "name")
        shown = f"{obj.get('kind')} {namespace + '/' if isinstance(namespace, str) else ''}{name}"
        names.setdefault(object_key(obj) or shown, shown)
    if len(names) != 1:
        listed = ", ".join(list(names.values())[:5]) + (", ..." if len(names) > 5 else "")
        raise RecordError(f"the input holds {len(names)} objects ({listed}); a recording is of one: "
                          "watch one with `kubectl get KIND NAME -w -o json`")
    return next(iter(names.values()))


def _stored(obj: dict[str, Any]) -> dict[str, Any]:
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        return obj
    return {**obj, "metadata": {k: v for k, v in metadata.items() if k not in _LEFT_OUT}}


def _summary(phases: list[list[str]]) -> list[dict[str, Any]]:
    """Runs of equal phases, as upstream's recordings summarise their events."""
    runs: list[dict[str, Any]] = []
    for matched in phases:
        if runs and runs[-1]["phases"] == matched:
            runs[-1]["amount"] += 1
        else:
            runs.append({"amount": 1, "phases": matched})
    return runs


def karta_file(path: str) -> str:
    """The definition's file as the recording names it: a shipped definition by its place in the repository
    (``catalog/NAME.yaml``), another relative to the working directory when below it."""
    absolute = os.path.abspath(path)
    if os.path.dirname(absolute) == str(catalog_dir()):
        return f"catalog/{os.path.basename(absolute)}"
    below = os.path.relpath(absolute)
    return path if below.startswith(os.pardir) else below


def record(objects: list[dict[str, Any]], index: DefinitionIndex, runtime: JqRuntime, *, flow: str,
           operator: str | None = None) -> Recording:
    """The recording of ``objects`` (the versions of one object), each judged by its definition in
    ``index``."""
    from wmaplint.suites.recording import judged

    versions = distinct_versions(objects)
    if not versions:
        raise RecordError("the input holds no object")
    shown = _one_object(versions)
    gvk = manifest_gvk(versions[0])
    assert gvk is not None
    candidates = index.lookup(gvk)
    if not candidates:
        raise RecordError(f"no definition for {show_gvk(gvk)} ({shown}); give one with --definition FILE")
    if len(candidates) > 1:
        raise RecordError(f"several definitions describe {show_gvk(gvk)}: "
                          f"{', '.join(c.name for c in candidates)}; give one with --definition FILE")
    entry = candidates[0]
    events: list[dict[str, Any]] = []
    phases: list[list[str]] = []
    findings: list[FileFinding] = []
    for obj in versions:
        status, found = judged(entry.definition, entry.loaded.path, obj, runtime)
        findings.extend(found)
        matched = list(status.matches) or [UNDEFINED]
        phases.append(matched)
        event: dict[str, Any] = {"kind": "STATE", "object": _stored(obj), "phases": matched,
                                 "state": matched[0]}
        version = get(get(obj, "metadata"), "resourceVersion")
        if isinstance(version, str) and version:
            event["resourceVersion"] = version
        events.append(event)
    group = gvk[0] or "core"
    data: dict[str, Any] = {
        "events": events,
        "flow": flow,
        "kartaFile": karta_file(entry.loaded.path),
        "kartaName": entry.name,
        "operator": operator or group,
        "schemaVersion": SCHEMA_VERSION,
        "summary": _summary(phases),
        "want": phases[-1][0],
    }
    # the same expression fails the same way on many versions: each finding once
    said = {(d.path, d.span, d.rule, d.message): d for d in diagnostics_of(findings)}
    return Recording(data, [p[0] for p in phases], list(said.values()), entry.loaded.path)


def render(recording: Recording) -> str:
    """The recording as YAML, keys sorted as upstream's recorder writes them (sigs.k8s.io/yaml)."""
    import yaml

    return str(yaml.safe_dump(recording.data, sort_keys=True, default_flow_style=False, allow_unicode=True,
                              width=1 << 16))
