"""``per_type``: caches of what the interpreter derives from an element type."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from xdsl.ir import Attribute

_R = TypeVar("_R")


def per_type(fn: Callable[[Attribute], _R]) -> Callable[[Attribute], _R]:
    """Cache ``fn`` by the identity of its type argument.

    xDSL attributes hash by value, recursively, which costs more than most
    of what the interpreter derives from a type; the identity check is
    cheap, and the cache keeps the type alive so its id is not reused.
    """
    memo: dict[int, tuple[Attribute, _R]] = {}

    def cached(t: Attribute) -> _R:
        hit = memo.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
        result = fn(t)
        memo[id(t)] = (t, result)
        return result

    cached.__doc__ = fn.__doc__
    return cached
