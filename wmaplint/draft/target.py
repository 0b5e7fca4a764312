"""The kind a draft is for and its schema: from a CRD file, or from a kind the schema store serves.

Every other source that serves the same kind is kept beside it (``others``): `check` reads a definition's
paths against each of them, so the draft uses only what all of them declare.
"""

from __future__ import annotations

import hashlib
import re

from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import BUNDLED_SCHEMAS
from wmaplint.schema.loader import GVK, format_gvk
from wmaplint.schema.names import gvk_name_problem
from wmaplint.schema.store import SchemaStore, shared_store
from wmaplint.schema.types import ANY_KIND, SchemaType
from wmaplint.source.reading import InputError, read_bytes


class DraftError(Exception):
    """Input a draft cannot be made from: one line for the user."""


@dataclass
class DraftTarget:
    """The kind a draft is written for: its schema type, where the schema came from, and the types of its
    other versions."""

    gvk: GVK
    type: SchemaType
    source: str  # as comments name it: the user's path, or the bundled source's lock path
    others: list[SchemaType] = field(default_factory=list)
    release: str | None = None  # the operator release the CRD says it ships with, when it says

    @property
    def label(self) -> str:
        return format_gvk(self.gvk)


def parse_kind(text: str) -> tuple[str | None, str | None, str]:
    """``Kind``, ``Kind.group``, ``group/version/Kind`` or ``version/Kind`` as (group, version, kind)."""
    parts = text.split("/")
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return "", parts[0], parts[1]
    kind, _, group = text.partition(".")
    return (group or None), None, kind


def _choose(gvks: list[GVK], kind: str | None, version: str | None, where: str) -> GVK:
    if kind is not None:
        group, kind_version, name = parse_kind(kind)
        matches = [g for g in gvks if g[2] == name and (group is None or g[0] == group)
                   and (kind_version is None or g[1] == kind_version)]
        if not matches:
            matches = [g for g in gvks if g[2].lower() == name.lower() and (group is None or g[0] == group)]
        if not matches:
            raise DraftError(f"{where} serves no kind {kind!r}")
    else:
        matches = list(gvks)
    kinds = sorted({(g[0], g[2]) for g in matches})
    if len(kinds) > 1:
        named = ", ".join(f"{k}.{g}" if g else k for g, k in kinds)
        raise DraftError(f"{where} serves several kinds ({named}): pick one with --kind")
    versions = sorted({g[1] for g in matches})
    if version is not None:
        if version not in versions:
            raise DraftError(f"{where} does not serve version {version!r} of {kinds[0][1]} (it serves "
                             f"{', '.join(versions)})")
        versions = [version]
    if len(versions) > 1:
        raise DraftError(f"{where} serves {kinds[0][1]} in versions {', '.join(versions)}: pick one with "
                         "--version")
    chosen = next(g for g in matches if g[1] == versions[0])
    problem = gvk_name_problem(*chosen)  # the draft's name, and the file it may be written to, come from it
    if problem is not None:
        raise DraftError(f"{where}: {problem}")
    return chosen


def _usable(t: SchemaType | None, gvk: GVK, where: str) -> SchemaType:
    if t is None or t.kind == ANY_KIND:
        raise DraftError(f"{where}: {format_gvk(gvk)} has no schema to draft from")
    return t


def from_crd_file(path: str, kind: str | None = None, version: str | None = None) -> DraftTarget:
    """The kind of a CRD file (``kind``/``version`` pick one when it serves several)."""
    try:
        data = read_bytes(path)
    except InputError as exc:
        raise DraftError(str(exc)) from None
    # the bundle only lends its pre-parsed form of a file it ships; the kinds are the file's own
    store = SchemaStore([path])
    gvks = sorted({row[0] for row in store.rows() if row[3] != BUNDLED_SCHEMAS})
    if not gvks:
        problems = [str(e.message) for e in store.errors]
        if any("no CustomResourceDefinition" in p for p in problems) or not problems:
            raise DraftError(f"{path}: not a CustomResourceDefinition (or an OpenAPI document of kinds)")
        raise DraftError(f"{path}: {problems[0]}")
    gvk = _choose(gvks, kind, version, path)
    found = store.lookup(*gvk)
    target = DraftTarget(gvk, _usable(found[0].type if found else None, gvk, path), path)
    digest = hashlib.sha256(data).hexdigest()
    # the sources `check` reads the draft against when the user gives no --crds
    target.others = [s.type for s in shared_store().lookup(*gvk) if s.sha256 != digest]
    target.release = crd_release(data)
    return target


_SPEC = re.compile(rb"^spec:", re.M)


def crd_release(data: bytes) -> str | None:
    """The release a CRD says it ships with: its label ``app.kubernetes.io/version`` (set by the releases of
    operators that label their CRDs, such as Knative's), when it is a version. Only the metadata before the
    first ``spec:`` is read: a CRD's schema is most of its text."""
    import yaml

    from wmaplint.controllers.releases import release_key

    head = _SPEC.split(data, 1)[0][:65536]
    try:
        document = next(iter(yaml.safe_load_all(head)), None)
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return None
    metadata = document.get("metadata") if isinstance(document, dict) else None
    labels = metadata.get("labels") if isinstance(metadata, dict) else None
    version = labels.get("app.kubernetes.io/version") if isinstance(labels, dict) else None
    return version if isinstance(version, str) and release_key(version) is not None else None


def from_store(kind: str, version: str | None = None, crds: tuple[str, ...] = ()) -> DraftTarget:
    """A kind the schema store serves (``crds`` first, then the environment, the user cache, the bundle)."""
    store = shared_store(crds)
    gvk = _choose(store.gvks(), kind, version, "the schema store (see `wmaplint schemas list`)")
    found = store.lookup(*gvk)
    if not found:
        raise DraftError(f"no schema source serves {format_gvk(gvk)}")
    first = found[0]
    source = first.source if first.base is None else first.label
    return DraftTarget(gvk, _usable(first.type, gvk, source), source, [s.type for s in found[1:]])
