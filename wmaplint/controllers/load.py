"""Reading the controller model: the shipped files of ``schemas/controllers/`` and a project's own, merged.

A project's file (configuration ``controllers:``, or ``pod-labels:``, its older name) has the model's shape,
or the older pod labels shape (kinds keyed by group/version/kind, each with ``labels``), which sets the
pods' labels only. A project's kind is merged over the shipped one version by version: its labels,
annotations and conditions key by key, the rest replaced where it gives them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint import cache_records, memo
from wmaplint.controllers.errors import ModelError
from wmaplint.controllers.model import (
    Admitted,
    Assumption,
    CreatedObject,
    IntegerField,
    KindModel,
    Model,
    PodFacts,
    StatusFacts,
    SuspendSwitch,
    WrittenCondition,
    WrittenLabel,
    WrittenPhase,
)
from wmaplint.controllers.paths import normalise_path
from wmaplint.controllers.releases import ALWAYS, Releases
from wmaplint.dataclass import replace
from wmaplint.shipped_data import shipped

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

MODEL_DIR = shipped("schemas") / "controllers"
SCHEMA_FILE = shipped("schemas") / "controllers.schema.json"

__all__ = ["MODEL_DIR", "SCHEMA_FILE", "ModelError", "load_model", "model_for", "parse_model"]


def _strings(value: Json) -> tuple[str, ...]:
    return tuple("" if v is None else str(v) for v in value) if isinstance(value, list) else ()


def _flag(raw: dict[str, Any], key: str) -> bool | None:
    """A boolean the file states, None when it says nothing (a merge then keeps what is under it)."""
    value = raw.get(key)
    return value if isinstance(value, bool) else None


def _releases(raw: dict[str, Any]) -> Releases:
    since, until = raw.get("since"), raw.get("until")
    if since is None and until is None:
        return ALWAYS
    return Releases(str(since) if since is not None else None, str(until) if until is not None else None)


def _ranged(value: Json) -> tuple[tuple[str, ...], tuple[tuple[str, Releases], ...]]:
    """A list of values, each a string or ``{value, since, until}``: the values, and the releases of those
    that not every release has."""
    values: list[str] = []
    ranges: list[tuple[str, Releases]] = []
    for item in value if isinstance(value, list) else ():
        if isinstance(item, dict):
            name = "" if item.get("value") is None else str(item.get("value"))
            values.append(name)
            if not _releases(item).always:
                ranges.append((name, _releases(item)))
        else:
            values.append("" if item is None else str(item))
    return tuple(values), tuple(ranges)


def _label(key: str, raw: dict[str, Any]) -> WrittenLabel:
    role = str(raw.get("role", "other"))
    return WrittenLabel(
        key=key,
        role="run" if role == "attempt" else role,
        value=str(raw.get("value", "")),
        source=str(raw.get("source", "")),
        derive=raw.get("derive") if isinstance(raw.get("derive"), str) else None,
        on=_strings(raw.get("on")),
        of=raw.get("of"),
        lower=raw.get("lower") is True,
        values=tuple((str(v), str(loc)) for v, loc in (raw.get("values") or {}).items()),
        otherwise=raw.get("otherwise"),
        present=raw.get("present"),
        releases=_releases(raw),
    )


def _pods(raw: dict[str, Any], default_source: str) -> PodFacts:
    return PodFacts(
        source=str(raw.get("source") or default_source),
        gang=raw.get("gang") is True,
        exhaustive=_flag(raw, "exhaustive"),
        domains=_strings(raw.get("domains")),
        labels={str(k): _label(str(k), v or {}) for k, v in (raw.get("labels") or {}).items()},
        annotations={str(k): _label(str(k), v or {}) for k, v in (raw.get("annotations") or {}).items()},
    )


def _condition(ctype: str, raw: dict[str, Any]) -> WrittenCondition:
    reasons, ranges = _ranged(raw.get("reasons"))
    return WrittenCondition(ctype, str(raw.get("source", "")), reasons, _releases(raw), ranges)


def _phase(path: str, raw: dict[str, Any]) -> WrittenPhase:
    values, ranges = _ranged(raw.get("values"))
    return WrittenPhase(path, values, str(raw.get("source", "")), _flag(raw, "exhaustive"), _releases(raw),
                        ranges)


def _status(raw: dict[str, Any]) -> StatusFacts:
    conditions = {str(t): _condition(str(t), c or {}) for t, c in (raw.get("conditions") or {}).items()}
    phases = {normalise_path(str(p)): _phase(str(p), ph or {}) for p, ph in (raw.get("phases") or {}).items()}
    exclusive = tuple((str(a), str(b)) for a, b in (raw.get("exclusive") or []))
    return StatusFacts(
        source=str(raw.get("source", "")),
        completes=_flag(raw, "completes"),
        fails=_flag(raw, "fails"),
        exhaustive=_flag(raw, "exhaustive"),
        conditions=conditions,
        exclusive=exclusive,
        phases=phases,
    )


def _fields(raw: dict[str, Any]) -> tuple[IntegerField, ...]:
    source = str(raw.get("source", ""))
    counts = [IntegerField(str(f["path"]), True, str(f.get("source") or source))
              for f in raw.get("replica-counts") or []]
    others = [IntegerField(str(f["path"]), False, str(f.get("source") or source), str(f.get("is", "other")))
              for f in raw.get("not-replica-counts") or []]
    return tuple(counts + others)


def _created(raw: dict[str, Any]) -> CreatedObject:
    return CreatedObject(name=str(raw["name"]), kind=str(raw["kind"]), count=str(raw["count"]),
                         source=str(raw["source"]), each=raw.get("each"), groups=raw.get("groups"),
                         template=raw.get("template"), via=raw.get("via"), releases=_releases(raw),
                         owned=raw.get("owned") is not False)


def _read_releases(header: dict[str, Any]) -> tuple[str, ...]:
    """The releases a file's facts were read at, oldest first: its ``releases``, else its ``release``."""
    listed = [str(r["release"]) for r in header.get("releases") or []
              if isinstance(r, dict) and r.get("release")]
    if listed:
        return tuple(listed)
    return (str(header["release"]),) if header.get("release") else ()


def _kind(raw: dict[str, Any], header: dict[str, Any], file: str) -> KindModel:
    source = str(raw["source"])
    suspend = raw.get("suspend")
    creates = raw.get("creates")
    # `creates` is a mapping {exhaustive, source, objects}, or a plain list (whose completeness is not said)
    objects = creates.get("objects") if isinstance(creates, dict) else creates
    return KindModel(
        group=str(raw["group"]),
        kind=str(raw["kind"]),
        versions=_strings(raw["versions"]),
        source=source,
        framework=str(header.get("framework", "")),
        repository=str(header.get("repository", "")),
        release=str(header.get("release", "")),
        file=file,
        creates=tuple(_created(c) for c in objects or []),
        creates_exhaustive=_flag(creates, "exhaustive") if isinstance(creates, dict) else None,
        creates_source=str(creates.get("source", "")) if isinstance(creates, dict) else "",
        pods=_pods(raw["pods"], source) if isinstance(raw.get("pods"), dict) else None,
        status=_status(raw["status"]) if isinstance(raw.get("status"), dict) else None,
        suspend=SuspendSwitch(source=str(suspend["source"]),
                            supported=suspend.get("supported", True) is not False, path=suspend.get("path"),
                            suspend=suspend.get("suspend"), resume=suspend.get("resume"))
        if isinstance(suspend, dict) else None,
        fields=_fields(raw["fields"]) if isinstance(raw.get("fields"), dict) else (),
        assumptions=tuple(Assumption(str(a["source"]), str(a["note"])) for a in raw.get("assumptions") or []),
        admission=tuple(Admitted(str(a["path"]), str(a["holds"]), str(a["source"]), of=_strings(a.get("of")),
                                 when=str(a.get("when") or "")) for a in raw.get("admission") or []),
        read=_read_releases(header),
        release_labels=_strings((raw.get("release-from") or {}).get("labels")),
        release_annotations=_strings((raw.get("release-from") or {}).get("annotations")),
    )


@memo.lru_cache(maxsize=1, pure=True)
def _validator() -> Any:
    import jsonschema

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def validation_errors(data: Json) -> list[str]:
    """Where ``data`` departs from the model's JSON Schema, each as "place: message"."""
    found = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        place = ".".join(str(p) for p in error.absolute_path) or "(top)"
        found.append(f"{place}: {error.message}")
    return found


def parse_model(data: Any, source: str = "<controller model>", *,
                validate: bool = True) -> tuple[KindModel, ...]:
    """The kinds of one file's data, in the model's shape or the older pod labels shape."""
    if isinstance(data, dict) and isinstance(data.get("kinds"), dict):
        return _from_pod_labels(data, source)
    if validate:
        errors = validation_errors(data)
        if errors:
            raise ModelError(f"{source}: {errors[0]}")
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), list):
        raise ModelError(f"{source}: expected a mapping with `kinds`")
    return tuple(_kind(raw, data, source) for raw in data["kinds"])


def _from_pod_labels(data: Json, source: str) -> tuple[KindModel, ...]:
    from wmaplint.controllers.legacy import parse_pod_labels

    kinds = []
    for gvk, facts in parse_pod_labels(data, source).kinds.items():
        parts = gvk.split("/")
        group, version, kind = ("", *parts) if len(parts) == 2 else parts
        labels = {
            key: WrittenLabel(key, "run" if label.role == "attempt" else label.role, label.value,
                              label.source, of=label.of, lower=label.lower, values=label.values,
                              otherwise=label.otherwise, present=label.present)
            for key, label in facts.labels.items()
        }
        kinds.append(KindModel(group=group, kind=kind, versions=(version,), source=facts.source, file=source,
                               pods=PodFacts(facts.source, gang=facts.gang, labels=labels)))
    return tuple(kinds)


def _read(path: Path, *, validate: bool, noun: str = "the controller model") -> tuple[KindModel, ...]:
    from wmaplint.shipped_data import shipped
    from wmaplint.source import InputError, read_path
    from wmaplint.source.data import SETTINGS, SHIPPED_DATA, DataError

    # the shipped model: the limits of the tool's own files; a project's: the settings' limits
    own = shipped("schemas") in path.parents
    limits = SHIPPED_DATA if own else SETTINGS
    try:
        text = read_path(path, limits.max_bytes)
    except InputError as exc:
        raise ModelError(f"{path}: cannot read {noun}: {exc.reason}") from None
    try:  # the shipped files' shape is trusted (validate=False), a record of them in the cache is not
        return cache_records.yaml_data("controllers", text, str(path), limits,  # type: ignore[no-any-return]  # a record of the model
                                 build=lambda data: parse_model(data, str(path), validate=validate),
                                 refuses=(ModelError,))
    except DataError as exc:
        raise ModelError(str(exc)) from None


def _either(more: bool | None, base: bool | None) -> bool | None:
    return more if more is not None else base


def _merge_kind(base: KindModel, more: KindModel) -> KindModel:
    """``more`` (a project's file) over ``base``: labels, annotations, conditions and phases key by key, a
    flag or list where ``more`` states it."""
    pods = base.pods
    if more.pods is not None:
        pods = more.pods if pods is None else replace(
            more.pods,
            labels={**pods.labels, **more.pods.labels},
            annotations={**pods.annotations, **more.pods.annotations},
            domains=more.pods.domains or pods.domains,
            exhaustive=_either(more.pods.exhaustive, pods.exhaustive),
        )
    status = base.status
    if more.status is not None:
        status = more.status if status is None else replace(
            more.status, conditions={**status.conditions, **more.status.conditions},
            phases={**status.phases, **more.status.phases},
            exclusive=status.exclusive + more.status.exclusive,
            completes=_either(more.status.completes, status.completes),
            fails=_either(more.status.fails, status.fails),
            exhaustive=_either(more.status.exhaustive, status.exhaustive))
    fields = {f.path: f for f in base.fields} | {f.path: f for f in more.fields}
    return replace(
        base,
        source=more.source or base.source,
        file=f"{base.file}, {more.file}" if base.file else more.file,
        creates=more.creates or base.creates,
        # a list of the project's own replaces the shipped one: whole only where the project says so
        creates_exhaustive=more.creates_exhaustive if more.creates
        else _either(more.creates_exhaustive, base.creates_exhaustive),
        creates_source=more.creates_source or base.creates_source,
        pods=pods,
        status=status,
        suspend=more.suspend or base.suspend,
        fields=tuple(fields.values()),
        assumptions=base.assumptions + more.assumptions,
        admission=base.admission + more.admission,
        release_labels=more.release_labels or base.release_labels,
        release_annotations=more.release_annotations or base.release_annotations,
    )


def merged(base: tuple[KindModel, ...], extra: Iterable[KindModel]) -> tuple[KindModel, ...]:
    """``extra``'s kinds over ``base``'s, version by version."""
    kinds = list(base)
    for more in extra:
        for version in more.versions:
            one = replace(more, versions=(version,))
            at = next((i for i, k in enumerate(kinds)
                       if k.group == more.group and k.kind == more.kind and version in k.versions), None)
            if at is None:
                kinds.append(one)
                continue
            known = kinds[at]
            rest = tuple(v for v in known.versions if v != version)
            kinds[at:at + 1] = ([replace(known, versions=rest)] if rest else []) + [
                _merge_kind(replace(known, versions=(version,)), one)]
    return tuple(kinds)


def model_from_files(files: list[Path], *, validate: bool = False) -> Model:
    """The shipped model read from its YAML files (``validate``: each against the model's schema; the tests
    validate the shipped files, so a run trusts them)."""
    kinds: tuple[KindModel, ...] = ()
    for path in files:
        kinds += tuple(replace(k, file=f"schemas/controllers/{path.name}")
                       for k in _read(path, validate=validate))
    return Model(kinds, tuple(f"schemas/controllers/{p.name}" for p in files))


@memo.lru_cache(maxsize=1, pure=True)
def _shipped() -> Model:
    from wmaplint.controllers.compiled import compiled_file, read

    # the compiled form, when it is what the YAML files beside it give; else those files
    compiled = read(compiled_file(), MODEL_DIR)
    return compiled if compiled is not None else model_from_files(sorted(MODEL_DIR.glob("*.yaml")))


def load_model(extra: Iterable[str | Path] = (), *, releases: Iterable[tuple[str, str]] = (),
               noun: str = "the controller model") -> Model:
    """The shipped model with each of ``extra``'s files merged over it, in order, and ``releases`` (repository
    or framework, release) pinned. Raises ModelError for a project file that cannot be read or has the wrong
    shape."""
    model = _shipped()
    extra, pinned = tuple(extra), tuple(releases)
    if not extra and not pinned:
        return model
    kinds, files = model.kinds, model.files
    for path in extra:
        kinds = merged(kinds, _read(Path(path), validate=True, noun=noun))
        files += (str(path),)
    return Model(kinds, files, pinned)


def model_for(group: str, kind: str, version: str) -> KindModel | None:
    """The shipped model of a kind at one version, every release read in one (None when the model does not
    know it). A project's reader is ``Model.model_for`` of ``load_model`` (or ``project_model``)."""
    return _shipped().model_for(group, kind, version)
