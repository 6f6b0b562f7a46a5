"""The lowering table: which function emits the IR of each kernel-language name.

Each entry maps a name of ``frontend.dsl`` (a function, a method of
``dsl.Tile``/``dsl.TensorView``/``dsl.PartitionView``, or a property getter) to a
lowering with the same parameters plus the ``Lowerer`` first.  Arguments
are bound against the DSL signature, so defaults and keyword names are the
documented ones and a wrong call is reported at the call site.

The op families register themselves from the ``ops_*`` modules, which
import this one; ``lower`` imports them all, so the tables are full before
any kernel is lowered.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .lower import Lowerer

Lowering = Callable[..., Any]

BUILTINS: dict[object, Lowering] = {}
"""DSL name (function object, or property getter) -> its lowering."""

OPERATORS: dict[str, Lowering] = {}
"""Python operator name (``Add``, ``Lt``, ``USub``, ...) -> its lowering."""


def implements(*names: object) -> Callable[[Lowering], Lowering]:
    """Register the decorated function as the lowering of the DSL ``names``."""

    def register(fn: Lowering) -> Lowering:
        for name in names:
            key = name.fget if isinstance(name, property) else name
            BUILTINS[key] = fn
        return fn

    return register


def operator(*names: str) -> Callable[[Lowering], Lowering]:
    """Register the decorated function as the lowering of Python operators."""

    def register(fn: Lowering) -> Lowering:
        for name in names:
            OPERATORS[name] = fn
        return fn

    return register


def is_builtin(value: object) -> bool:
    try:
        return value in BUILTINS
    except TypeError:  # unhashable compile-time values
        return False


def call(lx: Lowerer, name: object, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Lower a call of the DSL ``name``; binding errors are compile errors."""
    lowering = BUILTINS[name]
    signature = inspect.signature(name)  # type: ignore[arg-type]
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as err:
        shown = getattr(name, "__qualname__", str(name)).replace("Tile.", "tile.")
        raise lx.error(f"bad call of {shown}: {err}", f"its signature is {shown}{signature}") from None
    bound.apply_defaults()
    return lowering(lx, *bound.args, **bound.kwargs)


def property_getter(api_class: type, attribute: str) -> object | None:
    """The getter registered for ``api_class.attribute`` if it is a property."""
    member = inspect.getattr_static(api_class, attribute, None)
    if isinstance(member, property):
        return member.fget
    return None
