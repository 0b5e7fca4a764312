"""A definition read against the controller model: which created pods a component describes, which labels
its selectors and gang keys read, where a path reads a field.

The text analyses here are deliberately plain (label keys in the forms definitions write them, paths as
navigation chains): where an expression is anything else, nothing is read from it and nothing is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from wmaplint import memo
from wmaplint.controllers.model import CreatedObject, KindModel
from wmaplint.dataclass import dataclass

if TYPE_CHECKING:
    from wmaplint.definition.model import Component, Definition, Expr

# .metadata.labels["key"], .metadata.labels."key", .metadata.labels.key (a plain name), optionally with `?`
_LABEL = re.compile(
    r'\.metadata\s*\??\s*\.labels\s*\??\s*(?:\[\s*"(?P<a>[^"\\]+)"\s*\]|\.\s*"(?P<b>[^"\\]+)"|\.(?P<c>[A-Za-z_][A-Za-z0-9_]*))'
)
_SEGMENT = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\.?\[\s*"([^"\\]+)"\s*\]|\.?"([^"\\]+)"|(\[\])')
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class LabelRead:
    """A label key an expression reads, at ``start``..``end`` of its text (the key itself)."""

    expr: Expr
    key: str
    start: int
    end: int
    where: str  # type selector, instance selector, replica selector, gang key


def label_keys(text: str) -> Iterator[tuple[str, int, int]]:
    """The label keys a jq text reads, each with its offsets in the text."""
    for m in _LABEL.finditer(text):
        name = next(g for g in ("a", "b", "c") if m.group(g) is not None)
        yield m.group(name), m.start(name), m.end(name)


def label_reads(expr: Expr, where: str) -> Iterator[LabelRead]:
    for key, start, end in label_keys(expr.text):
        yield LabelRead(expr, key, start, end, where)


def root_model(
    definition: Definition, model_of: Callable[[str, str, str], KindModel | None]
) -> KindModel | None:
    """The model of the definition's root kind (``model_of`` is ``Model.model_for``)."""
    root = definition.root
    if root is None or root.kind is None:
        return None
    kind = root.kind
    return model_of(kind.group, kind.kind, kind.version)


# The rules ask for the same few paths thousands of times on a catalog check (each component's spec texts
# against each pod template of its kind's model).
@memo.lru_cache(maxsize=1024, pure=True)
def segments(path: str) -> tuple[str, ...] | None:
    """``.spec.a[]?.b["c"]`` as ("spec", "a", "*", "b", "c"); None when the text is not a plain path."""
    text = _WS.sub("", path).replace("?", "")
    if text == ".":
        return ()
    if not text.startswith("."):
        return None
    found: list[str] = []
    at = 0
    while at < len(text):
        m = _SEGMENT.match(text, at)
        if m is None or m.end() == at:
            return None
        found.append("*" if m.group(4) else next(g for g in m.groups()[:3] if g is not None))
        at = m.end()
    return tuple(found)


def _joined(each: str, template: str) -> str | None:
    """Where the entries' templates are, as one path: ``.spec.x | to_entries[]`` with ``.value.template`` is
    ``.spec.x[].template``."""
    each = _WS.sub("", each).replace("?", "")
    m = re.fullmatch(r"(.*)\|to_entries\[\]", each)
    if m:
        each = m.group(1) + "[]"
        template = template.removeprefix(".value") or "."
    if template == ".":
        return each
    return each + template if template.startswith(".") else None


@memo.lru_cache(maxsize=1024, pure=True)
def location(created: CreatedObject) -> tuple[str, ...] | None:
    """The segments of where in the workload the created pods' spec comes from (None when unknown)."""
    if created.template is None:
        return None
    template = created.template
    if "//" in template and segments(template) is None:  # a fallback the controller builds: the first
        template = template.split("//", 1)[0].strip()
    text = _joined(created.each, template) if created.each else template
    return segments(text) if text else None


def _prefix(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    return len(path) >= len(pattern) and all(a == b or "*" in (a, b)
                                             for a, b in zip(pattern, path, strict=False))


def spec_texts(component: Component) -> list[str]:
    """The component's spec paths, and of each `a // b` its first alternative (where the fields are read
    first)."""
    texts = [e.text for e in (*component.spec_paths.values(), *component.fragment_paths.values())]
    return texts + [t.split("//", 1)[0].strip().lstrip("(").strip() for t in texts if "//" in t]


def created_pods_of(model: KindModel, component: Component) -> CreatedObject | None:
    """The pods the controller creates that the component's spec paths describe: the created pod object whose
    template the paths read (the most specific one), or None when none or several fit."""
    texts = spec_texts(component)
    if not texts:
        return None
    return _described(model.pods_created(), tuple(texts))


# The editor re-lints a definition on every change, and each component's selectors and gang keys ask this for
# the same pods and paths: it depends on them alone.
@memo.lru_cache(maxsize=1024, pure=True)
def _described(pods: tuple[CreatedObject, ...], texts: tuple[str, ...]) -> CreatedObject | None:
    for text in texts:  # the same expression as the model's (a `//` between two templates)
        flat = _WS.sub("", text)
        same = [c for c in pods if c.template and not c.each and _WS.sub("", c.template) == flat]
        if len(same) == 1:
            return same[0]
    best: list[tuple[int, CreatedObject]] = []
    read = [s for s in map(segments, texts) if s is not None]
    for created in pods:
        where = location(created)
        if where is None:
            continue
        if any(_prefix(where, s) for s in read):
            best.append((len(where), created))
    if not best:
        return None
    best.sort(key=lambda pair: -pair[0])
    if len(best) > 1 and best[0][0] == best[1][0]:
        return None
    return best[0][1]


def carried_pods_of(model: KindModel, definition: Definition, component: Component
                    ) -> tuple[CreatedObject, ...] | None:
    """The pods the controller creates that a component's selectors and gang keys are evaluated on: those its
    spec paths describe (``created_pods_of``), or for a logical component (no spec of its own: a
    LeaderWorkerSet's group) those of every component below it; None when they cannot all be told."""
    if spec_texts(component):
        one = created_pods_of(model, component)
        return (one,) if one is not None else None
    below = [c for c in definition.components if c is not component and _owned_by(definition, c, component)]
    found: dict[str, CreatedObject] = {}
    for child in below:
        if not spec_texts(child):
            continue  # another logical level: its own children are in `below`
        created = created_pods_of(model, child)
        if created is None:
            return None
        found[created.name] = created
    return tuple(found.values()) or None


def _owned_by(definition: Definition, component: Component, ancestor: Component) -> bool:
    """Whether ``ancestor`` is above ``component`` in the definition's ownerRef chain."""
    seen = {id(component)}
    current = component
    while current.owner_ref:
        owner = definition.component(current.owner_ref)
        if owner is None or id(owner) in seen:
            return False
        if owner is ancestor:
            return True
        seen.add(id(owner))
        current = owner
    return False


def pod_label_reads(component: Component) -> Iterator[LabelRead]:
    """The label keys the component's pod selectors read."""
    for expr, where in ((component.type_selector_path, "type selector"),
                        (component.instance_selector_path, "instance selector"),
                        (component.replica_selector_path, "replica selector")):
        if expr is not None:
            yield from label_reads(expr, where)


_CHAIN = re.compile(r"(?<![\w\]\)\"$])((?:\.[A-Za-z_][A-Za-z0-9_]*|\.?\[\]\??|\??)+)")


@memo.lru_cache(maxsize=4096, pure=True)
def navigations(text: str) -> tuple[tuple[str, int, int], ...]:
    """The plain navigation chains rooted at the input (``.spec.a[]?.b``) in ``text``, with their offsets."""
    found = []
    for m in _CHAIN.finditer(text):
        chain = m.group(1)
        if chain.startswith(".") and len(chain) > 1 and re.match(r"\.[A-Za-z_]", chain):
            found.append((chain.rstrip("?"), m.start(1), m.start(1) + len(chain.rstrip("?"))))
    return tuple(found)


_ALT = re.compile(r"^\(?\s*(?P<path>[^()|,/\s]+)\s*(?://\s*-?\d+)?\s*\)?(?:\s*//\s*-?\d+)?$")
_PER_ENTRY = re.compile(r"^(?P<each>[^|()]+\[\]\??)\s*\|\s*\(?\s*(?P<field>\.[A-Za-z_][A-Za-z0-9_.]*)\s*(?://\s*-?\d+)?\s*\)?$")


_GUARDED = re.compile(r"^if\s.+?\sthen\s+-?\d+\s+else\s+(?P<count>.+?)\s+end$", re.S)


def counted_field(text: str) -> tuple[str, int, int] | None:
    """The field a replicas path yields as its count: the whole path (with a default), the field of each
    entry (``.a[]? | (.f // 1)``), or the count of a guarded path (``if .a == null then 0 else (.a.f // 1)
    end``), as ``.spec.a[].f`` with its offsets; None for anything else."""
    from wmaplint.controllers.paths import field_path

    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    guarded = _GUARDED.match(stripped)
    if guarded:
        inner = counted_field(guarded.group("count"))
        if inner is None:
            return None
        return inner[0], lead + guarded.start("count") + inner[1], lead + guarded.start("count") + inner[2]
    m = _PER_ENTRY.match(stripped)
    if m:
        path = field_path(m.group("each") + m.group("field"))
        if path:
            return path, lead + m.start("field"), lead + m.end("field")
    m = _ALT.match(stripped)
    if m:
        path = field_path(m.group("path"))
        if path:
            return path, lead + m.start("path"), lead + m.start("path") + len(m.group("path").rstrip())
    return None
