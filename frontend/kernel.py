"""Kernel definitions and ``@st.function``: signatures, specialization, variants.

A ``KernelDefinition`` wraps a Python function written in the kernel language.  Its
signature declares the parameters (``frontend.dsl``: tensors, scalars,
pointers) and, keyword-only, the generics (``*, E: st.DType, BM: int,
S: st.Shape``).  ``specialize(**values)`` fixes the generics — given, or
inferred from ``st.TensorSpec``s of the arguments (a mutable output's
partition gives ``S``, dtypes give ``E``) — and the argument facts, and
lowers one *variant* (a ``cuda_tile.entry``).  Variants are cached by that
key; dynamic dimensions are not part of it.  The compile driver
(``driver/``) takes a variant from here through the passes; the frontend
knows nothing of them.
"""

from __future__ import annotations

import ast
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, Builtin, IntegerAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.ops.structure import EntryOp, ReturnOp
from safetile.dialects.cuda_tile.types import TileType

from . import dsl
from .abi import EntryParam, TensorFacts, TensorLayout, bind_tensor, tensor_params
from .dsl import DType, PtrParam, TensorParam, TensorSpec
from .emit import Builder
from .errors import CompileError
from .hints import hints_attr
from .lower import CompileState, Lowerer
from .ops_memory import make_partition
from .parse import DeviceFunction, ParsedFunction, parse_function
from .scope import Scope
from .core import too_large
from .types import TileValue, is_pow2


def context() -> Context:
    """An xDSL context with every dialect the frontend emits."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    ctx.load_dialect(tile_safety.TileSafety)
    return ctx


# --------------------------------------------------------------------------
# Options and signature
# --------------------------------------------------------------------------


HintsOption = Mapping[str, Mapping[str, Any]] | Callable[..., Mapping[str, Mapping[str, Any]]] | None
"""Per-arch hints, or a function of the generics giving them (per specialization)."""


def _option(default: Any, key: bool | str = True) -> Any:
    """A kernel option: its default, and whether it makes variants differ (``key``: True,
    ``"hints"`` for a hints option, frozen for the key, or False)."""
    return field(default=default, metadata={"key": key})


@dataclass(frozen=True, kw_only=True)
class KernelOptions:
    """The options of ``@st.kernel(...)``, each declared once here: the entry attributes of
    cuTile Rust, plus ``arg_facts``, the user passes and the launch options.  Keyword-only;
    ``key()`` is derived from the fields' metadata."""

    print_ir: bool = _option(False, key=False)
    """Print the IR that runs when a variant is compiled."""
    dump_ir_dir: str | None = _option(None, key=False)
    """Write every stage's IR as ``<dir>/<symbol>/<n>-<stage>.mlir``."""
    optimization_hints: HintsOption = _option(None, key="hints")
    """Maps an arch (``"sm_90"``, ``"default"``) to its entry hints (``{"num_cta_in_cga": 2}``), or is a
    function of the generics giving that map (``lambda BM, BN, **_: {...}``)."""
    unchecked_accesses: bool = _option(False)
    """No partition index is checked (the kernel takes responsibility, as ``unsafe fn`` does in Rust):
    the entry is marked and ``bounds-check-elision`` drops every check; in the unsafe report."""
    deny_in_kernel_checks: bool = _option(False)
    """A check that would need an in-kernel assert is a compile error."""
    arg_facts: bool = _option(True)
    """Compile in the argument facts (alignment, divisibility, unit strides); False for debugging."""
    passes: tuple[Any, ...] = _option((), key=False)
    """User passes for this kernel's pipeline (``driver/user_passes.py``; their identities are in
    the driver's key)."""
    load_hints: HintsOption = _option(None, key="hints")
    """Per-arch hints of every load (``{"sm_90": {"latency": 6}}``: ``frontend/hints.py``)."""
    store_hints: HintsOption = _option(None, key="hints")
    """Per-arch hints of every store."""
    dependent_launch: bool = _option(True)
    """Compile with ``grid-dependency`` and launch as a programmatic dependent (sm_90 and later):
    the kernel waits for the one before it before touching memory."""
    early_reads: tuple[str, ...] = _option(())
    """``st.Ref`` tensor parameters whose loads at the top of the body (not in a loop or branch)
    ``grid-dependency`` puts before the wait (the runtime starts a launch early only if the work
    before it writes none of their memory)."""

    def __post_init__(self) -> None:
        # What users write as lists or paths, held as the hashable, printable values of the key.
        object.__setattr__(self, "passes", tuple(self.passes))
        object.__setattr__(self, "early_reads", tuple(self.early_reads))
        if self.dump_ir_dir is not None:
            object.__setattr__(self, "dump_ir_dir", os.fspath(self.dump_ir_dir))

    def key(self) -> tuple[Any, ...]:
        """What makes variants differ: every option whose metadata says so."""
        return tuple(
            _frozen(getattr(self, f.name)) if f.metadata["key"] == "hints" else getattr(self, f.name)
            for f in fields(self)
            if f.metadata["key"]
        )


OPTION_NAMES = tuple(f.name for f in fields(KernelOptions))
"""The keywords ``@st.kernel`` takes besides ``specialize``."""


@dataclass(frozen=True)
class Param:
    """A parameter: ``kind`` is ``tensor``, ``scalar``, ``ptr`` or ``generic``."""

    name: str
    kind: str
    annotation: Any
    default: Any = inspect.Parameter.empty


def _signature(parsed: ParsedFunction) -> list[Param]:
    fn = parsed.python
    signature = inspect.signature(fn)
    generics = {p.name for p in signature.parameters.values() if p.kind == p.KEYWORD_ONLY}
    annotations = {
        name: _annotation(parsed, name, value, generics)
        for name, value in inspect.get_annotations(fn).items()
    }
    params: list[Param] = []
    for p in signature.parameters.values():
        node = _arg_node(parsed.tree, p.name)
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise parsed.source.error(node, "kernels take no *args or **kwargs", "declare each parameter")
        if p.name not in annotations:
            raise parsed.source.error(
                node,
                f"parameter '{p.name}' has no annotation",
                "annotate it: st.Mut[...], st.Ref[...], a dtype such as st.f32, st.Ptr[...], "
                "or (keyword-only) a generic: st.DType, int, st.Shape",
            )
        ann = annotations[p.name]
        if p.kind == p.KEYWORD_ONLY:
            if ann not in (dsl.DType, int, dsl.Shape, bool, float):
                raise parsed.source.error(
                    node,
                    f"generic '{p.name}' must be annotated st.DType, int, st.Shape, bool or float",
                    "keyword-only parameters are the kernel's generics",
                )
            params.append(Param(p.name, "generic", ann, p.default))
        elif isinstance(ann, TensorParam):
            params.append(Param(p.name, "tensor", ann))
        elif isinstance(ann, PtrParam):
            params.append(Param(p.name, "ptr", ann))
        elif isinstance(ann, DType | str):
            params.append(Param(p.name, "scalar", ann))
        else:
            raise parsed.source.error(
                node,
                f"unsupported annotation for parameter '{p.name}': {ann!r}",
                "use st.Mut[E, S], st.Ref[E, shape], a dtype such as st.f32, or st.Ptr[E]",
            )
    seen_input = False
    for p in params:
        if p.kind == "tensor" and p.annotation.mode in ("mut", "mapped"):
            if seen_input:
                raise parsed.source.error(
                    _arg_node(parsed.tree, p.name),
                    f"mutable output '{p.name}' must come before the other parameters",
                    "list st.Mut parameters first, as cuTile does",
                )
        elif p.kind != "generic":
            seen_input = True
    return params


def _annotation(parsed: ParsedFunction, name: str, value: Any, generics: set[str]) -> Any:
    """An annotation's value; a string naming a generic (``alpha: "E"``) stays a string."""
    if not isinstance(value, str) or value in generics:
        return value
    try:
        evaluated = eval(value, dict(parsed.python.__globals__), dict(parsed.closure))  # noqa: S307
    except Exception as err:
        raise parsed.source.error(
            _arg_node(parsed.tree, name),
            f"cannot evaluate the annotation of '{name}': {err}",
            "annotations name st types, dtypes, or generics declared after '*'",
        ) from None
    return evaluated


_DECLARED = {"mut": "st.Mut (written)", "mapped": "st.MutMapped (written)", "ptr": "a raw pointer",
             "scalar": "a scalar", "generic": "a generic"}
"""How an ``early_reads`` error describes a parameter that is not an ``st.Ref`` tensor."""


def _arg_node(tree: ast.FunctionDef, name: str) -> ast.AST:
    for a in (*tree.args.posonlyargs, *tree.args.args, *tree.args.kwonlyargs):
        if a.arg == name:
            return a
    return tree


# --------------------------------------------------------------------------
# Variants
# --------------------------------------------------------------------------


@dataclass
class Variant:
    """One compiled specialization: its entry (detached), ABI and what it fixed."""

    key: tuple[Any, ...]
    entry_name: str
    entry: EntryOp
    generics: dict[str, Any]
    tensors: list[TensorLayout]
    params: list[EntryParam]


class KernelDefinition:
    """A kernel's definition: signature, options, specializations and their
    lowered variants.  ``safetile.Kernel`` (what ``@st.kernel`` makes) adds
    compiling (``driver``) and launching (``runtime``)."""

    __safetile_kernel__ = True

    def __init__(
        self,
        fn: Callable[..., Any],
        options: KernelOptions,
        specializations: Sequence[Mapping[str, Any]] = (),
    ):
        self.python = fn
        self.options = options
        self.specializations = [dict(s) for s in specializations]
        """The specializations declared with ``@st.kernel(specialize=[...])``."""
        self.variants: dict[tuple[Any, ...], Variant] = {}
        self._parsed: ParsedFunction | None = None
        self._params: list[Param] | None = None
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__

    @property
    def name(self) -> str:
        return self.python.__name__

    @property
    def parsed(self) -> ParsedFunction:
        if self._parsed is None:
            self._parsed = parse_function(self.python)
        return self._parsed

    @property
    def params(self) -> list[Param]:
        if self._params is None:
            self._params = _signature(self.parsed)
        return self._params

    def __repr__(self) -> str:
        return f"<st.kernel {self.__qualname__}>"

    # -- specialization ------------------------------------------------------

    def error(self, message: str, hint: str = "", param: str | None = None) -> CompileError:
        tree = self.parsed.tree
        return self.parsed.source.error(_arg_node(tree, param) if param else tree, message, hint)

    def resolve(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[TensorLayout]]:
        """The generics and tensor layouts of the specialization ``values``."""
        params = {p.name: p for p in self.params}
        for name in values:
            if name not in params:
                raise self.error(
                    f"'{self.name}' has no parameter or generic '{name}'",
                    "name a generic (keyword-only parameter) or a tensor parameter",
                )
            if params[name].kind in ("scalar", "ptr"):
                raise self.error(
                    f"'{name}' is a scalar parameter: its type is fixed by its annotation",
                    "specialize generics and tensor parameters only",
                    name,
                )
        generics: dict[str, Any] = {
            p.name: values[p.name] for p in self.params if p.kind == "generic" and p.name in values
        }
        specs: dict[str, TensorSpec] = {}
        for p in self.params:
            if p.kind == "tensor" and p.name in values:
                spec = values[p.name]
                if not isinstance(spec, TensorSpec):
                    raise self.error(
                        f"'{p.name}' is specialized with {spec!r}, not a st.TensorSpec",
                        "describe tensor arguments with st.TensorSpec(dtype, shape, ...)",
                        p.name,
                    )
                specs[p.name] = spec
                self._infer(p, spec, generics)
        for p in self.params:
            if p.kind != "generic" or p.name in generics:
                continue
            if p.default is inspect.Parameter.empty:
                raise self.error(
                    f"generic '{p.name}' has no value",
                    f"pass {p.name}=... to specialize(), or a st.TensorSpec it can be inferred from",
                    p.name,
                )
            generics[p.name] = p.default
        # In the parameters' order, however they got their values (passed, inferred from a tensor, or
        # defaulted): the variant's key and entry name, and so its cubin's cache key, are the same for
        # ``f(BN=64)`` and ``f()`` where 64 is BN's default.
        generics = {p.name: generics[p.name] for p in self.params if p.kind == "generic"}
        for p in self.params:
            if p.kind == "generic":
                self._check_generic(p, generics[p.name])
        layouts = [
            self._layout(p, generics, specs.get(p.name)) for p in self.params if p.kind == "tensor"
        ]
        return generics, layouts

    def _infer(self, p: Param, spec: TensorSpec, generics: dict[str, Any]) -> None:
        """Generics a tensor argument's spec determines (``E``, ``S``, ``BM``...)."""
        ann: TensorParam = p.annotation

        def bind(name: str, value: Any, source: str) -> None:
            if name in generics and generics[name] != value:
                raise self.error(
                    f"generic '{name}' is {generics[name]!r} but {source} gives {value!r}",
                    "make the explicit value and the argument agree",
                    p.name,
                )
            generics[name] = value

        if isinstance(ann.dtype, str) and spec.dtype is not None:
            bind(ann.dtype, spec.dtype, f"the dtype of '{p.name}'")
        dims = spec.partition if ann.mode in ("mut", "mapped") else spec.shape
        if dims is None:
            return
        what = f"the {'partition' if ann.mode != 'shared' else 'shape'} of '{p.name}'"
        if isinstance(ann.shape, str):
            bind(ann.shape, tuple(dims), what)
            return
        if len(dims) != len(ann.shape):
            raise self.error(
                f"'{p.name}' has rank {len(ann.shape)} but {what} has rank {len(dims)}",
                "pass a spec of the declared rank",
                p.name,
            )
        for d, v in zip(ann.shape, dims):
            if isinstance(d, str) and v >= 0:
                bind(d, v, what)
            elif ann.mode in ("mut", "mapped") and d != v:
                # A literal tile shape is as binding as a generic one: the
                # launch grid comes from the host partition, so any other
                # partition leaves tiles unwritten or indexes past the end.
                raise self.error(
                    f"'{p.name}' is declared with partition {ann.shape} but {what} is {tuple(dims)}",
                    f"partition the output into tiles of {ann.shape} (tensor.partition({ann.shape}))",
                    p.name,
                )

    def _check_generic(self, p: Param, value: Any) -> None:
        expected = {dsl.DType: DType, int: int, dsl.Shape: tuple, bool: bool, float: float}[p.annotation]
        ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
        if ok and expected is tuple:
            ok = all(isinstance(d, int) and not isinstance(d, bool) for d in value)
        if not ok:
            raise self.error(
                f"generic '{p.name}' must be {expected.__name__ if expected is not DType else 'a st dtype'}, got {value!r}",
                "pass a value of the annotated kind",
                p.name,
            )

    def _layout(self, p: Param, generics: dict[str, Any], spec: TensorSpec | None) -> TensorLayout:
        ann: TensorParam = p.annotation
        dtype = generics.get(ann.dtype) if isinstance(ann.dtype, str) else ann.dtype
        if not isinstance(dtype, DType):
            raise self.error(
                f"the element type of '{p.name}' ({ann.dtype!r}) is not a dtype or a DType generic",
                "write st.Mut[st.f32, ...] or declare *, E: st.DType",
                p.name,
            )
        shape = generics.get(ann.shape) if isinstance(ann.shape, str) else ann.shape
        if not isinstance(shape, tuple):
            raise self.error(
                f"the shape of '{p.name}' ({ann.shape!r}) is not a tuple or a st.Shape generic",
                "write a tuple such as (-1, 'K') or declare *, S: st.Shape",
                p.name,
            )
        dims = tuple(generics.get(d) if isinstance(d, str) else d for d in shape)
        for declared, d in zip(shape, dims):
            if not isinstance(d, int) or isinstance(d, bool):
                raise self.error(
                    f"dimension {declared!r} of '{p.name}' is not an int or an int generic",
                    "declare it as *, NAME: int",
                    p.name,
                )
        if spec is not None and spec.dtype is not None and spec.dtype != dtype:
            raise self.error(
                f"'{p.name}' is {dtype.name} but the argument is {spec.dtype.name}",
                "pass a tensor of the declared element type",
                p.name,
            )
        if ann.mode in ("mut", "mapped"):
            if not 1 <= len(dims) <= 3:
                raise self.error(
                    f"mutable output '{p.name}' has rank {len(dims)}; host partitions have rank 1 to 3",
                    "the launch grid is at most 3-d: reshape the output to rank 3 or less",
                    p.name,
                )
            if not all(is_pow2(d) for d in dims):
                raise self.error(
                    f"the partition shape of '{p.name}' must be powers of two, got {dims}",
                    "partition the output into power-of-two tiles",
                    p.name,
                )
            if too_large(dims):
                raise self.error(
                    f"the partition shape of '{p.name}': {too_large(dims)}", "partition into smaller tiles", p.name
                )
            static: tuple[int | None, ...] = (None,) * len(dims)
            tile = dims
        else:
            if any(d == 0 or d < -1 for d in dims):
                raise self.error(
                    f"dimension sizes of '{p.name}' must be positive or -1 (dynamic), got {dims}",
                    "give each dimension its size, or -1 for a size known only at launch",
                    p.name,
                )
            static = tuple(None if d == -1 else d for d in dims)
            tile = ()
            if spec is not None and spec.shape is not None:
                for s, d in zip(spec.shape, static):
                    if d is not None and s >= 0 and s != d:
                        raise self.error(
                            f"'{p.name}' is declared with shape {dims} but the argument has {spec.shape}",
                            "pass a tensor of the declared static shape",
                            p.name,
                        )
        facts = (
            TensorFacts.of(spec, len(dims)) if spec is not None and self.options.arg_facts else TensorFacts()
        )
        return TensorLayout(p.name, ann.mode, dtype, static, tile, facts)

    def key(self, generics: Mapping[str, Any], layouts: Sequence[TensorLayout]) -> tuple[Any, ...]:
        return (
            tuple(generics.items()),
            tuple((t.dtype.name, t.shape, t.tile, t.facts) for t in layouts),
            self.options.key(),
        )

    def specialize(self, **values: Any) -> Variant:
        """The variant for these generics and argument specs (compiled once)."""
        generics, layouts = self.resolve(values)
        key = self.key(generics, layouts)
        if key not in self.variants:
            self.variants[key] = self._lower(key, generics, layouts)
        return self.variants[key]

    def symbol(self, variant: Variant) -> str:
        """The entry name fixed by ``variant``'s generics alone (``add_128``).

        Variants differing only in argument facts share it; ``Variant.entry_name``
        adds a suffix to keep them apart in one module.
        """
        return self._base_name(variant.generics)

    def _base_name(self, generics: Mapping[str, Any]) -> str:
        return "_".join([self.name] + [_mangle(v) for v in generics.values()])

    def _entry_name(self, generics: Mapping[str, Any]) -> str:
        base = self._base_name(generics)
        taken = {v.entry_name for v in self.variants.values()}
        name, n = base, 2
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        return name

    # -- lowering --------------------------------------------------------------

    def _early_reads(self, params: list[EntryParam]) -> ArrayAttr[IntegerAttr]:
        """The entry arguments (base pointers) of the ``early_reads`` tensors, checked to be ``st.Ref``."""
        kinds = {p.name: p for p in self.params}
        for name in self.options.early_reads:
            p = kinds.get(name)
            if p is None or p.kind != "tensor" or p.annotation.mode != "shared":
                got = ("it has no such parameter" if p is None else
                       f"'{name}' is {_DECLARED.get(getattr(p.annotation, 'mode', p.kind), 'a ' + p.kind)}")
                raise self.error(
                    f"early_reads names '{name}', but {got}",
                    "name st.Ref tensor parameters the kernel only reads (its weights): a kernel "
                    "cannot read early what it writes",
                    param=name if p is not None else None,
                )
        names = [p.name for p in params]
        return ArrayAttr([IntegerAttr(names.index(name), 64) for name in self.options.early_reads])

    def _lower(self, key: tuple[Any, ...], generics: dict[str, Any], layouts: list[TensorLayout]) -> Variant:
        parsed = self.parsed
        by_name = {t.name: t for t in layouts}
        params: list[EntryParam] = []
        for p in self.params:
            if p.kind == "tensor":
                params += tensor_params(by_name[p.name])
            elif p.kind in ("scalar", "ptr"):
                params.append(EntryParam(p.name, TileType((), self._scalar_dtype(p, generics).ir)))
        entry = EntryOp(self._entry_name(generics), [p.type for p in params])
        block = entry.body.block
        for arg, p in zip(block.args, params):
            arg.name_hint = p.name.replace(".shape[", "_shape").replace(".stride[", "_stride").rstrip("]")
            arg.location = parsed.source.location(_arg_node(parsed.tree, p.name.split(".")[0]))
        builder = Builder(block)
        state = CompileState(builder,
                             load_hints=self._hints(self.options.load_hints, generics),
                             store_hints=self._hints(self.options.store_hints, generics))
        scope = Scope(dict(generics))
        lowerer = Lowerer(state, parsed, scope, is_kernel=True)
        args = list(block.args)
        with lowerer.at_node(parsed.tree):
            for p in self.params:
                if p.kind == "tensor":
                    layout = by_name[p.name]
                    count = 1 + 2 * layout.rank
                    tensor = bind_tensor(builder, layout, args[:count], self.options.arg_facts)
                    del args[:count]
                    if layout.tile:
                        tensor.own_view = make_partition(lowerer, tensor, layout.tile)
                    scope[p.name] = tensor
                elif p.kind in ("scalar", "ptr"):
                    scope[p.name] = TileValue(args.pop(0), self._scalar_dtype(p, generics))
        lowerer.lower_body(parsed.tree.body)
        if not isinstance(block.last_op, ReturnOp):
            builder.add(ReturnOp())
        if self.options.unchecked_accesses:
            entry.attributes[tile_safety.UNCHECKED_ACCESSES] = UnitAttr()
        if self.options.deny_in_kernel_checks:
            entry.attributes[tile_safety.DENY_IN_KERNEL_CHECKS] = UnitAttr()
        if self.options.early_reads:
            entry.attributes[tile_safety.EARLY_READS] = self._early_reads(params)
        if entry_hints := self._hints(self.options.optimization_hints, generics):
            entry.properties["optimization_hints"] = hints_attr(entry_hints)
        variant = Variant(key, entry.sym_name.data, entry, generics, layouts, params)
        _verify(variant)
        return variant

    def _hints(self, option: HintsOption, generics: Mapping[str, Any]) -> Mapping[str, Mapping[str, Any]]:
        """A hints option for one specialization (a callable option is given its generics)."""
        if not callable(option):
            return option or {}
        try:
            hints = option(**generics)
        except Exception as err:
            raise self.error(f"the hints function {getattr(option, '__name__', option)!r} failed on "
                             f"{dict(generics)}: {type(err).__name__}: {err}",
                             "it takes the generics as keyword arguments (use **_ for the ones it ignores)") from None
        if not isinstance(hints, Mapping):
            raise self.error(f"the hints function returned {hints!r}, not a mapping of arch to hints",
                             'return e.g. {"sm_90": {"num_worker_warps_per_cta": 8}}')
        return hints

    def _scalar_dtype(self, p: Param, generics: Mapping[str, Any]) -> DType:
        ann = p.annotation.dtype if p.kind == "ptr" else p.annotation
        dtype = generics.get(ann) if isinstance(ann, str) else ann
        if not isinstance(dtype, DType):
            raise self.error(
                f"the type of '{p.name}' ({ann!r}) is not a dtype or a DType generic", param=p.name
            )
        return dsl.ptr_dtype(dtype) if p.kind == "ptr" else dtype


def _frozen(hints: HintsOption) -> tuple[Any, ...]:
    if callable(hints):
        return (hints,)  # its values follow the generics, which are in the key
    return tuple(sorted((a, tuple(sorted(h.items()))) for a, h in (hints or {}).items()))


def _mangle(value: Any) -> str:
    if isinstance(value, DType):
        return value.name
    if isinstance(value, tuple):
        return "x".join(_mangle(v) for v in value)
    return str(value).replace("-", "m").replace(".", "p")


def _verify(variant: Variant) -> None:
    """Verify the entry; a failure is reported at the kernel line that made the op."""
    _verify_op(variant.entry)


def _verify_op(op: Operation) -> None:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                _verify_op(inner)
    try:
        op.verify(verify_nested_ops=False)
    except (DiagnosticException, ValueError) as err:
        text = str(err).strip().splitlines()[0]
        message = f"the generated '{op.name}' does not verify: {text}"
        hint = "this is a bug in safetile's frontend; please report it with the kernel"
        raise CompileError.at(op.location, message, hint) from None


# --------------------------------------------------------------------------
# Decorators
# --------------------------------------------------------------------------


def function(fn: Callable[..., Any]) -> DeviceFunction:
    """``@st.function``: a device function, inlined into the kernels that call it."""
    return DeviceFunction(fn)
