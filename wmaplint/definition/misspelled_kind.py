"""A definition's kind written in another case (``kind: karta``): not a definition to Kubernetes, nor to
wmaplint, which would otherwise pass the file by without a word.

Kinds are case-sensitive: a REST mapper finds a kind by its exact GroupVersionKind
(kubernetes/kubernetes@0383802 staging/src/k8s.io/apimachinery/pkg/api/meta/restmapper.go, RESTMappings:
``m.kindToPluralResource[currGVK]``), so kubectl answers ``no matches for kind "karta"`` and the object is
never stored. The document counts when
its apiVersion is a definition's group, or it has none: another tool's ``kind: karta`` is not ours.
"""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.definition.model import DEFINITION_KINDS
from wmaplint.findings import FileFinding
from wmaplint.source.nodes import MappingNode, Node, ScalarNode

_FOLDED = {kind.lower(): kind for kind in DEFINITION_KINDS}
_GROUPS = {api_version.rpartition("/")[0] for api_version in DEFINITION_KINDS.values()}


@dataclass(frozen=True, slots=True, eq=False)
class KindCase(FileFinding):
    """The document's ``kind`` is ``written``, the definition kind ``kind`` in another case."""

    written: str
    kind: str


def kind_case(root: Node | None, path: str) -> KindCase | None:
    """The finding for a document whose kind is a definition kind in another case, else None."""
    if not isinstance(root, MappingNode):
        return None
    kind = root.get("kind")
    if not isinstance(kind, ScalarNode) or not isinstance(kind.value, str):
        return None
    meant = _FOLDED.get(kind.value.lower())
    if meant is None or meant == kind.value:
        return None
    api_version = root.get("apiVersion")
    written = api_version.value if isinstance(api_version, ScalarNode) else None
    if isinstance(written, str) and written.rpartition("/")[0] not in _GROUPS:
        return None
    return KindCase(path, kind.span, kind.value, meant)
