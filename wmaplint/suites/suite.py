"""Definition test suites: reading a suite file, running its cases, comparing results with expectations.

Format (docs/testing.md)::

    definition: ../jobset.yaml            # path relative to the suite, {file: PATH}, or an inline definition
    cases:
    - name: leader and two workers
      manifest: manifests/jobset.yaml      # path, {file: PATH}, or an inline manifest
      pods: pods.yaml                      # optional: path or inline list of Pods
      expect:                              # only the keys given are compared, except findings
        totals: {pods: 3, gpus: 12}
        status: Running
        matches: [Running, Initializing]
        instances: {replicatedjob: {leader: 1, workers: 2}}   # component -> instance id -> replicas
        gangs: {job: 3}                                        # gang name -> min-available (null: unknown)
        pods: {train-workers-0-0: replicatedjob/workers}       # pod -> component[/instance]
        findings: []                                           # rule ids of resolution and schema findings

Each case's manifest is also validated against its schema (CRD or Kubernetes OpenAPI) as `wmaplint tree`
does: its schema findings (manifest-schema-violation, crd-rule-violation) join the case's `findings`, and
their diagnostics point into the suite file for an inline manifest, into the manifest file otherwise. An
absent `findings` expects none.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint.allowed_paths import outside_reason
from wmaplint.dataclass import dataclass, field
from wmaplint.definition.model import Definition, build, recognise
from wmaplint.diagnostics import Diagnostic, RelatedLocation, Span
from wmaplint.findings import FileFinding
from wmaplint.jq.runtime import JqRuntime
from wmaplint.resolve.loading import (
    MAX_DOCUMENT_BYTES,
    MAX_DOCUMENT_NODES,
    MAX_DOCUMENTS,
    Budget,
    LoadedDocument,
    load_file,
)
from wmaplint.resolve.model import Workload
from wmaplint.resolve.pods import attribute_pods, pods_from_documents
from wmaplint.resolve.quantities import GPU, platform_gpus, totals
from wmaplint.resolve.references import References
from wmaplint.resolve.run import workload_diagnostics
from wmaplint.resolve.tree import resolve_workload
from wmaplint.source import InputError, MappingNode, Node, SequenceNode, find_node, find_span, read_path
from wmaplint.suites.findings import CaseFailed, SuiteInvalid

if TYPE_CHECKING:
    from wmaplint.schema.store import Schemas
    from wmaplint.source.plain import Json

_MIB = 1 << 20

EXPECT_KEYS = ("totals", "status", "matches", "instances", "gangs", "pods", "findings")


class SuiteError(Exception):
    """A suite that cannot be read or has the wrong shape (one line), with the span in the suite file it is
    about when it is about one."""

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.span = span


def key_span(document: LoadedDocument, key: str) -> Span:
    """Where a top-level key of a suite document stands: its key, else (the key is missing) the first key of
    the mapping that lacks it, else the document."""
    root = document.document.root
    if isinstance(root, MappingNode):
        node = root.key_node(key)
        if node is None and root.pairs:
            node = root.pairs[0][0]
        if node is not None:
            return node.span
    return root.span if root is not None else Span.whole_file()


@dataclass
class CaseResult:
    name: str
    index: int
    passed: bool
    differences: list[str] = field(default_factory=list)
    actual: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)  # schema findings of the manifest
    notes: list[str] = field(default_factory=list)  # e.g. no schema source serves the manifest's kind
    span: Span | None = None  # where the case stands in its suite


@dataclass
class SuiteResult:
    path: str
    cases: list[CaseResult] = field(default_factory=list)
    error: str | None = None
    error_span: Span | None = None  # where in the suite file the error is, when it is about one place
    updated: bool = False
    recording: bool = False  # a recording of workload states (wmaplint.suites.recording), not a *.test.yaml
    not_updated: str | None = None  # why --update could not write the suite: one line

    @property
    def passed(self) -> bool:
        return self.error is None and all(c.passed for c in self.cases)

    def findings(self) -> list[FileFinding]:
        """The suite that cannot be run, or each case that fails, as a finding at its place in the suite."""
        if self.error is not None:
            return [SuiteInvalid(self.path, self.error_span or Span.whole_file(), self.error)]
        return [
            CaseFailed(
                self.path,
                case.span or Span.whole_file(),
                case.name,
                case.error or "; ".join(case.differences),
                tuple(RelatedLocation(d.path, d.span, f"{d.rule} {d.message}") for d in case.diagnostics),
            )
            for case in self.cases
            if not case.passed
        ]


def _load_single(ref: object, base: Path, what: str) -> list[LoadedDocument]:
    if isinstance(ref, dict) and set(ref) == {"file"}:
        ref = ref["file"]
    if isinstance(ref, str):
        target = (base / ref) if not Path(ref).is_absolute() else Path(ref)
        outside = outside_reason(str(target), base)
        if outside is not None:
            raise SuiteError(f"{what}: {ref!r} {outside}; a suite names files inside its repository only")
        try:
            loaded = load_file(str(target), budget=Budget())
        except InputError as exc:
            raise SuiteError(f"{what}: {exc}") from None
        if loaded.problems:
            raise SuiteError(f"{what}: {target}: {loaded.problems[0].message}")
        return loaded.documents
    raise SuiteError(f"{what} must be a file path or an inline mapping")


def _named_file(ref: object, base: Path) -> str | None:
    """The file a reference names (a path or ``{file: PATH}``, relative to the suite), None for inline."""
    if isinstance(ref, dict) and set(ref) == {"file"}:
        ref = ref["file"]
    if not isinstance(ref, str):
        return None
    return str(base / ref) if not Path(ref).is_absolute() else ref


def named_files(suite: dict[str, Json], base: Path) -> list[str]:
    """The files a suite's value names: its definition and each case's manifest, pods and ``with``."""
    refs = [suite.get("definition")]
    cases = suite.get("cases")
    for case in cases if isinstance(cases, list) else []:
        if isinstance(case, dict):
            refs.extend(case.get(key) for key in ("manifest", "pods", "with"))
    return [name for name in (_named_file(ref, base) for ref in refs) if name is not None]


def _value(ref: object, base: Path, what: str) -> list[Any]:
    """Plain values of a reference: an inline mapping/list, or the documents of a file."""
    if isinstance(ref, dict) and set(ref) != {"file"}:
        return [ref]
    if isinstance(ref, list):
        return list(ref)
    return [d.value for d in _load_single(ref, base, what)]


def actual_results(workload: Workload) -> dict[str, Any]:
    t = totals(workload)
    counted: dict[str, Any] = {"pods": t["pods"], "gpus": t["gpus"]}
    others = {name: n for name, n in t["accelerators"].items() if name != GPU}
    if others:
        counted["accelerators"] = others
    if GPU in t["unseenByPlatform"]:
        counted["platformGpus"] = platform_gpus(workload)
    data: dict[str, Any] = {
        "totals": counted,
        "status": workload.status.status if workload.status else "Undefined",
        "matches": list(workload.status.matches) if workload.status else [],
        "instances": {
            name: {inst.id: inst.effective_replicas for inst in node.instances}
            for name, node in workload.components.items()
        },
        "gangs": {g.name: g.min_available for g in workload.gangs},
        "findings": sorted({d.rule for d in workload_diagnostics(workload)}),
    }
    if workload.pods:
        data["pods"] = {
            p.pod: (p.component or "") + (f"/{p.instance}" if p.instance else "") for p in workload.pods
        }
    return data


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Readable differences for the expectation keys given (findings always: absent means none)."""
    differences: list[str] = []
    wanted = dict(expected)
    wanted.setdefault("findings", [])
    for key in EXPECT_KEYS:
        if key not in wanted:
            continue
        _diff(key, wanted[key], actual.get(key), differences)
    for key in sorted(set(expected) - set(EXPECT_KEYS)):
        differences.append(f"{key}: unknown expectation (known: {', '.join(EXPECT_KEYS)})")
    return differences


def _diff(where: str, expected: Any, actual: Any, out: list[str]) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            if key not in actual:
                out.append(f"{where}.{key}: expected {expected[key]!r}, got nothing")
            else:
                _diff(f"{where}.{key}", expected[key], actual[key], out)
        for key in actual:
            if key not in expected and where not in ("totals", "instances"):  # these compare what is listed
                out.append(f"{where}.{key}: not expected, got {actual[key]!r}")
        return
    if isinstance(expected, list) and isinstance(actual, list) and where == "findings":
        expected, actual = sorted(map(str, expected)), sorted(map(str, actual))
    if (
        isinstance(expected, (int, float))
        and not isinstance(expected, bool)
        and isinstance(actual, (int, float))
    ):
        if expected == actual:
            return
    elif expected == actual or (isinstance(actual, str) and str(expected) == actual):
        return
    out.append(f"{where}: expected {expected!r}, got {actual!r}")


def read_bounded(path: Path, what: str) -> str:
    """The text of a suite or a recording (``what``), refused before it is parsed when it is over a
    manifest document's 1 MiB; SuiteError (one line) when it cannot be read or is too large."""
    try:
        text = read_path(str(path))
    except InputError as exc:
        raise SuiteError(str(exc)) from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DOCUMENT_BYTES:
        limit = MAX_DOCUMENT_BYTES // _MIB
        said = f"the {what} is {size / _MIB:.1f} MiB, over the {limit} MiB a {what} may be; not run"
        raise SuiteError(said)
    return text


def read_suite_document(path: Path) -> LoadedDocument:
    """The suite as a positioned document (for findings inside inline manifests) with its plain value."""
    # under a manifest document's limits (1 MiB, 30,000 values): 16 MB of keys took 13 s and 1.6 GB; the
    # limits are said as a suite's, not in the manifest wording of the budget's own findings
    text = read_bounded(path, "suite")
    budget = Budget()
    try:
        loaded = load_file(str(path), text=text, budget=budget)
    except InputError as exc:  # past the reader's own limits
        raise SuiteError(str(exc)) from None
    documents, problems = loaded.documents, loaded.problems
    if budget.exhausted:
        raise SuiteError(f"a suite is one YAML mapping with `definition` and `cases`, found more than "
                         f"{MAX_DOCUMENTS:,} documents")
    if budget.refused:  # neither the size nor the documents: a document of too many values
        raise SuiteError(f"the suite holds more than {MAX_DOCUMENT_NODES:,} values; not run")
    if problems:  # the line stays in the message: the text and JUnit reports show no span
        raise SuiteError(f"{problems[0].message} (line {problems[0].span.start_line})", problems[0].span)
    if len(documents) != 1 or not isinstance(documents[0].value, dict):
        extra = documents[1] if len(documents) > 1 else documents[0] if documents else None
        span = extra.document.root.span if extra is not None and extra.document.root is not None else None
        raise SuiteError("a suite is one YAML mapping with `definition` and `cases`", span)
    suite = documents[0].value
    if "definition" not in suite:
        raise SuiteError("the suite has no `definition`", key_span(documents[0], "definition"))
    if not isinstance(suite.get("cases"), list) or not suite["cases"]:
        raise SuiteError("`cases` must be a non-empty list", key_span(documents[0], "cases"))
    return documents[0]


def run_suite(
    path: Path,
    runtime: JqRuntime | None = None,
    *,
    crds: list[str] | tuple[str, ...] = (),
    validate: bool = True,
) -> SuiteResult:
    """Run every case of the suite at ``path``. With ``validate``, manifests are checked against their
    schemas (``crds`` first, then WMAPLINT_SCHEMA_PATH and the user cache; see wmaplint.resolve.validate)."""
    result = SuiteResult(path=str(path))
    try:
        loaded = read_suite_document(path)
    except SuiteError as exc:
        result.error, result.error_span = str(exc), exc.span
        return result
    suite = loaded.value
    # what is wrong with the definition is said at the suite's `definition` value, inline or a file's name
    at_definition = find_span(loaded.document, ("definition",))
    try:
        found = _definition(suite["definition"], loaded)
    except SuiteError as exc:
        result.error, result.error_span = str(exc), at_definition
        return result
    if found is None:
        result.error, result.error_span = "definition: no Karta or ResourceInterface document", at_definition
        return result
    store: Schemas | None = None
    if validate:
        from wmaplint.schema.store import shared_store

        store = shared_store(crds)
    for index, case in enumerate(suite["cases"]):
        outcome = _run_case(index, case, found, loaded, runtime, store)
        outcome.span = find_span(loaded.document, ("cases", index))
        result.cases.append(outcome)
    return result


def _definition(ref: object, suite: LoadedDocument) -> tuple[Definition, str] | None:
    """The suite's definition as the typed model, with the file it is written in: inline in the suite, or
    the first definition document of the file it names."""
    written = find_node(suite.document.root, ("definition",))
    path = suite.path
    if isinstance(ref, dict) and set(ref) != {"file"}:
        nodes = [written]
    elif isinstance(ref, list):
        nodes = list(written.items) if isinstance(written, SequenceNode) else []
    else:
        documents = _load_single(ref, Path(suite.path).parent, "definition")
        nodes = [d.document.root for d in documents]
        path = documents[0].path if documents else suite.path
    root = next((n for n in nodes if recognise(n) is not None), None)
    definition = build(root) if root is not None else None
    return (definition, path) if definition is not None else None


@dataclass
class _Manifest:
    path: str  # the file the manifest is written in (the suite itself for an inline one)
    root: Node | None  # its node in that file
    value: Any


def _manifests(ref: object, suite: LoadedDocument, index: int, what: str) -> list[_Manifest]:
    """The case's manifest documents with their positions: inline in the suite, or in a referenced file."""
    base = Path(suite.path).parent
    at = ("cases", index, "manifest")
    if isinstance(ref, dict) and set(ref) != {"file"}:
        return [_Manifest(suite.path, find_node(suite.document.root, at), ref)]
    if isinstance(ref, list):
        return [_Manifest(suite.path, find_node(suite.document.root, (*at, i)), v) for i, v in enumerate(ref)]
    return [_Manifest(_tidy(d.path), d.document.root, d.value) for d in _load_single(ref, base, what)]


def kind_misfit(definition: Definition, manifest: Json) -> str | None:
    """Why the definition does not describe the manifest (another group or kind), or None when it does; any
    version of the group and kind fits, as the runtime finds definitions."""
    from wmaplint.resolve.loading import definition_gvk, manifest_gvk, show_gvk

    described, given = definition_gvk(definition), manifest_gvk(manifest)
    if described is None or given is None or (described[0], described[2]) == (given[0], given[2]):
        return None
    return f"the manifest is {show_gvk(given)}, the definition describes {show_gvk(described)}"


def _tidy(path: str) -> str:
    """catalog/tests/../examples/x.yaml -> catalog/examples/x.yaml, for readable finding locations."""
    return os.path.normpath(path) if path != "-" else path


def _run_case(
    index: int,
    case: Any,
    found: tuple[Definition, str],
    suite: LoadedDocument,
    runtime: JqRuntime | None,
    store: Schemas | None = None,
) -> CaseResult:
    base = Path(suite.path).parent
    name = str(case.get("name", f"case {index + 1}")) if isinstance(case, dict) else f"case {index + 1}"
    if not isinstance(case, dict) or "manifest" not in case:
        return CaseResult(name, index, False, error="a case needs `manifest`")
    try:
        manifests = [
            m
            for m in _manifests(case["manifest"], suite, index, f"{name}: manifest")
            if isinstance(m.value, dict)
        ]
        pods = pods_from_documents(_value(case["pods"], base, f"{name}: pods")) if "pods" in case else []
        references = References()
        if "with" in case:
            origin = case["with"] if isinstance(case["with"], str) else "the suite"
            for value in _value(case["with"], base, f"{name}: with"):
                if not references.add(value, origin):
                    raise SuiteError(
                        f"{name}: with: only objects workloads name (a TrainJob's runtime) go here"
                    )
    except SuiteError as exc:
        return CaseResult(name, index, False, error=str(exc))
    if len(manifests) != 1:
        return CaseResult(
            name, index, False, error=f"manifest must hold one document, found {len(manifests)}"
        )
    manifest = manifests[0]
    definition, definition_path = found
    misfit = kind_misfit(definition, manifest.value)
    if misfit is not None:
        return CaseResult(name, index, False, error=f"{misfit} ({_tidy(definition_path)})")
    workload = resolve_workload(definition, manifest.value, path=definition_path, runtime=runtime,
                                references=references)
    if pods:
        attribute_pods(definition, workload, pods, runtime)
    actual = actual_results(workload)
    diagnostics: list[Diagnostic] = []
    notes: list[str] = []
    if store is not None:
        from wmaplint.resolve.validate import validate_node

        diagnostics, note = validate_node(manifest.value, manifest.root, manifest.path, store)
        diagnostics.sort(key=lambda d: d.sort_key())
        notes = [note] if note else []
        actual["findings"] = sorted({*actual["findings"], *(d.rule for d in diagnostics)})
    expected: dict[str, Any] = case["expect"] if isinstance(case.get("expect"), dict) else {}
    differences = compare(expected, actual)
    return CaseResult(name, index, not differences, differences, actual, diagnostics=diagnostics, notes=notes)
