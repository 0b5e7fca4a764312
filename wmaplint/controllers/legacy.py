"""The older pod labels shape (``pod-labels:`` files): kinds keyed by group/version/kind, each with its pods'
labels. Still read from a project's configuration, as an alias of part of the controller model
(``wmaplint.controllers.load`` turns it into the model's kinds); a file of the wrong shape is a
:class:`PodLabelsError` naming the file and the offending key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.controllers.errors import ModelError
from wmaplint.dataclass import dataclass, field

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

ROLES = ("workload", "component", "entry", "replica", "attempt", "revision", "other")
_KIND_KEYS = {"source", "gang", "labels"}
_LABEL_KEYS = {"role", "value", "source", "of", "lower", "values", "otherwise", "present"}


class PodLabelsError(ModelError):
    """A pod labels file that cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class PodLabel:
    """One label a controller sets on its pods. ``values``: (value, location) pairs of a component label;
    locations are schema paths such as ``.spec.workerGroupSpecs`` (lists and maps without ``[]``)."""

    key: str
    role: str
    value: str
    source: str
    of: str | None = None
    lower: bool = False
    values: tuple[tuple[str, str], ...] = ()
    otherwise: str | None = None
    present: str | None = None


@dataclass(frozen=True)
class KindLabels:
    gvk: str
    source: str
    gang: bool = False
    labels: dict[str, PodLabel] = field(default_factory=dict)


@dataclass(frozen=True)
class PodLabels:
    kinds: dict[str, KindLabels]
    files: tuple[str, ...] = ()


def _text(value: Json, where: str, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise PodLabelsError(f"{where}: expected a non-empty string")
    return value


def _location(value: Json, where: str) -> str:
    text = _text(value, where)
    if not text.startswith("."):
        raise PodLabelsError(f"{where}: expected a location such as .spec.template, not {text!r}")
    return text


def _optional_location(raw: dict[str, Any], name: str, where: str) -> str | None:
    return _location(raw[name], f"{where}.{name}") if raw.get(name) is not None else None


def _label(key: str, raw: Json, where: str) -> PodLabel:
    if not isinstance(raw, dict):
        raise PodLabelsError(f"{where}: expected a mapping")
    unknown = sorted(set(raw) - _LABEL_KEYS)
    if unknown:
        raise PodLabelsError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_LABEL_KEYS))})")
    role = raw.get("role")
    if role not in ROLES:
        raise PodLabelsError(f"{where}.role: expected one of {', '.join(ROLES)}, not {role!r}")
    values: list[tuple[str, str]] = []
    raw_values = raw.get("values", {})
    if not isinstance(raw_values, dict):
        raise PodLabelsError(f"{where}.values: expected a mapping of label values to locations")
    for value, location in raw_values.items():
        values.append((str(value), _location(location, f"{where}.values.{value}")))
    label = PodLabel(
        key=key,
        role=role,
        value=_text(raw.get("value"), f"{where}.value"),
        source=_text(raw.get("source"), f"{where}.source"),
        of=_optional_location(raw, "of", where),
        lower=raw.get("lower", False) is True,
        values=tuple(values),
        otherwise=_optional_location(raw, "otherwise", where),
        present=_optional_location(raw, "present", where),
    )
    if role == "entry" and label.of is None:
        raise PodLabelsError(f"{where}: an entry label needs `of`, the list or map whose entries it names")
    if role == "component" and not (label.values or label.otherwise or label.present):
        raise PodLabelsError(f"{where}: a component label needs `values`, `otherwise` or `present`")
    if "lower" in raw and not isinstance(raw["lower"], bool):
        raise PodLabelsError(f"{where}.lower: expected true or false")
    return label


def parse_pod_labels(data: object, source: str = "<pod labels>") -> PodLabels:
    """The facts of one file's data; raises PodLabelsError for a wrong shape."""
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        raise PodLabelsError(f"{source}: expected a mapping with `kinds`")
    if data.get("version", 1) != 1:
        raise PodLabelsError(f"{source}: version {data.get('version')!r} is not supported (1 is)")
    kinds: dict[str, KindLabels] = {}
    for gvk, raw in data["kinds"].items():
        where = f"{source}: kinds.{gvk}"
        if not isinstance(gvk, str) or gvk.count("/") not in (1, 2):
            raise PodLabelsError(f"{where}: expected a key group/version/kind (version/kind for the core "
                                 "group)")
        if not isinstance(raw, dict):
            raise PodLabelsError(f"{where}: expected a mapping")
        unknown = sorted(set(raw) - _KIND_KEYS)
        if unknown:
            known = ", ".join(sorted(_KIND_KEYS))
            raise PodLabelsError(f"{where}: unknown key {unknown[0]!r} (known: {known})")
        raw_labels = raw.get("labels") or {}
        if not isinstance(raw_labels, dict):
            raise PodLabelsError(f"{where}.labels: expected a mapping of label keys")
        if not isinstance(raw.get("gang", False), bool):
            raise PodLabelsError(f"{where}.gang: expected true or false")
        kinds[gvk] = KindLabels(
            gvk=gvk,
            source=_text(raw.get("source"), f"{where}.source"),
            gang=raw.get("gang", False),
            labels={str(k): _label(str(k), v, f"{where}.labels.{k}") for k, v in raw_labels.items()},
        )
    return PodLabels(kinds, (source,))
