"""wmaplint.dataclass makes the classes the standard library makes, for every combination of options the
project uses."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any, ClassVar

import pytest

from wmaplint import dataclass as lightweight

OPTIONS = [
    {}, {"eq": False}, {"eq": False, "slots": True}, {"frozen": True}, {"frozen": True, "order": True},
    {"frozen": True, "slots": True}, {"frozen": True, "slots": True, "order": True}, {"slots": True},
]


def _pair(options: dict[str, Any]) -> tuple[type, type]:
    """The same class made by the standard library and by lightweight."""

    def body(decorator: Any, field: Any) -> type:
        class Point:
            kind: ClassVar[str] = "point"
            x: int
            y: int = 0
            tags: tuple[str, ...] = field(default_factory=tuple)
            note: str = field(default="", repr=False)

            def norm(self) -> int:
                return abs(self.x) + abs(self.y)

        return decorator(**options)(Point)

    return body(dataclasses.dataclass, dataclasses.field), body(lightweight.dataclass, lightweight.field)


def _warmed(ours: type) -> type:
    """``ours`` after enough objects that it has its own generated ``__init__``."""
    shared = ours.__init__
    for _ in range(lightweight.GENERATE_AFTER):
        ours(1)
    assert ours.__init__ is not shared
    return ours


@pytest.mark.parametrize("generated", [False, True], ids=["shared init", "generated init"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_same_class_behaves_the_same(options: dict[str, Any], generated: bool) -> None:
    ours, theirs = _pair(options)[1], _pair(options)[0]
    if generated:
        ours = _warmed(ours)
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((), {"x": 3, "tags": ("a",)}), ((1, 2, ("t",), "n"), {})]:
        a, b = theirs(*args, **kwargs), ours(*args, **kwargs)
        assert repr(a) == repr(b)
        assert (a.x, a.y, a.tags, a.note, a.norm(), b.kind) == (b.x, b.y, b.tags, b.note, b.norm(), "point")
        assert (a == theirs(*args, **kwargs)) == (b == ours(*args, **kwargs))
        assert (b != ours(9)) is True
        assert hasattr(b, "__dict__") == hasattr(a, "__dict__")
        assert (type(a).__hash__ is None) == (type(b).__hash__ is None)
        if type(b).__hash__ is not None and options.get("frozen"):
            assert hash(b) == hash(ours(*args, **kwargs))
    assert [f.name for f in lightweight.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert ours.__match_args__ == theirs.__match_args__


@pytest.mark.parametrize("generated", [False, True], ids=["shared init", "generated init"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_wrong_calls_fail_as_they_do_for_dataclasses(options: dict[str, Any], generated: bool) -> None:
    theirs, ours = _pair(options)
    if generated:
        ours = _warmed(ours)
    for args, kwargs in [((), {}), ((1, 2, [], "", 5), {}), ((1,), {"x": 2}), ((1,), {"z": 2})]:
        with pytest.raises(TypeError):
            theirs(*args, **kwargs)
        with pytest.raises(TypeError):
            ours(*args, **kwargs)


@pytest.mark.parametrize("options", [o for o in OPTIONS if o.get("frozen")], ids=str)
def test_frozen_instances_refuse_changes(options: dict[str, Any]) -> None:
    _, ours = _pair(options)
    point = ours(1)
    with pytest.raises(AttributeError):
        point.x = 2
    with pytest.raises(lightweight.FrozenInstanceError):
        del point.y


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_copies_and_pickles_are_equal_values(options: dict[str, Any]) -> None:
    theirs, ours = _pair(options)
    ours.__qualname__ = "Pickled"  # pickle finds a class by its module and name
    globals()["Pickled"] = ours
    try:
        point = ours(1, 2, ("a",), "n")
        for clone in (copy.copy(point), copy.deepcopy(point), pickle.loads(pickle.dumps(point))):
            assert (clone.x, clone.y, clone.tags, clone.note) == (1, 2, ("a",), "n")
            assert (clone == point) == (theirs(1, 2, ("a",), "n") == theirs(1, 2, ("a",), "n"))
    finally:
        del globals()["Pickled"]


def test_order_compares_fields_in_turn() -> None:
    _, ours = _pair({"frozen": True, "order": True})
    assert ours(1, 2) < ours(1, 3) < ours(2, 0) and ours(2) >= ours(1, 9)
    assert sorted([ours(3), ours(1)])[0].x == 1
    with pytest.raises(TypeError):
        ours(1) < (1, 2)  # noqa: B015 - the comparison is the test


def test_subclasses_add_fields_after_their_bases_and_keep_their_own_methods() -> None:
    @lightweight.dataclass(frozen=True, slots=True)
    class Base:
        start: int
        end: int

    @lightweight.dataclass(frozen=True, slots=True)
    class Named(Base):
        name: str = ""

        def __repr__(self) -> str:
            return f"<{self.name}>"

    named = Named(1, 2, "n")
    assert (named.start, named.end, named.name, repr(named)) == (1, 2, "n", "<n>")
    assert [f.name for f in lightweight.fields(named)] == ["start", "end", "name"]
    assert named == Named(1, 2, "n") and named != Base(1, 2) and hash(named) == hash(Named(1, 2, "n"))


def test_a_class_that_writes_its_own_init_keeps_it() -> None:
    @lightweight.dataclass(frozen=True, slots=True)
    class Span:
        line: int
        col: int

        def __init__(self, line: int, col: int) -> None:
            object.__setattr__(self, "line", line)
            object.__setattr__(self, "col", col + 0)

    assert Span(1, 2) == Span(line=1, col=2) and repr(Span(1, 2)).endswith(".Span(line=1, col=2)")


def test_replace_and_fields() -> None:
    _, ours = _pair({"frozen": True, "slots": True})
    point = ours(1, 2)
    moved = lightweight.replace(point, y=5)
    assert (moved.x, moved.y, point.y) == (1, 5, 2)
    with pytest.raises(TypeError):
        lightweight.replace(point, z=1)
    defaults = {f.name: f.default for f in lightweight.fields(ours)}
    assert defaults["x"] is lightweight.MISSING and defaults["y"] == 0 and defaults["note"] == ""
    with pytest.raises(TypeError):
        lightweight.fields(object())


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError):
        @lightweight.dataclass
        class Wrong:
            a: int = 0
            b: int


@pytest.mark.parametrize("options", [o for o in OPTIONS if o.get("eq", True)], ids=str)
def test_a_field_left_out_of_comparison_is_left_out_of_eq_hash_and_order(options: dict[str, Any]) -> None:
    def made(decorator: Any, field: Any) -> type:
        class Program:
            text: str
            rebuild: object = field(default=None, compare=False)

        return decorator(**options)(Program)

    theirs = made(dataclasses.dataclass, dataclasses.field)
    ours = made(lightweight.dataclass, lightweight.field)
    for cls in (theirs, ours):
        assert cls("a", rebuild=len) == cls("a", rebuild=str)
        assert cls("a") != cls("b")
        if options.get("frozen"):
            assert hash(cls("a", rebuild=len)) == hash(cls("a"))
        if options.get("order"):
            assert cls("a", rebuild=str) < cls("b", rebuild=len)


def test_a_generated_init_calls_each_factory_afresh_and_leaves_an_own_init_alone() -> None:
    @lightweight.dataclass(frozen=True, slots=True)
    class Bag:
        items: list[int] = lightweight.field(default_factory=list)

    @lightweight.dataclass
    class Counted:
        n: int

        def __init__(self, n: int) -> None:
            self.n = n * 2

    first = [Bag() for _ in range(lightweight.GENERATE_AFTER + 2)]
    assert len({id(bag.items) for bag in first}) == len(first) and Bag([1]).items == [1]
    assert [Counted(1).n for _ in range(lightweight.GENERATE_AFTER + 2)][-1] == 2
