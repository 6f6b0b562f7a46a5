"""User passes in the JIT pipeline: which pass, and where it runs.

A kernel takes them with ``@st.kernel(passes=[...])``; every kernel takes the
ones registered with ``st.register_pipeline_pass(...)`` (before its own).  An
item is a pass name known to the registry (``passes/registry.py``: built-in,
an entry point of the ``safetile.passes`` group, or a ``--load``ed file), a
pipeline spec with options (``"my-pass{opt=1}"``), an ``xdsl`` ``ModulePass``
object, or a ``(point, pass)`` pair naming where it runs:

* ``"before-safety"`` — on the frontend's IR, ``tile_safety`` facts and
  all; the safety passes then prove what the pass left, so it cannot make a
  kernel unsafe;
* ``"after-safety"`` (the default) — on pure ``cuda_tile`` after the safety
  passes, before the clean-ups (which tidy what it leaves);
* ``"after-clean-up"`` — last: its output is what runs.

No user pass is trusted.  A pass may not add, drop or edit a ``tile_safety``
fact (a pass at ``before-safety`` that does is refused), and the IR after
every pass at ``after-safety`` or ``after-clean-up`` is proved again
(``passes/analyses/reproof.py``): a pass whose output is not proved safe is
refused, naming the pass, the property and the kernel line.  A pass the
re-proof cannot follow runs only when the user trusts it by name,
``st.trusted(my_pass)``; what it breaks is then an unsafe island, listed by
``kernel.unsafe_report()`` with the pass's name.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterable
from dataclasses import dataclass, is_dataclass

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from safetile.passes.registry import PassRegistryError, all_passes

PIPELINE_POINTS = ("before-safety", "after-safety", "after-clean-up")
DEFAULT_POINT = "after-safety"


@dataclass(frozen=True)
class Trusted:
    """A pass the user trusts by name (``st.trusted(my_pass)``): what the re-proof finds
    broken after it is listed in the unsafe report instead of refused."""

    item: object


def trusted(item: object) -> Trusted:
    """``st.trusted(pass)``: run ``pass`` (a name, spec or ``ModulePass``) even where the
    re-proof cannot prove its output safe; the kernel is then an unsafe island, listed
    with the pass's name by ``kernel.unsafe_report()`` and ``tile-opt --unsafe-report``."""
    if isinstance(item, Trusted | tuple):
        raise PassRegistryError("st.trusted takes one pass (a name, a spec or a ModulePass); "
                                "write (point, st.trusted(pass)) to place it")
    return Trusted(item)


@dataclass(frozen=True)
class PassRequest:
    """One user pass, the point of the pipeline where it runs, and whether the user trusts it."""

    point: str
    pass_: ModulePass
    trusted: bool = False

    @property
    def spec(self) -> str:
        """``point:name{options}``, with ``trusted`` if trusted: what the user asked."""
        return f"{self.point}:{self.pass_.spec()}" + (" trusted" if self.trusted else "")

    @property
    def identity(self) -> tuple[object, ...]:
        """What makes compiled variants differ (part of the cache key): the spec, the pass's
        class (the object, its module, name and source), so that two passes of one name and
        options never share a result; a pass that is not a dataclass may hold state its spec
        does not show, so the object itself counts too."""
        cls = type(self.pass_)
        state: object = None if is_dataclass(self.pass_) else id(self.pass_)
        return (self.spec, cls, cls.__module__, cls.__qualname__, _source_hash(cls), state)


def _source_hash(cls: type) -> str:
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # defined in a REPL or built at run time
        return f"id:{id(cls)}"
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def pass_requests(items: Iterable[object], where: str = "passes=") -> tuple[PassRequest, ...]:
    """The requests ``items`` (see the module doc) make; a bad item raises ``PassRegistryError``."""
    requests: list[PassRequest] = []
    for item in items:
        point = DEFAULT_POINT
        if isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[0], str):
                raise PassRegistryError(f"{where}: {item!r} is not a (point, pass) pair")
            point, item = item
        if point not in PIPELINE_POINTS:
            raise PassRegistryError(f"{where}: unknown pipeline point {point!r}; use one of {', '.join(PIPELINE_POINTS)}")
        trust = isinstance(item, Trusted)
        if isinstance(item, Trusted):
            item = item.item
        requests += [PassRequest(point, p, trust) for p in _passes(item, where)]
    return tuple(requests)


def _passes(item: object, where: str) -> list[ModulePass]:
    if isinstance(item, ModulePass):
        return [item]
    if isinstance(item, type) and issubclass(item, ModulePass):
        return [item()]
    if not isinstance(item, str):
        raise PassRegistryError(f"{where}: {item!r} is not a pass name, a pipeline spec or an xdsl ModulePass")
    known = all_passes()
    made: list[ModulePass] = []
    try:
        specs = list(parse_pipeline(item))
    except (Exception, ArgSpecParseError) as err:  # a BaseException in xDSL
        raise PassRegistryError(f"{where}: cannot read pass spec {item!r}: {err}") from None
    for spec in specs:
        factory = known.get(spec.name)
        if factory is None:
            raise PassRegistryError(
                f"{where}: no pass named '{spec.name}' (register it: an entry point of the "
                "'safetile.passes' group, safetile.passes.registry.register_pass, or tile-opt --load)"
            )
        try:
            made.append(factory().from_spec(spec))
        except Exception as err:  # bad options: xdsl raises ValueError/TypeError
            raise PassRegistryError(f"{where}: bad options for '{spec.name}': {err}") from None
    return made


_GLOBAL: list[PassRequest] = []


def register_pipeline_pass(item: object, point: str = DEFAULT_POINT) -> None:
    """Run a pass (name, spec or ``ModulePass``) in every kernel's pipeline compiled from now on."""
    _GLOBAL.extend(pass_requests([(point, item)], "register_pipeline_pass"))


def registered_pipeline_passes() -> tuple[PassRequest, ...]:
    """The passes every kernel runs (``register_pipeline_pass``), in registration order."""
    return tuple(_GLOBAL)


def unregister_pipeline_passes() -> None:
    """Forget every globally registered pipeline pass."""
    _GLOBAL.clear()
