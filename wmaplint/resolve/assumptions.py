"""What the tree assumes where a framework depends on the operator release or on defaults a manifest leaves
open: the ``assumptions`` of the controller model (``schemas/controllers/``), keyed here by
group/version/kind, each a jq program run on the manifest that yields the sentence to show (or nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from wmaplint import cache_records, memo
from wmaplint.dataclass import dataclass
from wmaplint.jq.runtime import JqInput, JqRuntime

if TYPE_CHECKING:
    from wmaplint.source.plain import Json


@dataclass(frozen=True)
class KindAssumption:
    """An assumption of the controller model for one group/version/kind; ``note``, a jq program yielding its
    sentence."""

    gvk: str
    source: str
    note: str


@memo.lru_cache(maxsize=4)
def load_assumptions(path: str | None = None) -> dict[str, tuple[KindAssumption, ...]]:
    """The model's assumptions by "group/version/Kind" (core kinds "version/Kind"); with ``path``, those of a
    file of the older shape (kinds keyed by group/version/kind, each a list of notes)."""
    if path is None:
        from wmaplint.controllers import load_model

        return {kind.gvk(version): tuple(KindAssumption(kind.gvk(version), a.source, a.note)
                                         for a in kind.assumptions)
                for kind in load_model().kinds for version in kind.versions if kind.assumptions}
    text = Path(path).read_text(encoding="utf-8")
    data = cache_records.yaml_data("assumptions", text)
    kinds = data.get("kinds") if isinstance(data, dict) else None
    found: dict[str, tuple[KindAssumption, ...]] = {}
    for gvk, entries in (kinds or {}).items():
        found[gvk] = tuple(
            KindAssumption(gvk, str(e.get("source", "")), e["note"])
            for e in entries
            if isinstance(e, dict) and isinstance(e.get("note"), str)
        )
    return found


def assumptions_for(obj: Json, runtime: JqRuntime) -> list[str]:
    """The notes that apply to a manifest, in file order. A note that fails to evaluate is left out (the
    shipped notes are tested on the catalog's examples)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str):
        return []
    entries = load_assumptions().get(f"{obj['apiVersion']}/{obj.get('kind')}", ())
    data = JqInput(obj)
    notes: list[str] = []
    for entry in entries:
        result = runtime.evaluate(entry.note, data)
        if result.ok:
            notes.extend(value for value in result.outputs if isinstance(value, str) and value)
    return notes
