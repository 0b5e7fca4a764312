"""Resolve manifest files with definitions: the shared engine of `wmaplint tree` and `wmaplint test`.

What resolving finds is recorded as findings (``wmaplint.resolve.findings``); a run words them as the rules
that report them registered (``wmaplint.findings.diagnostics_of``) and returns the diagnostics with the
workloads.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from wmaplint.childproc import Apart, idle_cpus
from wmaplint.dataclass import dataclass, field, replace
from wmaplint.diagnostics import Diagnostic, RelatedLocation, Severity, Span
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.jq.runtime import JqRuntime, default_runtime
from wmaplint.resolve.findings import (
    AmbiguousDefinition,
    NoDefinition,
    NoDefinitionInFile,
)
from wmaplint.resolve.kai import hub_choice
from wmaplint.resolve.loading import (
    Budget,
    DefinitionEntry,
    DefinitionIndex,
    LoadedDocument,
    definitions_of,
    is_definition,
    load_file,
    manifest_gvk,
    show_gvk,
)
from wmaplint.resolve.model import Workload
from wmaplint.resolve.pods import controller_owned, owner_objects, pods_from_documents
from wmaplint.resolve.references import References, is_built_in_non_workload, is_referenced_object
from wmaplint.resolve.shipped import is_shipped, on_manifest
from wmaplint.resolve.tree import resolve_workload
from wmaplint.source import InputError, MappingNode, SequenceNode, anchor_node
from wmaplint.source.nodes import no_cyclic_gc

if TYPE_CHECKING:
    from wmaplint.controllers import Model
    from wmaplint.resolve.validate import ManifestValidation

VERIFIED_MANIFESTS = 8  # per definition: the selectors run on the synthesized pods of this many manifests


@dataclass
class TreeRun:
    workloads: list[Workload] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    manifests: int = 0
    unresolved: int = 0  # documents that are no object, or of a kind no definition describes

    @property
    def has_errors(self) -> bool:
        return any(d.severity >= Severity.ERROR for d in self.diagnostics)


def diagnostics(findings: Iterable[FileFinding]) -> list[Diagnostic]:
    """Findings as the diagnostics of the rules that report them."""
    return list(diagnostics_of(findings))


def workload_diagnostics(workload: Workload, manifest: LoadedDocument | None = None) -> list[Diagnostic]:
    """What resolving ``workload`` found, as diagnostics; each relates the manifest it was evaluated on. What
    a shipped definition's file would hold is placed on the manifest (``wmaplint.resolve.shipped``)."""
    if manifest is not None and is_shipped(workload.definition_path):
        found = list(on_manifest(workload.findings, workload, manifest))
    else:
        found = diagnostics(workload.findings)
    if manifest is not None and manifest.document.root is not None:
        evaluated = RelatedLocation(manifest.path, manifest.document.root.span, "manifest evaluated")
        for diagnostic in found:
            diagnostic.related = (*diagnostic.related, evaluated)
    return found


def _at_kind(manifest: LoadedDocument) -> Span:
    """Where a finding about a manifest's kind stands: its kind value, else the document."""
    root = manifest.document.root
    kind = root.get("kind") if isinstance(root, MappingNode) else None
    node = kind if kind is not None else root
    return node.span if node is not None else Span.whole_file()


def resolve_documents(
    manifests: list[LoadedDocument],
    index: DefinitionIndex,
    pods: list[Any],
    runtime: JqRuntime | None = None,
    references: References | None = None,
    owners: list[Any] | None = None,
    listing: bool = False,
    model: Model | None = None,
) -> TreeRun:
    """Resolve the manifests; with ``pods`` (what `kubectl get pods` lists), compare each workload with its
    pods, following their ownerReferences through ``owners`` (the other objects listed beside them).
    ``listing``: a pod list was given, so an empty one is compared too (every predicted pod is missing).
    ``model``: the controller model (that of the project configured in the working directory when None)."""
    from wmaplint.controllers.project import model_near

    runtime = runtime or default_runtime()
    model = model if model is not None else model_near()
    run = TreeRun(diagnostics=list(index.problems))
    findings: list[FileFinding] = []
    chosen: list[tuple[Workload, DefinitionEntry, LoadedDocument]] = []
    verified: dict[int, int] = {}
    for manifest in manifests:
        gvk = manifest_gvk(manifest.value)
        if gvk is None:
            run.unresolved += 1  # not an object at all: bad input, not an input without a workload
            run.notes.append(
                f"{manifest.path}: document {manifest.document.index + 1} has no apiVersion/kind; skipped"
            )
            continue
        run.manifests += 1
        candidates = index.lookup(gvk)
        if not candidates and is_built_in_non_workload(manifest.value):
            run.notes.append(f"{manifest.path}: {show_gvk(gvk)} runs no pods; passed by")
            continue
        if not candidates:
            run.unresolved += 1
            findings.append(NoDefinition(manifest.path, _at_kind(manifest), show_gvk(gvk)))
            run.notes.append(f"{manifest.path}: no definition for {show_gvk(gvk)}")
            continue
        if len(candidates) > 1:
            related = tuple(
                RelatedLocation(c.loaded.path, c.definition.document_node.span, f"definition {c.name}")
                for c in candidates
            )
            names = tuple(c.name for c in candidates)
            where = _at_kind(manifest)
            exact = [(c.name, c.definition) for c in candidates if c.gvk == gvk]
            kai = hub_choice(exact) if exact else ""
            findings.append(AmbiguousDefinition(manifest.path, where, show_gvk(gvk), names, related, kai))
            continue
        entry = candidates[0]
        # the selectors are verified on the first manifests of each definition: what they get wrong is the
        # definition's, and a stream of thousands of manifests need not pay for it thousands of times
        verified[id(entry.definition)] = verified.get(id(entry.definition), 0) + 1
        workload = resolve_workload(entry.definition, manifest.value, path=entry.loaded.path, runtime=runtime,
                                    references=references,
                                    with_verify=verified[id(entry.definition)] <= VERIFIED_MANIFESTS,
                                    with_grouping=not (pods or listing), model=model)
        chosen.append((workload, entry, manifest))
    if (pods or listing) and chosen:
        # each pod goes to the workload it is found to belong to; one nothing ties to a workload goes to the
        # first whose selectors claim it (wmaplint.resolve.compare)
        from wmaplint.resolve.compare import Owners, compare_pods, pods_of
        from wmaplint.resolve.gang import group_listed

        known = Owners(list(owners or ()) + [m.value for m in manifests])
        definite = [pods_of(workload, manifest.value, pods, known) for workload, _, manifest in chosen]
        taken: set[int] = set()
        for position, (workload, entry, manifest) in enumerate(chosen):
            others = set().union(*(d for i, d in enumerate(definite) if i != position))
            took = compare_pods(entry.definition, workload, manifest.value, pods, known, runtime,
                                taken | (others - definite[position]))
            taken.update(id(pod) for pod in took)
            # KAI groups the pods it is given, with their real labels and owner (wmaplint.resolve.gang)
            group_listed(entry.definition, workload, manifest.value, took, runtime)
    run.diagnostics.extend(diagnostics(findings))
    for workload, _, manifest in chosen:
        run.workloads.append(workload)
        workload.diagnostics = workload_diagnostics(workload, manifest)
        run.diagnostics.extend(workload.diagnostics)
    return run


def _is_pod_list(value: object) -> bool:
    return isinstance(value, dict) and value.get("kind") in ("Pod", "PodList")


def split_pods(documents: list[LoadedDocument]) -> tuple[list[LoadedDocument], list[Any]]:
    """The workload manifests among ``documents`` and the pods to attribute to them. A Pod that no controller
    owns (alone or an item of a PodList) is a workload of the Pod definition, as the runtime lists it; a Pod
    a controller owns is a pod of the workload that claims it. Definitions and the objects workloads name
    are neither."""
    workloads: list[LoadedDocument] = []
    owned: list[Any] = []
    for loaded in documents:
        value = loaded.value
        if is_definition(value) or is_referenced_object(value):
            continue
        if not _is_pod_list(value):
            workloads.append(loaded)
            continue
        for pod, node in _pods_with_nodes(loaded):
            if controller_owned(pod):
                owned.append(pod)
            else:
                root = node if node is not None else loaded.document.root
                workloads.append(replace(loaded, document=replace(loaded.document, root=root), value=pod))
    return workloads, owned


def _pods_with_nodes(loaded: LoadedDocument) -> list[tuple[Any, Any]]:
    """The Pods of a Pod or PodList document, each with its node in the file (for positions)."""
    if loaded.value.get("kind") == "Pod":
        return [(loaded.value, loaded.document.root)]
    items = loaded.document.root.get("items") if isinstance(loaded.document.root, MappingNode) else None
    nodes = items.items if isinstance(items, SequenceNode) else []
    return [
        (pod, node)
        for pod, node in zip(pods_from_documents([loaded.value]), nodes, strict=False)
    ]


def _fits(entries: list[DefinitionEntry], manifests: list[LoadedDocument]) -> bool:
    kinds = {(gvk[0], gvk[2]) for gvk in (manifest_gvk(m.value) for m in manifests) if gvk is not None}
    return any((e.gvk[0], e.gvk[2]) in kinds for e in entries)


def _misfit(path: str, entries: list[DefinitionEntry], manifests: list[LoadedDocument]) -> str:
    described = ", ".join(sorted({f"{e.gvk[0]} {e.gvk[2]}".strip() for e in entries}))
    kinds = sorted({show_gvk(gvk) for gvk in (manifest_gvk(m.value) for m in manifests) if gvk is not None})
    return (
        f"--definition {path} describes {described}, which no manifest is (the manifests are "
        f"{', '.join(kinds)})"
    )


class DefinitionMisfit(InputError):
    """A definition given for the run whose kind no manifest has: it would silently go unused while the
    manifests resolve with other definitions."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.args = (message,)

    def __str__(self) -> str:
        return self.reason


def _without_root_kind(documents: list[LoadedDocument]) -> Span:
    """Where a definition file without a usable definition is wrong: in its first definition document, the
    root component's kind as far as it is written (the root component, else the nearest field above it);
    else the kind of its first document (a manifest given as the definition); the start of the file when it
    holds no document."""
    definition = next((d for d in documents if is_definition(d.value)), None)
    if definition is not None:
        root_kind = ("spec", "structureDefinition", "rootComponent", "kind", "kind")
        node = anchor_node(definition.document.root, root_kind)
    elif documents:
        node = anchor_node(documents[0].document.root, ("kind",), at_key=False)
    else:
        node = None
    return node.span if node is not None else Span.whole_file()


def resolve_files(
    manifest_paths: list[str],
    definition_paths: list[str] | tuple[str, ...] = (),
    pods_path: str | None = None,
    *,
    with_paths: list[str] | tuple[str, ...] = (),
    use_catalog: bool = True,
    runtime: JqRuntime | None = None,
    stdin_text: str | None = None,
    crds: list[str] | tuple[str, ...] = (),
    validate: bool = True,
    definitions_must_fit: bool = False,
    model: Model | None = None,
    jobs: int = 1,
) -> TreeRun:
    """Resolve every manifest document in the files. Definitions and Pods found among the manifests are
    used as if passed with --definition / --pods. Raises wmaplint.source.InputError for unreadable files.
    With ``validate``, manifests are also checked against their schemas (``crds`` first, then the default
    sources); see wmaplint.resolve.validate. Directories are expanded by the caller
    (``selection.manifest_files``). With ``definitions_must_fit``, a definition file whose group and kind no
    manifest has raises DefinitionMisfit. ``model``: the controller model, that of the project configured in
    the working directory when None (``wmaplint.controllers.project.model_near``). ``jobs``: the processes
    it may use (0: as many as pay, from the idle CPUs and the documents); the output is the same."""
    index = DefinitionIndex()
    problems: list[Diagnostic] = []

    def load(path: str, text: str | None = None, budget: Budget | None = None) -> list[LoadedDocument]:
        loaded = load_file(path, text, budget)
        problems.extend(loaded.problems)
        return loaded.documents

    empty: list[FileFinding] = []
    given: list[tuple[str, list[DefinitionEntry]]] = []
    for path in definition_paths:
        documents = load(path)
        entries = definitions_of(documents)
        if not index.add_entries(entries):
            empty.append(NoDefinitionInFile(path, _without_root_kind(documents)))
        given.append((path, entries))
    problems.extend(diagnostics(empty))
    manifests: list[LoadedDocument] = []
    pods: list[Any] = []
    owners: list[Any] = []
    # objects workloads name (a TrainJob's runtime): from --with files, and found among the manifests
    references = References()
    referenced: list[LoadedDocument] = []
    budget = Budget()
    for path in with_paths:
        referenced.extend(d for d in load(path, budget=budget) if references.add(d.value, d.path))
    for path in manifest_paths:
        documents = load(path, stdin_text if path == "-" else None, budget)
        index.add(documents)
        workloads, owned = split_pods(documents)
        pods.extend(owned)
        referenced.extend(d for d in documents if references.add(d.value, d.path))
        manifests.extend(workloads)
    workload_manifests = [m for m in manifests if not is_built_in_non_workload(m.value)]
    if definitions_must_fit and workload_manifests:
        for path, entries in given:
            if entries and not _fits(entries, workload_manifests):
                raise DefinitionMisfit(path, _misfit(path, entries, workload_manifests))
    if pods_path is not None:
        listed = [d.value for d in load(pods_path, budget=Budget())]
        pods.extend(pods_from_documents(listed))
        owners.extend(owner_objects(listed))
    if use_catalog:
        index.add_catalog()
    # Validation reads only the documents, so it runs beside resolution, on another CPU where one is idle
    checking = _validation(manifests + referenced, crds, jobs) if validate else None
    try:
        # Resolution allocates many small acyclic objects per document; the cyclic collector would rescan
        # every loaded manifest each time (a third of the time of a 5,000-document stream). Reference
        # counting frees.
        with no_cyclic_gc():
            run = resolve_documents(manifests, index, pods, runtime, references, owners,
                                    listing=pods_path is not None, model=model)
    except BaseException:
        if checking is not None:
            checking.cancel()
        raise
    run.diagnostics[:0] = problems
    if referenced and not manifests:
        run.notes.extend(
            f"{d.path}: {d.value.get('kind')} {(d.value.get('metadata') or {}).get('name')} is not a "
            "workload: give it with --with beside the workloads that name it"
            for d in referenced
        )
    if budget.refused:
        run.notes.append("manifests over the resolution limits were left out")
    if checking is not None:
        checked = checking.result()
        run.diagnostics.extend(checked.diagnostics)
        run.notes.extend(checked.notes)
    return run


# Below this many documents a child saves nothing measurable (tree, medians of 9 paired runs: one document
# 109 ms in one process, 106 with a child; four 116 and 113; eight 141 and 129).
MIN_DOCUMENTS_APART = 4


def _validation(documents: list[LoadedDocument], crds: list[str] | tuple[str, ...], jobs: int
                ) -> Apart[ManifestValidation]:
    """The schema validation of ``documents`` (wmaplint.resolve.validate), in a forked child where ``jobs``
    allows a second process (0: where a CPU is idle and the documents are enough to pay for it)."""
    from wmaplint.resolve.validate import validate_loaded
    from wmaplint.schema.store import shared_store

    apart = jobs > 1 or jobs == 0 and len(documents) >= MIN_DOCUMENTS_APART and idle_cpus() > 1
    return Apart(lambda: validate_loaded(documents, shared_store(crds)), fork=apart)
