"""The shipped catalog as data: one entry per definition file, found by kind, GVK or name.

Used by `wmaplint catalog`; the tree and test commands read the same files through
wmaplint.resolve.loading.DefinitionIndex.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wmaplint.resolve.loading import catalog_dir, definition_gvk, is_definition, load_file, show_gvk
from wmaplint.resolve.tree import component_entries, get
from wmaplint.source import InputError
from wmaplint.structs import dataclass, field

# the runtime's evaluation order of the status mapping keys (FORMAT.md §2.5)
STATUS_ORDER = (
    "resuming", "suspending", "suspended", "running", "failed", "completed", "initializing", "degraded"
)


@dataclass(frozen=True)
class CatalogComponent:
    name: str
    kind: str  # "group/version Kind", or "" for a logical component
    owner: str | None
    pod_bearing: bool
    multi_instance: bool


@dataclass
class CatalogEntry:
    name: str
    path: Path
    group: str
    version: str
    kind: str
    summary: str
    components: list[CatalogComponent] = field(default_factory=list)
    status_keys: list[str] = field(default_factory=list)
    suspend: bool = False
    gangs: list[str] = field(default_factory=list)

    @property
    def gvk(self) -> str:
        return show_gvk((self.group, self.version, self.kind))

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "file": self.path.name,
            "group": self.group,
            "version": self.version,
            "kind": self.kind,
            "summary": self.summary,
            "components": [
                {
                    "name": c.name,
                    "kind": c.kind or None,
                    "owner": c.owner,
                    "podBearing": c.pod_bearing,
                    "multiInstance": c.multi_instance,
                }
                for c in self.components
            ],
            "statusKeys": self.status_keys,
            "suspend": self.suspend,
            "gangs": self.gangs,
        }


def _summary(text: str) -> str:
    """The first sentence of the file's leading comment."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    words = " ".join(lines)
    end = words.find(". ")
    return words[: end + 1] if end >= 0 else words


def _component(comp: dict[str, Any]) -> CatalogComponent:
    kind = comp.get("kind")
    shown = ""
    if isinstance(kind, dict) and isinstance(kind.get("kind"), str):
        group, version = kind.get("group") or "", kind.get("version") or ""
        shown = show_gvk((str(group), str(version), kind["kind"]))
    owner = comp.get("ownerRef")
    return CatalogComponent(
        name=str(comp.get("name", "")),
        kind=shown,
        owner=owner if isinstance(owner, str) else None,
        pod_bearing=isinstance(comp.get("specDefinition"), dict),
        multi_instance=bool(comp.get("instanceIdPath")),
    )


def read_entry(path: Path) -> CatalogEntry | None:
    """The catalog entry of one definition file, or None when it holds no definition with a root kind."""
    try:
        documents, _ = load_file(str(path))
    except InputError:
        return None
    for loaded in documents:
        gvk = definition_gvk(loaded.value) if is_definition(loaded.value) else None
        if gvk is None:
            continue
        definition = loaded.value
        entries = component_entries(definition)
        root = entries[0][1] if entries else {}
        mappings = get(root, "statusDefinition", "statusMappings")
        mappings = mappings if isinstance(mappings, dict) else {}
        gang = get(definition, "spec", "optimizationInstructions", "gangScheduling")
        groups = get(gang, "podGroups") if isinstance(get(gang, "podGroups"), list) else []
        gangs = [str(g.get("name")) for g in groups if isinstance(g, dict)]
        if isinstance(get(gang, "podGroup", "name"), str):
            gangs.append(get(gang, "podGroup", "name"))
        return CatalogEntry(
            name=str(get(definition, "metadata", "name") or path.stem),
            path=path,
            group=gvk[0],
            version=gvk[1],
            kind=gvk[2],
            summary=_summary(loaded.file.source.text),
            components=[_component(comp) for _, comp, _ in entries],
            status_keys=[key for key in STATUS_ORDER if mappings.get(key)],
            suspend=isinstance(root.get("suspendDefinition"), dict),
            gangs=gangs,
        )
    return None


def list_catalog(directory: Path | None = None) -> list[CatalogEntry]:
    """Every definition of the shipped catalog, ordered by group, kind and version."""
    directory = directory or catalog_dir()
    entries = [e for e in (read_entry(p) for p in sorted(directory.glob("*.yaml"))) if e is not None]
    return sorted(entries, key=lambda e: (e.group, e.kind.lower(), e.version))


def find_entries(query: str, entries: list[CatalogEntry]) -> list[CatalogEntry]:
    """Entries a user means by ``query``: a definition or file name, ``group/version/Kind``, ``version/Kind``
    (core), ``Kind.group``, or a kind name alone (case-insensitive; several versions may match)."""
    wanted = query.strip().removesuffix(".yaml").lower()
    exact = [
        e
        for e in entries
        if wanted
        in {
            e.name.lower(),
            f"{e.group}/{e.version}/{e.kind}".lower().lstrip("/"),
            f"{e.kind}.{e.group}".lower().rstrip("."),
        }
    ]
    if exact:
        return exact
    return [e for e in entries if wanted in (e.kind.lower(), f"{e.kind}.{e.group}/{e.version}".lower())]


def markdown_table(entries: list[CatalogEntry]) -> str:
    """The catalog as a Markdown table (README.md shows it): pod-bearing components in bold."""
    lines = [
        "| Kind | API version | Definition | Components (pod-bearing in bold) | Status keys |",
        "|---|---|---|---|---|",
    ]
    for e in entries:
        components = ", ".join(f"**{c.name}**" if c.pod_bearing else c.name for c in e.components)
        api_version = f"{e.group}/{e.version}" if e.group else e.version
        lines.append(
            f"| {e.kind} | `{api_version}` | [`{e.name}`](catalog/{e.path.name}) | {components} "
            f"| {', '.join(e.status_keys)} |"
        )
    return "\n".join(lines) + "\n"
