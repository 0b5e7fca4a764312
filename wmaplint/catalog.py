"""The shipped catalog as data: one entry per definition file, found by kind, GVK or name.

Used by `wmaplint catalog`; the tree and test commands read the same files through
wmaplint.resolve.loading.DefinitionIndex.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field
from wmaplint.resolve.loading import catalog_dir, catalog_file, show_gvk
from wmaplint.source import InputError

if TYPE_CHECKING:
    from wmaplint.definition.model import Component

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


def _component(comp: Component) -> CatalogComponent:
    kind = comp.kind
    return CatalogComponent(
        name=comp.name or "",
        kind=show_gvk((kind.group, kind.version, kind.kind)) if kind is not None and kind.kind else "",
        owner=comp.owner_ref,
        pod_bearing=comp.spec_node is not None,
        multi_instance=comp.instance_id_path is not None,
    )


def read_entry(path: Path) -> CatalogEntry | None:
    """The catalog entry of one definition file, or None when it holds no definition with a root kind."""
    try:
        loaded, definitions = catalog_file(path)
    except (InputError, OSError):
        return None
    if not definitions:
        return None
    found = definitions[0]
    definition = found.definition
    root = definition.root
    mappings = root.status.mappings if root is not None and root.status is not None else {}
    gangs = [str(group.name) for group in definition.pod_groups]
    if definition.pod_group is not None and definition.pod_group.name is not None:
        gangs.append(definition.pod_group.name)
    return CatalogEntry(
        name=definition.name or path.stem,
        path=path,
        group=found.gvk[0],
        version=found.gvk[1],
        kind=found.gvk[2],
        summary=_summary(loaded.text),
        components=[_component(comp) for comp in definition.components],
        status_keys=[key for key in STATUS_ORDER if mappings.get(key)],
        suspend=root is not None and root.suspend_node is not None,
        gangs=gangs,
    )


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
