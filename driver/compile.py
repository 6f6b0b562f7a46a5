"""``compile_variant``: one kernel variant through the whole pipeline.

The stages, in order, each recorded in the result (``CompiledVariant.ir``):

1. ``frontend`` — the variant as ``frontend`` lowered it: ``cuda_tile`` ops
   with the ``tile_safety`` facts (index checks, access modes);
2. ``before-safety`` — the user passes asked there, if any;
3. ``safety`` — ``passes/pipeline.py``'s safety steps: stores proved
   disjoint, tokens threaded, bounds checks discharged (the launch checks
   are read off the entry here, before the lowering strips them), lowered to
   pure ``cuda_tile``;
4. ``after-safety`` — user passes (the default point);
5. ``clean-up`` — the generic clean-ups (fold, CSE, DCE, LICM);
6. ``after-clean-up`` — user passes whose output is what runs.

No pass is trusted with the proofs.  The frontend's ``tile_safety`` facts
are recorded before any pass runs (``SafetyRecord``); a user pass at
``before-safety`` may not change them, and the IR after every later user
pass, and the IR that runs, is proved again against the record
(``passes/analyses/reproof.py``: one writer per tile, nothing written
through a read-only view, views as the ABI describes them, every index
proved, launch-checked or asserted, token order, dominance).  A pass that
fails is refused, naming it, the property and the kernel line; one the user
trusts by name (``st.trusted``) is listed in ``unsafe_report`` instead.

The last stage's module is what runs: on the interpreter as it is, on a GPU
as the cubin a target arch asks for (``backend/cache.py``).  Results are
memoized per kernel, variant, pipeline and target, so a second launch,
``warm_up`` or ``compile()`` of the same variant does no work.
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from safetile.backend import cache
from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp
from safetile.dialects.cuda_tile.syntax import print_tile_ir
from safetile.frontend.abi import EntryParam, TensorLayout
from safetile.frontend.errors import CompileError
from safetile.frontend.kernel import KernelDefinition, Variant, context
from safetile.passes.analyses.grid_reads import UnreadGridDim, unread_grid_dims
from safetile.passes.analyses.locations import OpDiagnostic
from safetile.passes.analyses.reproof import Violation
from safetile.passes.grid_dependency import early_arguments, waits_first
from safetile.passes.pipeline import clean_up_passes, safety_passes
from safetile.passes.registry import PassRegistryError

from safetile.passes.analyses.pass_guard import FACTS, PassGuard
from safetile.passes.analyses.unsafe_report import unsafe_report
from .user_passes import PassRequest, pass_requests, registered_pipeline_passes

STAGES = ("frontend", "before-safety", "safety", "after-safety", "clean-up", "after-clean-up")


@dataclass(frozen=True)
class CompileOptions:
    """How far and with what: ``until`` stops after a stage (``"frontend"``:
    the IR ``tile-opt kernel.py`` prints); ``passes`` adds user passes to the
    kernel's own and the registered ones; ``sanitize`` builds cubins with
    ``tileiras --sanitize=<tool>``."""

    until: str = "after-clean-up"
    passes: tuple[Any, ...] = ()
    sanitize: str | None = None

    def __post_init__(self) -> None:
        if self.until not in STAGES:
            raise ValueError(f"until={self.until!r}: expected one of {', '.join(STAGES)}")


@dataclass(frozen=True)
class CompiledVariant:
    """A kernel variant compiled: everything a launch, a tool or a tuner needs."""

    kernel: str
    """The kernel's name."""
    symbol: str
    """The entry's name in ``module``: fixed by the generics alone (``add_1024``), so
    the same variant gives the same bytecode, and cubin cache key, in every process."""
    module: ModuleOp
    """The module after the last stage run: what runs."""
    params: tuple[EntryParam, ...]
    """The entry's parameters in ABI order (docs/abi.md)."""
    tensors: tuple[TensorLayout, ...]
    """The tensor parameters' layouts (dtype, static shape, partition, facts)."""
    launch_checks: tuple[tile_safety.LaunchCheckAttr, ...]
    """The bounds checks moved to the host: each ``lhs < rhs`` on the tensor shapes."""
    unread_grid_dims: tuple[UnreadGridDim, ...]
    """Stores whose data ignores a grid dimension their tile follows: with more
    than one block along it, those blocks write identical tiles (a runtime
    warning; ``passes/analyses/grid_reads.py``)."""
    recorded: tuple[tuple[str, ModuleOp | None], ...] = field(repr=False)
    """Each stage run, in order, with its IR where the compile kept it (the last
    is ``module`` itself); None for a stage ``stages`` makes again when asked."""
    pipeline: str = field(repr=False)
    """The passes that made ``module`` (their identities), for ``key``."""
    dependent_launch: bool = False
    """The entry waits for the grids launched before it before it touches memory
    (``grid-dependency``'s invariant holds on the final IR): a launch may start it
    while the kernel before it on its stream still runs (a programmatic dependent
    launch)."""
    early_reads: tuple[str, ...] = ()
    """The tensor parameters (by name) the entry reads *before* that wait
    (``grid-dependency``'s early reads; only with ``dependent_launch``): a launch
    may start it early only if the work just before it on its stream writes none
    of their memory (the runtime checks, launch by launch)."""
    target: str | None = None
    """The arch of ``cubin`` (``"sm_90"``), or None for IR only."""
    cubin: cache.CacheEntry | None = field(default=None, repr=False)
    unsafe_report: tuple[str, ...] = ()
    """Where this variant, as it runs, leaves safety to its author (``passes/analyses/unsafe_report.py``):
    raw pointer parameters, ``unchecked_accesses``, ``st.unsafe()`` operations, and what a pass
    trusted by name (``st.trusted``) left unproved; empty for a kernel proved safe throughout."""

    remake: Callable[[str], ModuleOp] | None = field(default=None, repr=False, compare=False)
    """Makes a stage's IR again from the frontend's (``_Remake``)."""

    @functools.cached_property
    def stages(self) -> tuple[tuple[str, ModuleOp], ...]:
        """The IR after each stage run, in order (the last is ``module`` itself).

        A stage made by safetile's own passes alone is not copied by the compile
        (two module copies were ~18% of a compile): it is made again here, when
        first asked, from the frontend's entry through the same passes, which are
        deterministic.  A compile with user passes keeps a copy of every stage."""
        made = []
        for stage, module in self.recorded:
            if module is None:
                assert self.remake is not None
                module = self.remake(stage)
            made.append((stage, module))
        return tuple(made)

    @functools.cached_property
    def key(self) -> str:
        """The SHA-256 of the final IR and the pipeline that made it (what an
        autotuning record is kept for).  Worked out when first asked: printing
        the IR costs as much as a pass, and a launch does not need it."""
        digest = hashlib.sha256(print_tile_ir(self.module).encode())
        digest.update(self.pipeline.encode())
        return digest.hexdigest()

    def ir(self, stage: str | None = None) -> str:
        """The Tile IR text after ``stage`` (default: the last, what runs)."""
        return print_tile_ir(self.module if stage is None else self.stage(stage))

    def stage(self, name: str) -> ModuleOp:
        """The IR after stage ``name`` (one of ``stages``), made again alone if the compile kept
        no copy of it."""
        for stage, module in self.recorded:
            if stage == name:
                if module is not None:
                    return module
                made = self.__dict__.get("stages")
                if made is not None:
                    return dict(made)[name]
                assert self.remake is not None
                return self.remake(name)
        ran = ", ".join(stage for stage, _ in self.recorded)
        raise KeyError(f"no stage {name!r} in this compile; it ran {ran}")

    @property
    def entry(self) -> EntryOp:
        return _entry(self.module, self.symbol)


_MEMO: weakref.WeakKeyDictionary[KernelDefinition, dict[tuple[Any, ...], CompiledVariant]] = (
    weakref.WeakKeyDictionary()
)


def compile_variant(
    kernel: KernelDefinition,
    variant: Variant,
    target: str | None = None,
    options: CompileOptions = CompileOptions(),
) -> CompiledVariant:
    """``variant`` of ``kernel`` through the pipeline (see the module doc), and to a
    cubin for ``target`` (an arch such as ``"sm_90"``) when one is given.

    Errors: ``CompileError`` naming the kernel line (a safety pass's refusal, a
    bad user pass); the cubin's build raises ``TileirasError`` with the kernel's
    location."""
    requests = _requests(kernel, options)
    memo = _MEMO.setdefault(kernel, {})
    lowered_key = (variant.key, tuple(r.identity for r in requests), options.until)
    lowered = memo.get(lowered_key)
    if lowered is None:
        lowered = memo[lowered_key] = _lower(kernel, variant, requests, options.until)
        _show(kernel, lowered)
    if target is None:
        return lowered
    target_key = (*lowered_key, target, options.sanitize)
    built = memo.get(target_key)
    if built is None:
        entry = cache.cubin_for(lowered.module, target, sanitize=options.sanitize, kernel_name=lowered.symbol)
        built = memo[target_key] = replace(lowered, target=target, cubin=entry)
    return built


def compile_kernels(
    kernel: KernelDefinition, variants: Sequence[Variant], options: CompileOptions = CompileOptions()
) -> ModuleOp:
    """The variants, each compiled, in one verified ``cuda_tile.module`` (each entry
    keeps its variant's own name: variants differing only in argument facts share
    a symbol)."""
    built = []
    for variant in {id(v): v for v in variants}.values():
        compiled = compile_variant(kernel, variant, None, options)
        entry = compiled.entry.clone()
        entry.sym_name = StringAttr(variant.entry_name)
        built.append(entry)
    tile_module = TileModuleOp(kernel.name, built)
    # Each entry verified when it was compiled (``_lower``); what is new is the module around them: its symbols.
    tile_module.verify(verify_nested_ops=False)
    return ModuleOp([tile_module])


def _requests(kernel: KernelDefinition, options: CompileOptions) -> tuple[PassRequest, ...]:
    try:
        return (
            *registered_pipeline_passes(),
            *pass_requests(kernel.options.passes, f"@st.kernel({kernel.name}) passes="),
            *pass_requests(options.passes, "CompileOptions.passes"),
        )
    except PassRegistryError as err:
        raise kernel.error(str(err), "name a registered pass, or pass an xdsl ModulePass object") from None


def _lower(
    kernel: KernelDefinition, variant: Variant, requests: Sequence[PassRequest], until: str
) -> CompiledVariant:
    symbol = kernel.symbol(variant)
    remake = _Remake(kernel.name, variant.entry, variant.entry_name, symbol, kernel.options.dependent_launch)
    module = remake.frontend()
    entry = _entry(module, symbol)
    ctx = context()
    # The frontend's facts, taken before any pass runs: what every later module is held against.
    guard = PassGuard.of(module)
    unread = tuple(f for f in unread_grid_dims(entry) if f.value_dims)  # a fill means its identical tiles
    keep = bool(requests)  # a stage a user pass made cannot be made again by ``remake``
    stages: list[tuple[str, ModuleOp | None]] = [("frontend", module.clone() if keep else None)]
    user = {point: [r for r in requests if r.point == point] for point in STAGES}
    steps: Mapping[str, Sequence[ModulePass | PassRequest]] = {
        **{point: user[point] for point in ("before-safety", "after-safety", "after-clean-up")},
        **remake.own_steps(),
    }
    run = [stage for stage in STAGES[1 : STAGES.index(until) + 1] if steps[stage]]
    if not run:
        stages[0] = ("frontend", module)
    for stage in run:
        for step in steps[stage]:
            if isinstance(step, PassRequest):
                _apply_user(kernel, step, ctx, module, guard)
                continue
            _apply(kernel, step, ctx, module)
            if stage == "safety":
                guard.record_launch_checks(module)
        if stage == "safety":
            # The facts a user pass after the safety passes is held against (no user pass runs between them).
            guard.accept(module)
        # The last stage's IR is the module itself: nothing changes it after.
        stages.append((stage, module if stage == run[-1] else module.clone() if keep else None))
    try:
        module.verify()
    except DiagnosticException as err:
        raise kernel.error(f"the IR after stage '{stages[-1][0]}' does not verify:\n{str(err).strip()}",
                           "this is a bug in safetile; please report it with the kernel") from None
    if STAGES.index(until) >= STAGES.index("safety"):
        # The IR that runs, proved again: a clean-up that broke a proof is a bug of ours.
        broken = guard.violations(module)
        if broken:
            raise _refusal(kernel, broken[0], "the IR after the clean-ups",
                           "this is a bug in safetile; please report it with the kernel")
    final = _entry(module, symbol)
    dependent = waits_first(final)
    early = tuple(variant.params[i].name for i in early_arguments(final)) if dependent else ()
    pointers = {p.name: str(p.annotation) for p in kernel.params if p.kind == "ptr"}
    return CompiledVariant(
        kernel.name,
        symbol,
        module,
        tuple(variant.params),
        tuple(variant.tensors),
        tuple(guard.launch_checks),
        unread,
        tuple(stages),
        repr(tuple(r.identity for r in requests)),
        remake=remake,
        dependent_launch=dependent,
        early_reads=early,
        unsafe_report=unsafe_report(final, guard.record.entries[symbol], pointers, guard.islands),
    )


@dataclass(frozen=True)
class _Remake:
    """What makes a variant's module before any pass, and again after each of
    safetile's own stages (``CompiledVariant.stages``): the frontend's entry
    (never changed: every compile works on a copy) and the passes' options.
    Holds no reference to the kernel, whose memo would then never be freed."""

    kernel: str
    entry: EntryOp
    entry_name: str
    symbol: str
    dependent_launch: bool

    def own_steps(self) -> dict[str, Sequence[ModulePass]]:
        return {
            "safety": safety_passes(launch_checks=True, dependent_launch=self.dependent_launch),
            "clean-up": clean_up_passes(),
        }

    def frontend(self) -> ModuleOp:
        module = ModuleOp([TileModuleOp(self.kernel, [self.entry.clone()])])
        _entry(module, self.entry_name).sym_name = StringAttr(self.symbol)
        return module

    def __call__(self, stage: str) -> ModuleOp:
        """The IR after ``stage``, made by safetile's own passes alone."""
        module = self.frontend()
        ctx = context()
        for name, steps in self.own_steps().items():
            if STAGES.index(name) > STAGES.index(stage):
                break
            for step in steps:
                step.apply(ctx, module)
        return module


def _apply_user(kernel: KernelDefinition, request: PassRequest, ctx: Context, module: ModuleOp,
                guard: PassGuard) -> None:
    """Run a user pass; its output must verify and pass the guard (``passes/analyses/pass_guard.py``),
    unless the user trusts it by name."""
    step = request.pass_
    label = f"'{step.name}' (at {request.point})"
    try:
        step.apply(ctx, module)
    except CompileError:
        raise
    except OpDiagnostic as err:
        raise _located(kernel, err.op.location, f"user pass {label}: {err.message}",
                       "see the pass's message") from None
    except Exception as err:
        detail = str(err).strip() if isinstance(err, DiagnosticException) else f"{type(err).__name__}: {err}"
        raise kernel.error(f"user pass {label} failed: {detail}",
                           "fix the pass, or leave it out of passes=") from None
    try:
        module.verify()
    except DiagnosticException as err:
        raise kernel.error(f"user pass {label} produced IR that does not verify:\n{str(err).strip()}",
                           "fix the pass, or leave it out of passes=") from None
    broken = guard.check(module, label, request.trusted)
    if broken is None:
        return
    if broken.property == FACTS:
        raise kernel.error(
            f"user pass {label} edited the frontend's tile_safety facts: {broken.message}; the safety "
            "proofs rely on them, so no pass may add, drop or change one",
            "leave the tile_safety facts as they are, or trust the pass by name: st.trusted(pass)")
    raise _refusal(kernel, broken, f"user pass {label}",
                   "fix the pass so that its output keeps the proved properties, or trust it by name: "
                   "st.trusted(pass) (the kernel is then listed by unsafe_report())")


def _refusal(kernel: KernelDefinition, violation: Violation, after: str, hint: str) -> CompileError:
    message = f"{after}: the IR that runs is not proved safe: {violation.property}: {violation.message}"
    return _located(kernel, violation.location, message, hint)


def _located(kernel: KernelDefinition, location: Attribute | None, message: str, hint: str) -> CompileError:
    """``message`` at ``location``'s kernel line, or at the kernel without one."""
    located = CompileError.at(location, message, hint) if location is not None else None
    return located if located is not None and located.line else kernel.error(message, hint)


def _apply(kernel: KernelDefinition, step: ModulePass, ctx: Context, module: ModuleOp) -> None:
    """Run one of safetile's own passes; a refusal about an op is at the op's kernel line."""
    try:
        step.apply(ctx, module)
    except CompileError:
        raise
    except OpDiagnostic as err:
        raise _located(kernel, err.op.location, err.message, "see the pass's message") from None
    except DiagnosticException as err:
        raise kernel.error(str(err).strip(), "see the pass's message") from None


def _entry(module: ModuleOp, name: str) -> EntryOp:
    return next(op for op in entries(module) if op.sym_name.data == name)


def _show(kernel: KernelDefinition, compiled: CompiledVariant) -> None:
    """``print_ir``: the IR that runs, when it is compiled; ``dump_ir_dir``: every stage."""
    if kernel.options.print_ir:
        print(compiled.ir(), end="")
    if kernel.options.dump_ir_dir:
        folder = Path(kernel.options.dump_ir_dir) / compiled.symbol
        folder.mkdir(parents=True, exist_ok=True)
        for n, (stage, _) in enumerate(compiled.stages):
            (folder / f"{n}-{stage}.mlir").write_text(compiled.ir(stage))
