"""Data classes without the standard library's cost at import.

``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` (and more when frozen or
ordered) as source text and compiles it when the module is imported: 1-2 ms a class here, and a one-file
check imports about seventy classes, a fifth of its time. This ``dataclass`` makes the same classes from
methods shared by all of them, for the options the project uses (``frozen``, ``slots``, ``eq``, ``order``,
``field(default=..., default_factory=..., repr=..., compare=...)``); ``fields`` and ``replace`` work on
them. Type checkers see the standard library's names, so the classes type-check as before.

A shared ``__init__`` takes 2-4 microseconds more per object than a generated one (5.4 against 1.6 for a
class of eight fields given by keyword): a class made by the thousand (positioned nodes, spans) writes its own
``__init__``, which is kept, and a class made ``GENERATE_AFTER`` times gets its ``__init__`` written and
compiled then, as the standard library writes it at import (a check of 400 definitions makes 48,000 objects
of about 40 classes; a one-file check compiles a few).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

__all__ = ["MISSING", "FrozenInstanceError", "dataclass", "field", "fields", "replace"]

# Objects of one class made with the shared ``__init__`` before the class gets its own: compiling one costs
# about as much as 30 calls save.
GENERATE_AFTER = 64

if TYPE_CHECKING:
    from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields, replace
else:

    class _Missing:
        def __repr__(self) -> str:
            return "MISSING"

    MISSING = _Missing()

    class FrozenInstanceError(AttributeError):
        """An attempt to assign or delete a field of a frozen instance."""

    class Field:
        __slots__ = ("name", "default", "default_factory", "repr", "compare")

        def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True,
                     compare: bool = True) -> None:
            if default is not MISSING and default_factory is not MISSING:
                raise ValueError("cannot specify both default and default_factory")
            self.name = ""
            self.default = default
            self.default_factory = default_factory
            self.repr = repr
            self.compare = compare

        def __repr__(self) -> str:
            return f"Field(name={self.name!r}, default={self.default!r})"

    def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True,
              compare: bool = True) -> Any:
        return Field(default, default_factory, repr, compare)

    def fields(class_or_instance: Any) -> tuple[Field, ...]:
        cls = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
        try:
            return cls.__struct_fields__
        except AttributeError:
            raise TypeError("must be called with a dataclass type or instance") from None

    def replace(obj: Any, **changes: Any) -> Any:
        values = {f.name: getattr(obj, f.name) for f in fields(obj)}
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{type(obj).__name__}.__init__() got an unexpected keyword argument "
                            f"{sorted(unknown)[0]!r}")
        values.update(changes)
        return type(obj)(**values)

    def dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
                  order: bool = False) -> Any:
        def wrap(klass: type) -> type:
            return _make(klass, frozen=frozen, slots=slots, eq=eq, order=order)

        return wrap if cls is None else wrap(cls)

    def _own_fields(cls: type) -> list[Field]:
        found = []
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
            if text.startswith(("ClassVar", "typing.ClassVar")):
                continue
            value = cls.__dict__.get(name, MISSING)
            spec = value if isinstance(value, Field) else Field(default=value)
            spec.name = name
            found.append(spec)
        return found

    def _make(cls: type, *, frozen: bool, slots: bool, eq: bool, order: bool) -> type:
        inherited: dict[str, Field] = {}
        for base in reversed(cls.__mro__[1:]):
            for spec in base.__dict__.get("__struct_fields__", ()):
                inherited[spec.name] = spec
        own = _own_fields(cls)
        for spec in own:
            inherited[spec.name] = spec
        specs = tuple(inherited.values())
        seen_default = False
        for spec in specs:
            has_default = spec.default is not MISSING or spec.default_factory is not MISSING
            if seen_default and not has_default:
                raise TypeError(f"non-default argument {spec.name!r} follows default argument")
            seen_default = seen_default or has_default
        owner: list[type] = []  # the class made, once it is: where a generated ``__init__`` goes
        methods = _methods(specs, frozen=frozen, slots=slots, eq=eq, order=order, owner=owner)
        body = cls.__dict__
        own_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
        added = {name: method for name, method in methods.items()
                 if name not in cls.__dict__ or (name == "__hash__" and not own_hash)}
        added["__struct_fields__"] = specs
        added["__match_args__"] = tuple(s.name for s in specs)
        if not slots:  # changed in place, as the standard library does (methods keep their class for super())
            for spec in own:
                if isinstance(cls.__dict__.get(spec.name), Field):
                    if spec.default is MISSING:
                        delattr(cls, spec.name)
                    else:
                        setattr(cls, spec.name, spec.default)
            for name, value in added.items():
                setattr(cls, name, value)
            owner.append(cls)
            return cls
        namespace = {k: v for k, v in cls.__dict__.items()
                     if k not in ("__dict__", "__weakref__") and k not in {s.name for s in own}}
        namespace.update(added)
        namespace["__slots__"] = tuple(s.name for s in own)
        made = type(cls)(cls.__name__, cls.__bases__, namespace)
        made.__qualname__ = cls.__qualname__
        owner.append(made)
        return made

    def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
        """The values of the named fields of an object, as a tuple."""
        if len(names) > 1:
            return attrgetter(*names)
        if len(names) == 1:
            one = attrgetter(names[0])
            return lambda self: (one(self),)
        return lambda self: ()

    def _generated_init(specs: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
        """The ``__init__`` the standard library writes for ``specs``: parameters by name, defaults bound
        once, factories called when their argument is left out; Python's own errors for a wrong call."""
        scope: dict[str, Any] = {"__dataclass_missing__": MISSING, "__dataclass_set__": object.__setattr__}
        parameters, lines = [], []
        for spec in specs:
            name = spec.name
            if spec.default is not MISSING:
                scope[f"__dataclass_default_{name}__"] = spec.default
                parameters.append(f"{name}=__dataclass_default_{name}__")
            elif spec.default_factory is not MISSING:
                scope[f"__dataclass_factory_{name}__"] = spec.default_factory
                parameters.append(f"{name}=__dataclass_missing__")
                lines.append(f"    if {name} is __dataclass_missing__:\n"
                             f"        {name} = __dataclass_factory_{name}__()")
            else:
                parameters.append(name)
            lines.append(f"    __dataclass_set__(__dataclass_self__, {name!r}, {name})" if frozen
                         else f"    __dataclass_self__.{name} = {name}")
        source = (f"def __init__(__dataclass_self__, {', '.join(parameters)}):\n" if parameters
                  else "def __init__(__dataclass_self__):\n")
        source += "\n".join(lines) if lines else "    pass"
        exec(source, scope)  # noqa: S102 - the text is made of field names, which are identifiers
        init: Callable[..., None] = scope["__init__"]
        return init

    def _methods(specs: tuple[Field, ...], *, frozen: bool, slots: bool, eq: bool,
                 order: bool, owner: list[type]) -> dict[str, Callable[..., Any]]:
        names = tuple(s.name for s in specs)
        shown = tuple(s.name for s in specs if s.repr)
        defaults = [(s.name, s.default, s.default_factory) for s in specs]
        count = len(names)
        assign = object.__setattr__ if frozen else setattr
        made = [0]

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            made[0] += 1
            if made[0] == GENERATE_AFTER and owner and owner[0].__dict__.get("__init__") is __init__:
                generated = _generated_init(specs, frozen)
                generated.__qualname__ = f"{owner[0].__qualname__}.__init__"
                owner[0].__init__ = generated  # type: ignore[misc]
            if len(args) > count:
                raise TypeError(f"{type(self).__name__}.__init__() takes {count + 1} positional arguments "
                                f"but {len(args) + 1} were given")
            for name, value in zip(names, args, strict=False):
                assign(self, name, value)
            for name, default, factory in defaults[len(args):]:
                if name in kwargs:
                    assign(self, name, kwargs.pop(name))
                elif default is not MISSING:
                    assign(self, name, default)
                elif factory is not MISSING:
                    assign(self, name, factory())
                else:
                    raise TypeError(f"{type(self).__name__}.__init__() missing required argument: {name!r}")
            if kwargs:
                name = next(iter(kwargs))
                reason = "got multiple values for argument" if name in names else \
                    "got an unexpected keyword argument"
                raise TypeError(f"{type(self).__name__}.__init__() {reason} {name!r}")

        def __repr__(self: Any) -> str:
            inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{type(self).__qualname__}({inside})"

        methods: dict[str, Callable[..., Any]] = {"__init__": __init__, "__repr__": __repr__}

        values = _getter(names)
        compared = _getter(tuple(s.name for s in specs if s.compare))

        if eq:
            def __eq__(self: Any, other: Any) -> Any:
                if other.__class__ is not self.__class__:
                    return NotImplemented
                return compared(self) == compared(other)

            methods["__eq__"] = __eq__
            if frozen:
                methods["__hash__"] = lambda self: hash(compared(self))
            else:
                methods["__hash__"] = None  # type: ignore[assignment]  # mutable and compared: unhashable
        if order:
            def compare(test: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]) -> Callable[..., Any]:
                def method(self: Any, other: Any) -> Any:
                    if other.__class__ is not self.__class__:
                        return NotImplemented
                    return test(compared(self), compared(other))
                return method

            methods["__lt__"] = compare(lambda a, b: a < b)
            methods["__le__"] = compare(lambda a, b: a <= b)
            methods["__gt__"] = compare(lambda a, b: a > b)
            methods["__ge__"] = compare(lambda a, b: a >= b)
        if frozen:
            def __setattr__(self: Any, name: str, value: Any) -> None:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")

            def __delattr__(self: Any, name: str) -> None:
                raise FrozenInstanceError(f"cannot delete field {name!r}")

            methods["__setattr__"] = __setattr__
            methods["__delattr__"] = __delattr__
            if slots:  # pickle sets slots with setattr, which a frozen class refuses
                def __getstate__(self: Any) -> tuple[Any, ...]:
                    return values(self)

                methods["__getstate__"] = __getstate__

                def __setstate__(self: Any, state: tuple[Any, ...]) -> None:
                    for name, value in zip(names, state, strict=True):
                        object.__setattr__(self, name, value)

                methods["__setstate__"] = __setstate__
        return methods
