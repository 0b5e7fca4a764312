"""The schemas a definition's paths run on: the workload's kind from each distinct schema source serving it
(two releases of an operator are both checked), the Pod for pod-context paths, and Kubernetes' ObjectMeta as
every object's `metadata`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from wmaplint.structs import dataclass

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition
    from wmaplint.schema.types import SchemaType

POD = ("", "v1", "Pod")


@dataclass(frozen=True, slots=True, eq=False)
class DefinitionSchemas:
    """The schemas a definition's paths are checked against: ``roots``, its root kind from every distinct
    source serving it; ``pods``, the store's Pod schemas (paths are typed against the first); and
    ``object_meta``, Kubernetes' ObjectMeta from them (None without core schemas)."""

    roots: tuple[Any, ...]
    pods: tuple[Any, ...]
    object_meta: SchemaType | None

    def of_context(self, context: str) -> tuple[Any, ...]:
        """The schemas the paths evaluated in ``context`` ("root" or "pod") are typed against."""
        return self.roots if context == "root" else self.pods[:1]


def schemas_of(store: Any, definition: Definition) -> DefinitionSchemas | None:
    """The schemas of ``definition`` in ``store``; None when it names no root kind (nothing is checked)."""
    from wmaplint.jq.typing import object_meta_from

    root = definition.root
    if root is None or root.kind is None or not root.kind.kind:
        return None
    gvk = root.kind
    pods = tuple(store.lookup(*POD))
    return DefinitionSchemas(tuple(distinct(store.lookup(gvk.group, gvk.version, gvk.kind))), pods,
                             object_meta_from(pods))


def distinct(schemas: Iterable[Any]) -> list[Any]:
    """One schema per distinct file content: the same CRD in --crds and in the user cache is one release."""
    seen: set[str] = set()
    out = []
    for schema in schemas:
        if schema.sha256 not in seen:
            seen.add(schema.sha256)
            out.append(schema)
    return out
