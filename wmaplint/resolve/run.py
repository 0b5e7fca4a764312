"""Resolve manifest files with definitions: the shared engine of `wmaplint tree` and `wmaplint test`."""

from __future__ import annotations

from typing import Any

from wmaplint.diagnostics import RULES, Diagnostic, RelatedLocation, Severity, Span
from wmaplint.resolve import rules
from wmaplint.resolve.jqrun import JqRuntime, default_runtime
from wmaplint.resolve.loading import (
    Budget,
    DefinitionEntry,
    DefinitionIndex,
    LoadedDocument,
    is_definition,
    load_file,
    manifest_gvk,
    show_gvk,
)
from wmaplint.resolve.model import Finding, Workload
from wmaplint.resolve.pods import attribute_pods, pods_from_documents
from wmaplint.resolve.references import References, is_built_in_non_workload, is_referenced_object
from wmaplint.resolve.tree import resolve_workload
from wmaplint.source import find_span
from wmaplint.source.nodes import no_cyclic_gc
from wmaplint.structs import dataclass, field


@dataclass
class TreeRun:
    workloads: list[Workload] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    manifests: int = 0

    @property
    def has_errors(self) -> bool:
        return any(d.severity >= Severity.ERROR for d in self.diagnostics)


def _span(loaded: LoadedDocument, pointer: tuple[str | int, ...]) -> Span:
    while True:
        span = find_span(loaded.document, pointer)
        if span is not None or not pointer:
            return span or Span.whole_file()
        pointer = pointer[:-1]


def finding_diagnostic(
    finding: Finding, definition: LoadedDocument, manifest: LoadedDocument | None
) -> Diagnostic:
    rule = RULES.get(finding.rule)
    related: tuple[RelatedLocation, ...] = ()
    if manifest is not None:
        related = (
            RelatedLocation(manifest.path, _span(manifest, finding.manifest_path), "manifest evaluated"),
        )
    return Diagnostic(
        rule=finding.rule,
        severity=rule.severity if rule else Severity.ERROR,
        message=finding.message,
        path=definition.path,
        span=_span(definition, finding.definition_path),
        related=related,
    )


def _manifest_diag(
    rule_id: str, message: str, manifest: LoadedDocument, related: tuple[RelatedLocation, ...] = ()
) -> Diagnostic:
    return Diagnostic(
        rule=rule_id,
        severity=RULES[rule_id].severity,
        message=message,
        path=manifest.path,
        span=_span(manifest, ("kind",)),
        related=related,
    )


def resolve_documents(
    manifests: list[LoadedDocument],
    index: DefinitionIndex,
    pods: list[Any],
    runtime: JqRuntime | None = None,
    references: References | None = None,
) -> TreeRun:
    runtime = runtime or default_runtime()
    run = TreeRun(diagnostics=list(index.problems))
    chosen: list[tuple[Workload, DefinitionEntry, LoadedDocument]] = []
    for manifest in manifests:
        gvk = manifest_gvk(manifest.value)
        if gvk is None:
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
            message = f"no definition for {show_gvk(gvk)}; pass one with --definition FILE"
            run.diagnostics.append(_manifest_diag(rules.NO_DEFINITION, message, manifest))
            run.notes.append(f"{manifest.path}: {message}")
            continue
        if len(candidates) > 1:
            related = tuple(
                RelatedLocation(c.loaded.path, _span(c.loaded, ()), f"definition {c.name}")
                for c in candidates
            )
            run.diagnostics.append(
                _manifest_diag(
                    rules.AMBIGUOUS_DEFINITION,
                    f"{len(candidates)} definitions describe {show_gvk(gvk)} "
                    f"({', '.join(c.name for c in candidates)}); "
                    "keep one",
                    manifest,
                    related,
                )
            )
            continue
        entry = candidates[0]
        workload = resolve_workload(
            entry.loaded.value, manifest.value, runtime=runtime, references=references
        )
        chosen.append((workload, entry, manifest))
    if pods and chosen:
        # each pod goes to the first workload whose definition claims it
        remaining = list(pods)
        for position, (workload, entry, _) in enumerate(chosen):
            last = position == len(chosen) - 1
            attributions = attribute_pods(entry.loaded.value, workload, remaining, runtime)
            if not last:
                kept = [a for a in attributions if a.component is not None]
                workload.pods = kept
                remaining = [
                    pod for pod, a in zip(remaining, attributions, strict=True) if a.component is None
                ]
                workload.findings = [f for f in workload.findings if f.rule != rules.POD_UNATTRIBUTED]
    for workload, entry, manifest in chosen:
        run.workloads.append(workload)
        run.diagnostics.extend(finding_diagnostic(f, entry.loaded, manifest) for f in workload.findings)
    return run


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
) -> TreeRun:
    """Resolve every manifest document in the files. Definitions and Pods found among the manifests are
    used as if passed with --definition / --pods. Raises wmaplint.source.InputError for unreadable files.
    With ``validate``, manifests are also checked against their schemas (``crds`` first, then the default
    sources); see wmaplint.resolve.validate."""
    index = DefinitionIndex()
    problems: list[Diagnostic] = []
    for path in definition_paths:
        documents, found = load_file(path)
        problems.extend(found)
        if not index.add(documents):
            problems.append(
                Diagnostic(
                    rules.INVALID_DEFINITION_INPUT,
                    Severity.ERROR,
                    f"{path}: no Karta or ResourceInterface document with a root kind",
                    path,
                    Span.whole_file(),
                )
            )
    manifests: list[LoadedDocument] = []
    pods: list[Any] = []
    # objects workloads name (a TrainJob's runtime): from --with files, and found among the manifests
    references = References()
    referenced: list[LoadedDocument] = []
    budget = Budget()
    for path in with_paths:
        documents, found = load_file(path, budget=budget)
        problems.extend(found)
        referenced.extend(d for d in documents if references.add(d.value, d.path))
    for path in manifest_paths:
        documents, found = load_file(path, stdin_text if path == "-" else None, budget)
        problems.extend(found)
        index.add(documents)
        pods.extend(pods_from_documents([d.value for d in documents]))
        referenced.extend(d for d in documents if references.add(d.value, d.path))
        manifests.extend(
            d
            for d in documents
            if not is_definition(d.value)
            and not is_referenced_object(d.value)
            and not (isinstance(d.value, dict) and (d.value.get("kind") in ("Pod", "PodList")))
        )
    if pods_path is not None:
        documents, found = load_file(pods_path, budget=Budget())
        problems.extend(found)
        pods.extend(pods_from_documents([d.value for d in documents]))
    if use_catalog:
        index.add_catalog()
    # Resolution allocates many small acyclic objects per document; the cyclic collector would rescan every
    # loaded manifest each time (a third of the time of a 5,000-document stream). Reference counting frees.
    with no_cyclic_gc():
        run = resolve_documents(manifests, index, pods, runtime, references)
    run.diagnostics[:0] = problems
    if referenced and not manifests:
        run.notes.extend(
            f"{d.path}: {d.value.get('kind')} {(d.value.get('metadata') or {}).get('name')} is not a "
            "workload: give it with --with beside the workloads that name it"
            for d in referenced
        )
    if any(d.rule == rules.INPUT_LIMIT for d in problems):
        run.notes.append(f"manifests over the resolution limits were left out ({rules.INPUT_LIMIT})")
    if validate:
        from wmaplint.resolve.validate import validate_loaded

        checked = validate_loaded(manifests + referenced, crds)
        run.diagnostics.extend(checked.diagnostics)
        run.notes.extend(checked.notes)
    return run
