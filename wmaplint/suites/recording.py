"""Recordings as suites: upstream's recorded workload states, each recorded state a case.

A recording (the formats of upstream's end-to-end recorders, docs/testing.md) is one YAML mapping; the case
passes under upstream's replay rule: the recorded state is among the statuses the definition matches for the
object, ``Undefined`` when none matches. Two formats are read:

- ``events:`` (dsx-ai-factory/workload-map@3314756 test/e2e/recorder/recorder.go): a ``kind: STATE`` event
  holds the ``object`` as the API server returned it and the ``state`` a platform should show for it;
  ``kind: ACTION`` events (the changes the flow applied) are passed by, as are ``phases``, ``summary`` and any
  other key.
- ``steps:``, the recorder before it (run-ai/karta@3873187 test/conformance/fixture.go, schemaVersion 6;
  replayed by the same rule in run-ai/karta@800e119 test/e2e/conformance/golden_test.go): the first step holds
  the full object as ``cr``, each later one an RFC 7386 merge ``patch`` from the step before; each step has
  its ``state``. Karta's reading stored beside them (``expected``, ``expectedPatch``) is not compared: it is
  what the library read then, not what the workload did.

The definition is the recording's own ``definition:`` (as in a suite), else the one found for the object's
group and kind among those given (``--definition``) and the shipped catalog, as ``wmaplint tree`` finds it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass
from wmaplint.definition.model import Definition
from wmaplint.diagnostics import Diagnostic
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.jq.runtime import JqRuntime, default_runtime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.loading import (
    DefinitionIndex,
    LoadedDocument,
    load_file,
    manifest_gvk,
    show_gvk,
    shown_path,
)
from wmaplint.resolve.model import StatusResult
from wmaplint.resolve.status_match import UNDEFINED, evaluate_status
from wmaplint.resolve.values import get
from wmaplint.source import InputError, find_span
from wmaplint.suites.suite import (
    CaseResult,
    SuiteError,
    SuiteResult,
    _definition,
    _tidy,
    key_span,
    kind_misfit,
    read_bounded,
)

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

MAX_CONDITIONS_SHOWN = 8
# A recording is refused over a manifest document's 1 MiB, as a suite is: upstream's largest is 48 kB (3,231
# values). Parsing grows with the bytes, not with the values counted after it: at the limit, 1 MiB of real
# events (168 STATE events) read in 1 s and 60 MB, 1 MiB of one-digit values (524,000) in 6 s and 370 MB,
# and 2 MiB of them (a million values, under the reader's 20 MB) in 16 s and 710 MB before this limit.
# Aliases stay under the reader's own limit of expanded nodes (MAX_ALIAS_EXPANSION). Read by read_bounded.


def read_recording(path: Path) -> LoadedDocument:
    """The recording at ``path`` as a positioned document; SuiteError (one line) when it is not one."""
    text = read_bounded(path, "recording")
    try:
        loaded = load_file(str(path), text=text)
    except InputError as exc:
        raise SuiteError(str(exc)) from None
    if loaded.problems:
        problem = loaded.problems[0]
        raise SuiteError(f"{problem.message} (line {problem.span.start_line})", problem.span)
    documents = loaded.documents
    if len(documents) != 1 or not isinstance(documents[0].value, dict):
        extra = documents[1] if len(documents) > 1 else documents[0] if documents else None
        span = extra.document.root.span if extra is not None and extra.document.root is not None else None
        raise SuiteError("a recording is one YAML mapping with `events` or `steps`", span)
    recorded_states(documents[0])  # its shape is checked when it is read
    return documents[0]


@dataclass
class RecordedState:
    """One recorded state of a recording: where it stands (``events`` or ``steps`` and its index), the object
    as it was then, and the state recorded for it."""

    key: str
    index: int
    obj: dict[str, Any]
    state: str
    resource_version: Any = None

    @property
    def name(self) -> str:
        return f"{'event' if self.key == 'events' else 'step'} {self.index}"


def recorded_states(loaded: LoadedDocument) -> list[RecordedState]:
    """The recorded states of a recording, in order; SuiteError at the place not as the format says."""
    value = loaded.value
    if "events" not in value and isinstance(value.get("steps"), list):
        return _steps(loaded)
    events = value.get("events")
    if not isinstance(events, list):
        raise SuiteError("`events` must be a list", key_span(loaded, "events"))
    states = [(i, e) for i, e in enumerate(events) if isinstance(e, dict) and e.get("kind") == "STATE"]
    if not states:
        raise SuiteError("the recording has no `kind: STATE` event", key_span(loaded, "events"))
    for i, event in states:
        if not isinstance(event.get("object"), dict) or not isinstance(event.get("state"), str):
            raise SuiteError("every `kind: STATE` event needs an `object` mapping and a `state` string",
                             find_span(loaded.document, ("events", i)))
    return [RecordedState("events", i, e["object"], e["state"],
                          e.get("resourceVersion") or get(get(e["object"], "metadata"), "resourceVersion"))
            for i, e in states]


def _steps(loaded: LoadedDocument) -> list[RecordedState]:
    """The states of a ``steps:`` recording: the first step's ``cr``, then each later step's merge ``patch``
    applied to the object before it (RFC 7386, as upstream's reconstruct did)."""
    from json_merge_patch import merge

    steps = loaded.value["steps"]
    if not steps:
        raise SuiteError("`steps` must not be empty", key_span(loaded, "steps"))
    found: list[RecordedState] = []
    current: dict[str, Any] | None = None
    for i, step in enumerate(steps):
        at = find_span(loaded.document, ("steps", i))
        if not isinstance(step, dict) or not isinstance(step.get("state"), str):
            raise SuiteError("every step needs a `state` string", at)
        if i == 0:
            if not isinstance(step.get("cr"), dict):
                raise SuiteError("the first step needs the object as a `cr` mapping", at)
            current = copy.deepcopy(step["cr"])
        else:
            patch = step.get("patch")
            if patch is not None and not isinstance(patch, dict):
                raise SuiteError("a step's `patch` must be a mapping (a merge patch)", at)
            try:
                current = merge(copy.deepcopy(current), patch or {})
            except RecursionError:
                raise SuiteError("a step's `patch` is nested too deeply to apply", at) from None
        assert current is not None
        metadata = get(current, "metadata")
        found.append(RecordedState("steps", i, current, step["state"], get(metadata, "resourceVersion")))
    return found


def subject(recorded: RecordedState) -> str:
    """The recorded object as a case names it: kind, namespace/name and resourceVersion."""
    obj = recorded.obj
    metadata = get(obj, "metadata")
    name = get(metadata, "name")
    namespace = get(metadata, "namespace")
    name = name if isinstance(name, str) else "(unnamed)"
    shown = f"{namespace}/{name}" if isinstance(namespace, str) else name
    version = recorded.resource_version
    at = f" (resourceVersion {version})" if version is not None else ""
    kind = get(obj, "kind")
    return f"{kind if isinstance(kind, str) else 'object'} {shown}{at}"


def decided_by(status: StatusResult) -> str:
    """The object's fields the definition read to decide: the phase and the conditions."""
    parts = [f"phase {status.phase!r}" if status.phase is not None else "no phase"]
    if status.conditions:
        shown = []
        for condition in status.conditions[:MAX_CONDITIONS_SHOWN]:
            text = f"{condition.get('type')}={condition.get('status')}"
            reason = condition.get("reason")
            shown.append(text + (f" ({reason})" if isinstance(reason, str) and reason else ""))
        more = len(status.conditions) - MAX_CONDITIONS_SHOWN
        parts.append("conditions " + ", ".join(shown) + (f", and {more} more" if more > 0 else ""))
    else:
        parts.append("no conditions")
    return "; ".join(parts)


class _Definitions:
    """The definition of each event's object: the recording's own, else found by group and kind."""

    def __init__(self, own: tuple[Definition, str] | None, index: DefinitionIndex):
        self.own = own
        self.index = index
        self.used: set[str] = set()  # files of definitions given with --definition that a case used

    def find(self, obj: Json) -> tuple[Definition, str] | str:
        """The definition and its file, or why there is none."""
        if self.own is not None:
            misfit = kind_misfit(self.own[0], obj)
            return self.own if misfit is None else f"{misfit} ({_tidy(self.own[1])})"
        gvk = manifest_gvk(obj)
        if gvk is None:
            return "the object has no apiVersion/kind"
        candidates = self.index.lookup(gvk)
        if not candidates:
            return f"no definition for {show_gvk(gvk)}; give one with --definition FILE or `definition:`"
        if len(candidates) > 1:
            return f"several definitions describe {show_gvk(gvk)}: {', '.join(c.name for c in candidates)}"
        entry = candidates[0]
        self.used.add(entry.loaded.path)
        return entry.definition, entry.loaded.path


def run_recording(
    path: Path, index: DefinitionIndex, runtime: JqRuntime | None = None
) -> tuple[SuiteResult, set[str]]:
    """Every STATE event of the recording at ``path`` as a case; with the definition files it used."""
    runtime = runtime or default_runtime()
    result = SuiteResult(path=str(path), recording=True)
    try:
        loaded = read_recording(path)
    except SuiteError as exc:
        result.error, result.error_span = str(exc), exc.span
        return result, set()
    own = None
    if "definition" in loaded.value:
        at_definition = find_span(loaded.document, ("definition",))
        try:
            own = _definition(loaded.value["definition"], loaded)
        except SuiteError as exc:
            result.error, result.error_span = str(exc), at_definition
            return result, set()
        if own is None:
            result.error = "definition: no Karta or ResourceInterface document"
            result.error_span = at_definition
            return result, set()
    definitions = _Definitions(own, index)
    for state in recorded_states(loaded):
        case = _run_state(state, definitions, runtime)
        case.span = find_span(loaded.document, (state.key, state.index, "state"))
        result.cases.append(case)
    return result, definitions.used


def judged(definition: Definition, definition_path: str, obj: Json, runtime: JqRuntime
           ) -> tuple[StatusResult, list[FileFinding]]:
    """The status the definition reads from an object, as the runtime evaluates it; what evaluating found."""
    findings: list[FileFinding] = []
    root = definition.root
    status = evaluate_status(root.status if root is not None else None,
                             Evaluator(runtime, obj, findings, definition_path))
    return status, findings


def _run_state(state: RecordedState, definitions: _Definitions, runtime: JqRuntime) -> CaseResult:
    recorded, position = state.state, state.index
    name = f"{state.name}: {subject(state)}, recorded {recorded}"
    found = definitions.find(state.obj)
    if isinstance(found, str):
        return CaseResult(name, position, False, error=found)
    definition, definition_path = found
    status, findings = judged(definition, definition_path, state.obj, runtime)
    matched = list(status.matches) or [UNDEFINED]
    actual = {
        "state": recorded,
        "matches": status.matches,
        "decided": decided_by(status),
        "definition": f"{definition.name or '(unnamed)'} ({shown_path(definition_path)})",
    }
    diagnostics: list[Diagnostic] = []
    if findings:
        diagnostics = sorted(diagnostics_of(findings), key=lambda d: d.sort_key())
    if recorded in matched:
        return CaseResult(name, position, True, actual=actual, diagnostics=diagnostics)
    differences = [
        f"state: recorded {recorded}, the definition matches {', '.join(matched)}",
        f"decided by: {actual['decided']}",
        f"definition: {actual['definition']}",
    ]
    return CaseResult(name, position, False, differences, actual, diagnostics=diagnostics)
