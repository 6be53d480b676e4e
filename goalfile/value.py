"""The base of goalfile's value classes, written out by hand instead of ``@dataclass``.

A value class lists its fields in ``__slots__``, takes them as keyword arguments in an
``__init__`` written in its module, and declares each ``Final`` there (``self.name: Final =
name``), so mypy refuses any assignment after ``__init__`` as it refuses one to a frozen
dataclass's field. :class:`Compared` adds equality and a hash by the fields (a frozen
dataclass's ``__eq__`` and ``__hash__``), :func:`replace` is ``dataclasses.replace`` for them.

Why not ``@dataclass(frozen=True)``: it writes the source text of every method it adds
(``__init__``, ``__setattr__``, ``__delattr__``, ``__eq__``, ``__hash__``) and compiles it in
every process, about 1.5 to 8 M instructions a class; a one-row ``verify`` builds 25 of them
before it reads its goal (see docs/performance.md, the seventeenth pass). Methods written out are
compiled once, into the bytecode cache, and the base class's are shared. No I/O here."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar, TypeVar


class Value:
    """A value class: fields in ``__slots__``, shown by ``repr`` as a dataclass shows them,
    equal only to itself (a dataclass with ``eq=False``)."""

    __slots__: ClassVar[tuple[str, ...]] = ()
    _fields: ClassVar[attrgetter[Any]]  # the compared fields' values, in one call

    def __init_subclass__(cls, *, compared: tuple[str, ...] | None = None, **options: Any) -> None:
        """``compared``: the fields :class:`Compared` compares and hashes, when not all of them
        (a dataclass field's ``compare=False``)."""
        super().__init_subclass__(**options)
        names = cls.__slots__ if compared is None else compared
        if names:  # not a base without fields (Compared, Ordered)
            cls._fields = attrgetter(*names)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({shown})"


class Compared(Value):
    """A value class equal to another of the same class with equal fields, hashed by them."""

    __slots__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            fields = self._fields
            return bool(fields(self) == fields(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields(self))


class Ordered(Compared):
    """A compared value class ordered by its fields, in their order (``order=True``)."""

    __slots__: ClassVar[tuple[str, ...]] = ()

    def __lt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._fields(self) < self._fields(other))
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._fields(self) <= self._fields(other))
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._fields(self) > self._fields(other))
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._fields(self) >= self._fields(other))
        return NotImplemented


V = TypeVar("V", bound=Value)


def replace(value: V, /, **changes: object) -> V:
    """A copy of ``value`` with ``changes`` (field name: new value), as ``dataclasses.replace``
    makes one; a name that is not a field is a ``TypeError``."""
    fields: dict[str, Any] = {name: getattr(value, name) for name in value.__slots__}
    fields.update(changes)
    made: V = type(value)(**fields)
    return made
