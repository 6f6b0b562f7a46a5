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

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import CompileError

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
            OPERATORS[name] = _guarded(fn, f"the operator {name}")
        return fn

    return register


def is_builtin(value: object) -> bool:
    try:
        return value in BUILTINS
    except TypeError:  # unhashable compile-time values
        return False


def call(lx: Lowerer, name: object, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Lower a call of the DSL ``name``; binding errors are compile errors.

    Every lowering runs through ``_lower`` (here, or as an operator of
    ``OPERATORS``): any exception it raises other than a ``CompileError`` (a
    bug of the compiler, not of the kernel) becomes an internal error at the
    kernel line being lowered, the original exception chained (as Triton's
    ``visit()`` does)."""
    lowering = BUILTINS[name]
    signature = inspect.signature(name)  # type: ignore[arg-type]
    shown = getattr(name, "__qualname__", str(name)).replace("Tile.", "tile.")
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as err:
        raise lx.error(f"bad call of {shown}: {err}", f"its signature is {shown}{signature}") from None
    bound.apply_defaults()
    return _lower(lx, shown, lowering, bound.args, bound.kwargs)


def _lower(lx: Lowerer, shown: str, lowering: Lowering, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``lowering(lx, *args, **kwargs)``, any exception but a ``CompileError`` made an internal
    error at the kernel line being lowered."""
    try:
        return lowering(lx, *args, **kwargs)
    except CompileError:
        raise
    except Exception as err:
        raise lx.error(
            f"internal error: lowering {shown} raised {type(err).__name__}: {err}",
            "this is a bug in safetile, not in the kernel: please report it with this message",
        ) from err


def _guarded(lowering: Lowering, shown: str) -> Lowering:
    """``lowering`` run through ``_lower`` (the operators' table holds these)."""

    @functools.wraps(lowering)
    def run(lx: Lowerer, *args: Any, **kwargs: Any) -> Any:
        return _lower(lx, shown, lowering, args, kwargs)

    return run


def property_getter(api_class: type, attribute: str) -> object | None:
    """The getter registered for ``api_class.attribute`` if it is a property."""
    member = inspect.getattr_static(api_class, attribute, None)
    if isinstance(member, property):
        return member.fget
    return None
