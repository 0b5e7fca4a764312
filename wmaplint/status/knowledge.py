"""What a kind's controller writes into status, as the status rules and `new` ask for it: the status part of
the controller model (``wmaplint.controllers``, ``KindModel.status``), read through the rule context's one
reader (``DefinitionContext.root_model``) or the project's model. A phase field's values can also come from
the kind's CRD schema (an ``enum`` on the field); :func:`phase_values` merges both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel
    from wmaplint.schema.types import SchemaType

# The statuses of every Kubernetes condition, compared as strings.
CONDITION_STATUSES = ("True", "False", "Unknown")


_SIMPLE_PATH = re.compile(r"^(\.[A-Za-z_][A-Za-z0-9_]*)+$")


def schema_enum(schema_type: SchemaType | None, path: str) -> tuple[str, ...]:
    """The enum a CRD schema declares at a simple path such as ``.status.state`` (empty when none)."""
    path = normalise_path(path)
    if schema_type is None or not _SIMPLE_PATH.match(path):
        return ()
    found = schema_type
    for name in path.split(".")[1:]:
        member = found.member(name)
        if member is None:
            return ()
        found = member
    return tuple(str(v) for v in found.enum if v is not None) if found.enum else ()


def phase_values(
    model: KindModel | None, path: str, schema_types: Iterable[SchemaType] = (), *, whole: bool = False
) -> tuple[tuple[str, ...], str]:
    """(known values, where they come from) of the phase at ``path``; empty when nothing is known. With
    ``whole``, only values known to be every one the field takes: the model's list where it is exhaustive,
    the CRD's enum (the API server takes no other value)."""
    key = normalise_path(path)
    values: dict[str, None] = {}
    sources = []
    phase = model.phase(key) if model is not None else None
    if phase is not None and (phase.exhaustive or not whole):
        values.update(dict.fromkeys(phase.values))
        sources.append(f"{model.gvk() if model else ''}: {phase.source}")
    for t in schema_types:
        enum = schema_enum(t, key)
        if enum:
            values.update(dict.fromkeys(enum))
            sources.append(f"the CRD schema's enum at {key}")
            break
    return tuple(values), "; ".join(sources)
