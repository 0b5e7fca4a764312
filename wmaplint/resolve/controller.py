"""What the tree needs to know of a workload's controller: the labels it writes on the pods it creates, what
each value identifies, and whether that list is complete. One narrow reader over the project's knowledge
(``wmaplint.pod_labels``), so the synthesis and the comparison with real pods do not depend on its shape."""

from __future__ import annotations

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.pod_labels import KindLabels, PodLabel, load_pod_labels


@dataclass(frozen=True)
class ControllerLabels:
    """The labels the controller of one kind writes on its pods. ``exhaustive``: no other label is written
    (then a key that is neither listed nor in the pod template is known to be absent)."""

    gvk: str
    source: str
    labels: tuple[PodLabel, ...] = ()
    exhaustive: bool = False
    gang: bool = False
    workload_keys: tuple[str, ...] = field(default=())

    def label(self, key: str) -> PodLabel | None:
        return next((label for label in self.labels if label.key == key), None)


def _adapt(facts: KindLabels) -> ControllerLabels:
    labels = tuple(facts.labels.values())
    return ControllerLabels(
        gvk=facts.gvk,
        source=facts.source,
        labels=labels,
        gang=facts.gang,
        workload_keys=tuple(label.key for label in labels if label.role == "workload"),
    )


@memo.lru_cache(maxsize=64, pure=True)
def controller_labels(api_version: str, kind: str) -> ControllerLabels | None:
    """The labels the controller of ``apiVersion``/``kind`` writes, or None when nothing is known."""
    group, _, version = api_version.rpartition("/")
    facts = load_pod_labels().closest(group, version, kind)
    return _adapt(facts) if facts is not None else None
