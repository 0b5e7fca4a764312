"""What the labels workload controllers put on pods identify (the workload, a component, an entry, a replica),
as ``wmaplint new`` reads them: the pods' labels of the controller model (``schemas/controllers/``), with the
files a project names (``controllers:``, or ``pod-labels:``) merged over them label by label.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from wmaplint.controllers import KindModel, load_model
from wmaplint.controllers.errors import ModelError
from wmaplint.controllers.legacy import (
    ROLES,
    KindLabels,
    PodLabel,
    PodLabels,
    PodLabelsError,
    closest_key,
    parse_pod_labels,
)

__all__ = ["ROLES", "KindLabels", "PodLabel", "PodLabels", "PodLabelsError", "closest_key", "load_pod_labels",
           "parse_pod_labels", "pod_labels_of"]


def pod_labels_of(kind: KindModel, version: str) -> KindLabels | None:
    """The pods' labels of one kind's model in the typed view `new` reads (None when the model has none)."""
    if kind.pods is None:
        return None
    labels = {
        key: PodLabel(key=key, role="attempt" if label.role == "run" else label.role, value=label.value,
                      source=label.source, of=label.of, lower=label.lower, values=label.values,
                      otherwise=label.otherwise, present=label.present)
        for key, label in kind.pods.labels.items()
    }
    return KindLabels(kind.gvk(version), kind.pods.source, kind.pods.gang, labels)


def load_pod_labels(extra: Iterable[str | Path] = ()) -> PodLabels:
    """The model's pod labels with each of ``extra``'s files merged over them, in order."""
    try:
        model = load_model(extra, noun="pod labels")
    except PodLabelsError:
        raise
    except ModelError as exc:
        raise PodLabelsError(str(exc)) from None
    kinds: dict[str, KindLabels] = {}
    for kind in model.kinds:
        for version in kind.versions:
            found = pod_labels_of(kind, version)
            if found is not None:
                kinds[found.gvk] = found
    return PodLabels(kinds, model.files)
