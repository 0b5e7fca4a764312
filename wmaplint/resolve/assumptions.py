"""What the tree assumes where a framework depends on the operator release or on defaults a manifest leaves
open: the ``assumptions`` of the controller model (``schemas/controllers/``) of the manifest's kind, each a
jq program run on the manifest that yields the sentence to show (or nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.jq.runtime import JqInput, JqRuntime

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel
    from wmaplint.source.plain import Json


def assumptions_for(obj: Json, runtime: JqRuntime, model: KindModel | None,
                    prepared: JqInput | None = None) -> list[str]:
    """The notes of ``model`` (the controller model of the manifest's kind) that apply to a manifest, in file
    order. A note that fails to evaluate is left out (the shipped notes are tested on the catalog's
    examples). ``prepared``: ``obj`` as the tree's expressions ran on it."""
    if not isinstance(obj, dict) or model is None:
        return []
    entries = model.assumptions
    data = prepared if prepared is not None and prepared.value is obj else JqInput(obj)
    notes: list[str] = []
    for entry in entries:
        result = runtime.evaluate(entry.note, data)
        if result.ok:
            notes.extend(value for value in result.outputs if isinstance(value, str) and value)
    return notes
