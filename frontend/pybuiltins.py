"""Python's own builtins inside kernels: ``len``, ``min``, ``max``, ``abs``, ``print``, ...

On compile-time values they are Python's; on runtime values each has the
meaning its kernel-language twin gives it (``max(a, b)`` is
``st.maximum(a, b)``, ``float(n)`` is ``n.astype(st.f32)``).  ``range``
outside a ``for`` header is compile-time only.
"""

from __future__ import annotations

import builtins as py
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import builtins, dsl
from .core import describe
from .types import RUNTIME_TYPES, TensorValue, TileValue

if TYPE_CHECKING:
    from .lower import Lowerer


def _runtime(*values: object) -> bool:
    return py.any(isinstance(v, RUNTIME_TYPES) for v in values)


def _compile_time(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def lower(lx: Lowerer, *args: Any, **kwargs: Any) -> Any:
        if _runtime(*args, *kwargs.values()):
            raise lx.error(
                f"{name}() works on compile-time values only",
                "use it on tuples, ints and generics; loops over runtime bounds use range() in a for",
            )
        return lx.python(fn, *args, **kwargs)

    return lower


def _len(lx: Lowerer, value: Any) -> Any:
    if isinstance(value, TileValue | TensorValue):
        if value.ndim == 0:
            raise lx.error("len() of a scalar", "len() gives the size of dimension 0")
        return value.shape[0]
    return lx.python(py.len, value)


def _extremum(name: str, pick: Callable[..., Any], dsl_fn: object) -> Callable[..., Any]:
    def lower(lx: Lowerer, *args: Any) -> Any:
        values = args[0] if py.len(args) == 1 and isinstance(args[0], tuple) else args
        if not values:
            raise lx.error(f"{name}() of nothing")
        result = values[0]
        for v in values[1:]:
            if _runtime(result, v):
                result = builtins.call(lx, dsl_fn, (result, v), {})
            else:
                result = lx.python(pick, result, v)
        return result

    return lower


def _abs(lx: Lowerer, value: Any) -> Any:
    if _runtime(value):
        return builtins.call(lx, dsl.abs, (value,), {})
    return lx.python(py.abs, value)


def _cast(pick: Callable[..., Any], dtype: dsl.DType) -> Callable[..., Any]:
    def lower(lx: Lowerer, value: Any) -> Any:
        if _runtime(value):
            return builtins.call(lx, dsl.astype, (value, dtype), {})
        return lx.python(pick, value)

    return lower


_FORMATS = {"float": "%f", "bool": "%d", "ptr": "%p"}


def _format_of(lx: Lowerer, value: TileValue) -> str:
    """The printf conversion for one element of ``value``."""
    kind = value.dtype.kind
    if kind in _FORMATS:
        return _FORMATS[kind]
    if value.dtype.bits == 64:
        return "%lld" if kind == "int" else "%llu"
    return "%d" if kind == "int" else "%u"


def _print(lx: Lowerer, *args: Any, sep: str = " ", end: str = "\n") -> None:
    """``print(a, b)``: one ``print_tko`` with a conversion per runtime value."""
    parts: list[str] = []
    runtime: list[Any] = []
    for value in args:
        if isinstance(value, TileValue):
            parts.append(_format_of(lx, value))
            runtime.append(value)
        elif isinstance(value, RUNTIME_TYPES):
            raise lx.error(f"cannot print {describe(value)}", "print tiles and scalars")
        else:
            parts.append(str(value).replace("%", "%%"))
    builtins.call(lx, dsl.print, (sep.join(parts) + end, *runtime), {})


PY_BUILTINS: dict[object, Callable[..., Any]] = {
    py.range: _compile_time("range", py.range),
    py.len: _len,
    py.min: _extremum("min", py.min, dsl.minimum),
    py.max: _extremum("max", py.max, dsl.maximum),
    py.abs: _abs,
    py.int: _cast(py.int, dsl.i32),
    py.float: _cast(py.float, dsl.f32),
    py.bool: _cast(py.bool, dsl.bool_),
    py.print: _print,
    py.zip: _compile_time("zip", lambda *a: tuple(py.zip(*a))),
    py.enumerate: _compile_time("enumerate", lambda *a: tuple(py.enumerate(*a))),
    py.reversed: _compile_time("reversed", lambda a: tuple(py.reversed(a))),
    py.tuple: _compile_time("tuple", py.tuple),
    py.list: _compile_time("list", py.tuple),
    py.isinstance: _compile_time("isinstance", py.isinstance),
    py.round: _compile_time("round", py.round),
}
"""Python builtin -> its lowering (arguments already evaluated)."""
