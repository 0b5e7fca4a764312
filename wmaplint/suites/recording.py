"""Recordings as suites: upstream's recorded workload states, each STATE event a case.

A recording (the format of upstream's end-to-end recorder, docs/testing.md) is one YAML mapping with
``events:``; a ``kind: STATE`` event holds the ``object`` as the API server returned it and the ``state`` a
platform should show for it. The case passes under upstream's replay rule: the recorded state is among the
statuses the definition matches for the object, ``Undefined`` when none matches. ``kind: ACTION`` events (the
changes the flow applied) are passed by. The definition is the recording's own ``definition:`` (as in a
suite), else the one found for the object's group and kind among those given (``--definition``) and the
shipped catalog, as ``wmaplint tree`` finds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint.definition.model import Definition
from wmaplint.diagnostics import Diagnostic
from wmaplint.facts import Fact, diagnostics_of
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
        raise SuiteError("a recording is one YAML mapping with `events`", span)
    events = documents[0].value.get("events")
    if not isinstance(events, list):
        raise SuiteError("`events` must be a list", key_span(documents[0], "events"))
    states = [(i, e) for i, e in enumerate(events) if isinstance(e, dict) and e.get("kind") == "STATE"]
    if not states:
        raise SuiteError("the recording has no `kind: STATE` event", key_span(documents[0], "events"))
    for i, event in states:
        if not isinstance(event.get("object"), dict) or not isinstance(event.get("state"), str):
            raise SuiteError("every `kind: STATE` event needs an `object` mapping and a `state` string",
                             find_span(documents[0].document, ("events", i)))
    return documents[0]


def subject(event: dict[str, Any]) -> str:
    """The recorded object as a case names it: kind, namespace/name and resourceVersion."""
    obj = event["object"]
    metadata = get(obj, "metadata")
    name = get(metadata, "name")
    namespace = get(metadata, "namespace")
    name = name if isinstance(name, str) else "(unnamed)"
    shown = f"{namespace}/{name}" if isinstance(namespace, str) else name
    version = event.get("resourceVersion") or get(metadata, "resourceVersion")
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
    for position, event in enumerate(loaded.value["events"]):
        if not isinstance(event, dict) or event.get("kind") != "STATE":
            continue
        case = _run_event(position, event, definitions, runtime)
        case.span = find_span(loaded.document, ("events", position, "state"))
        result.cases.append(case)
    return result, definitions.used


def _run_event(
    position: int, event: dict[str, Any], definitions: _Definitions, runtime: JqRuntime
) -> CaseResult:
    recorded = event["state"]
    name = f"event {position}: {subject(event)}, recorded {recorded}"
    found = definitions.find(event["object"])
    if isinstance(found, str):
        return CaseResult(name, position, False, error=found)
    definition, definition_path = found
    facts: list[Fact] = []
    root = definition.root
    status = evaluate_status(
        root.status if root is not None else None,
        Evaluator(runtime, event["object"], facts, definition_path),
    )
    matched = list(status.matches) or [UNDEFINED]
    actual = {
        "state": recorded,
        "matches": status.matches,
        "decided": decided_by(status),
        "definition": f"{definition.name or '(unnamed)'} ({shown_path(definition_path)})",
    }
    diagnostics: list[Diagnostic] = []
    if facts:
        diagnostics = sorted(diagnostics_of(facts), key=lambda d: d.sort_key())
    if recorded in matched:
        return CaseResult(name, position, True, actual=actual, diagnostics=diagnostics)
    differences = [
        f"state: recorded {recorded}, the definition matches {', '.join(matched)}",
        f"decided by: {actual['decided']}",
        f"definition: {actual['definition']}",
    ]
    return CaseResult(name, position, False, differences, actual, diagnostics=diagnostics)
