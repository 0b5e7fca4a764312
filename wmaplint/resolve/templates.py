"""Pod templates of instances: from a pod template or pod spec value, or assembled from fragments.

A fragmented pod spec names, for each of its fields, the pod template field it stands for (the format's
table, ``wmaplint.definition.fields``): the values are placed there, the containers of ``containersPath``
and ``containerPath`` first; without any, one container named ``main`` takes the container fields
(resources, image).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.definition.fields import fragment_pod_fields, shape_of
from wmaplint.resolve.model import PodTemplate
from wmaplint.resolve.quantities import Resources, pod_resources, requirements, split_framework_words

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

# The Python value a fragment of each shape must be to be placed (others are left out, as a failed JSON
# conversion leaves the field unset).
_KINDS: dict[str, type[Any]] = {
    "string": str,
    "string-map": dict,
    "resource-requirements": dict,
    "resource-claims": list,
    "affinity": dict,
    "containers": list,
    "container": dict,
}
CONTAINERS, CONTAINER = "spec.containers", "spec.containers[]"
_IN_CONTAINER = CONTAINER + "."
# (fragment field, pod template field, the value's shape), in the table's order
FRAGMENT_PLACES = tuple((key, place, shape_of(key)) for key, place in fragment_pod_fields())


def pod_template(metadata: Json, spec: Json, framework_words: Any = None) -> tuple[PodTemplate, list[str]]:
    """A pod template with what one pod asks for, and the quantity problems met on the way."""
    spec = spec if isinstance(spec, dict) else {}
    resources, problems = pod_resources(spec)
    unseen: Resources = {}
    if framework_words:
        # the framework's own words fill in what the pod's Kubernetes shapes do not ask for
        for name, amount in requirements(framework_words, problems).items():
            if name not in resources:
                resources[name] = unseen[name] = amount
    template = PodTemplate(
        metadata=metadata if isinstance(metadata, dict) else {}, spec=spec, resources=resources, unseen=unseen
    )
    return template, problems


def pod_from_fragments(pieces: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The PodSpec and metadata that fragment values (by fragment field) make, and the accelerators the
    resources fragment asks for in the framework's own words (see
    wmaplint.resolve.quantities.split_framework_words), which no Kubernetes reading of the pod sees."""
    containers: list[Any] = []
    spec: dict[str, Any] = {"containers": containers}
    pod: dict[str, Any] = {"metadata": {}, "spec": spec}
    default: dict[str, Any] = {"name": "main"}
    words: dict[str, Any] = {}
    for key, place, shape in FRAGMENT_PLACES:
        if key not in pieces:
            continue
        value = pieces[key]
        if shape == "resource-requirements":
            value, words = split_framework_words(value)
        if not isinstance(value, _KINDS[shape]):
            continue
        if place == CONTAINERS:
            containers[:0] = [c for c in value if isinstance(c, dict)]
        elif place == CONTAINER:
            containers.append(value)
        elif place.startswith(_IN_CONTAINER):
            default[place.removeprefix(_IN_CONTAINER)] = value
        else:
            *parents, last = place.split(".")
            target: dict[str, Any] = pod
            for step in parents:
                target = target.setdefault(step, {})
            target[last] = value
    if not containers:
        containers.append(default)
    return spec, pod["metadata"], words
