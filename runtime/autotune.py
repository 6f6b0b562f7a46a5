"""``@st.autotune``: the fastest of several configs of a kernel, timed on the device and kept on disk.

    @st.autotune(configs=[dict(BM=128, BN=128, BK=64),
                          dict(BM=128, BN=256, BK=64,
                               optimization_hints={"sm_90": {"num_worker_warps_per_cta": 8}})],
                 key=["x", "y"])
    @st.kernel
    def gemm(z: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], y: ..., *, E, BM, BN, BK): ...

    z, x, y = gemm(z, x, y).sync()      # z: the output Tensor (or a Partition)

A config fixes generics and may add the kernel options ``optimization_hints``,
``load_hints`` and ``store_hints``; each config is a candidate kernel
(``Kernel.with_options``) launched with its generics.  A mutable output
whose tile the config fixes (``BM``, ``BN`` above) is partitioned for each
candidate: pass the Tensor (it comes back a Tensor) or a Partition (it comes
back partitioned as the chosen config tiles it).

The first launch with a new ``key`` (argument names: their dtypes and shapes,
scalars their values; or a function of the launch's arguments) tunes:

1. ``prune_configs_by(configs, args)`` may drop configs (user rules);
2. the candidates are compiled, their cubins built in parallel (one
   ``tileiras`` process per core); a config that fails to compile, whose launch
   is refused, that uses more shared memory than the device has, or that
   spills registers (read from the cubin: ``backend/resources.py``) is dropped
   with a one-line note (spilling ones are kept if nothing else is left);
3. each candidate is timed (``runtime/bench.py``: CUDA events, warm-up, the
   median of many runs); the outputs it writes are saved first and put back
   after each candidate, so tuning leaves them as they were;
4. the fastest is kept: in this process, and on disk beside the cubin cache
   (``autotune-v1/<kernel>/<problem hash>.json``), the problem being the
   kernel's source, options and configs, the key and the device; the record
   also names the chosen variant's IR hash and toolchain, and a later process
   reuses it (no timing) while they still match.  Concurrent processes tune a
   problem once: the record is written under a lock, atomically.

Later launches with the key go straight to the chosen candidate.
``SAFETILE_AUTOTUNE=0`` runs the first config untimed; on the CPU interpreter
(no device to time) the first config runs, said once.  ``report()`` (and
``SAFETILE_AUTOTUNE_REPORT=1``, on stderr) lists every config's time.
``SAFETILE_AOT_ARCHS`` and ``warm_up(specs, arch=)`` build every candidate's
cubin ahead of time, for a GPU machine without ``tileiras``.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from safetile.backend import cache
from safetile.backend.resources import kernel_resources
from safetile.backend.tileiras import TileirasError
from safetile.driver import CompiledVariant, compile_variant
from safetile.driver.aot import compile_in_parallel
from safetile.frontend.dsl import DType, TensorSpec
from safetile.frontend.errors import CompileError, source_line
from safetile.frontend.kernel import KernelDefinition, Variant

from .backend import Backend, current_backend
from .bench import do_bench
from .cuda.driver import STICKY, CudaError
from .errors import LaunchRefused
from .launch import OPTIONS, aot_archs, compile_options, tensor_spec
from .ops import DeviceOp
from .tensor import Partition, Shared, Tensor
from .warmup import WarmedUp

ENV = "SAFETILE_AUTOTUNE"
"""``0``: no tuning, every tuned kernel runs its first config."""
REPORT_ENV = "SAFETILE_AUTOTUNE_REPORT"
"""``1``: print each problem's table of config times on stderr when it is resolved."""
LAYOUT = "autotune-v1"
"""The records' folder in the cache, and their format's version."""
OPTION_NAMES = ("optimization_hints", "load_hints", "store_hints")


class AutotuneError(RuntimeError):
    """No config of a tuned kernel can run the launch; the message lists why, config by config."""


class Candidate(Protocol):
    """What the tuner needs of a ``@st.kernel`` (``safetile.jit.Kernel``)."""

    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> DeviceOp: ...

    def with_options(self, **changes: Any) -> Candidate: ...

    def specialize(self, **values: Any) -> Variant: ...

    def warm_up(self, specializations: Iterable[Mapping[str, Any]], *, arch: str | None = None) -> list[WarmedUp]: ...


@dataclass(frozen=True)
class Config:
    """Generic values and, optionally, kernel options: one candidate of a tuned kernel.

    ``Config(BM=128, BN=256, optimization_hints={"sm_90": {"occupancy": 2}})``,
    or the same as a dict."""

    values: Mapping[str, Any]
    options: Mapping[str, Any]

    def __init__(self, **entries: Any):
        object.__setattr__(self, "values", {k: v for k, v in entries.items() if k not in OPTION_NAMES})
        object.__setattr__(self, "options", {k: v for k, v in entries.items() if k in OPTION_NAMES and v})

    @classmethod
    def of(cls, item: Config | Mapping[str, Any]) -> Config:
        return item if isinstance(item, Config) else cls(**item)

    @property
    def text(self) -> str:
        """``BM=128 BN=256 optimization_hints={'sm_90': {'occupancy': 2}}``: names it in reports and records."""
        parts = [f"{k}={_text(v)}" for k, v in self.values.items()]
        return " ".join(parts + [f"{k}={_text(v)}" for k, v in sorted(self.options.items())])

    def __repr__(self) -> str:
        return f"Config({self.text})"


def _text(value: Any) -> str:
    """A value as configs, keys and records write it, the same in every process: dtypes by
    name, functions (hints of the generics) by qualified name, mappings sorted."""
    if isinstance(value, DType):
        return value.name
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__name__)}"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k!r}: {_text(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, tuple | list):
        return "(" + ", ".join(_text(v) for v in value) + ")"
    return repr(value)


@dataclass
class Outcome:
    """One config of one tuning problem: its median time, or why it was dropped."""

    config: str
    ms: float | None = None
    note: str | None = None


@dataclass
class Tuning:
    """How a tuning problem (a key) was resolved."""

    key: str
    chosen: int
    """The index of the chosen config."""
    how: str
    """``timed``, ``from <record>`` or why the first config runs untimed."""
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    """The time tuning took (compiles, timing), in this process or the one that wrote the record."""


_said_cpu = False
"""Whether this process said, once, that the CPU interpreter runs first configs untimed."""


class Autotuned:
    """A ``@st.kernel`` with configs to choose from (what ``@st.autotune`` makes); call it as the kernel."""

    def __init__(self, kernel: Candidate, configs: Sequence[Config | Mapping[str, Any]],
                 key: Sequence[str] | Callable[..., Any], *,
                 prune_configs_by: Callable[[list[Config], dict[str, Any]], Sequence[Config]] | None = None,
                 do_bench: Callable[[Callable[[], Any]], float] | None = None, warmup: float = 25.0,
                 rep: float = 100.0, where: tuple[str, int] = ("<unknown>", 0)):
        self.kernel = kernel
        self.configs = [Config.of(c) for c in configs]
        self.key = key if callable(key) else tuple(key)
        self.prune_configs_by = prune_configs_by
        self.do_bench = do_bench
        self.warmup, self.rep = warmup, rep
        self.where = where
        self.tunings: dict[str, Tuning] = {}
        """Each problem resolved in this process, by key."""
        self._candidates: list[Candidate] | None = None
        self.__name__ = kernel.name
        self.__doc__ = getattr(kernel, "__doc__", None)

    @property
    def name(self) -> str:
        return self.kernel.name

    def __repr__(self) -> str:
        return f"<st.autotune of {self.kernel!r}, {len(self.configs)} configs>"

    # -- the candidates ------------------------------------------------------

    @property
    def candidates(self) -> list[Candidate]:
        """One kernel per config (the kernel itself where a config adds no options); checked once."""
        if self._candidates is None:
            self._check()
            self._candidates = [self.kernel.with_options(**c.options) if c.options else self.kernel
                                for c in self.configs]
        return self._candidates

    def _error(self, message: str, hint: str) -> CompileError:
        """A mistake in the ``@st.autotune(...)`` line, located there."""
        file, line = self.where
        return CompileError(message, file, line, 0, source_line(file, line), hint)

    def _check(self) -> None:
        params = self._definition().params
        generics = [p.name for p in params if p.kind == "generic"]
        names = [p.name for p in params]
        if not self.configs:
            raise self._error(f"@st.autotune of '{self.name}' has no configs", "list at least one config")
        for n, config in enumerate(self.configs):
            for name in config.values:
                if name not in generics:
                    raise self._error(
                        f"config {n} ({config.text}) sets '{name}', which is not a generic of '{self.name}'",
                        f"configs set generics ({', '.join(generics) or 'it has none'}) and "
                        f"{', '.join(OPTION_NAMES)}",
                    )
        if not callable(self.key):
            for name in self.key:
                if name not in names:
                    raise self._error(f"key names '{name}', which is not a parameter of '{self.name}'",
                                      f"name parameters ({', '.join(names)}), or pass a function of the arguments")

    def _definition(self) -> KernelDefinition:
        assert isinstance(self.kernel, KernelDefinition), "@st.autotune wraps a @st.kernel"
        return self.kernel

    @property
    def _launch_params(self) -> list[Any]:
        """The parameters a launch passes (not the generics), in order."""
        return [p for p in self._definition().params if p.kind != "generic"]

    # -- launching -------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> DeviceOp:
        """Launch the chosen config for these arguments' key (tuning first if the key is new)."""
        candidates = self.candidates
        params = self._launch_params
        if len(args) != len(params):
            return candidates[0](*args, **kwargs)  # the kernel's own refusal names the parameters
        tuned = sorted({name for c in self.configs for name in c.values} & kwargs.keys())
        if tuned:
            raise LaunchRefused(f"launch of '{self.name}' refused: {', '.join(tuned)} chosen by @st.autotune: leave "
                                "them out of the launch, or out of the configs (no tensor was changed)")
        key = self._key(params, args, kwargs)
        passed_tensors = [i for i in self._outputs() if type(args[i]) is Tensor]
        tuning = self.tunings.get(key)
        if tuning is None:
            if archs := aot_archs():
                self._build_for_archs(archs, args, kwargs)
            tuning, args = self._resolve(current_backend(), key, args, kwargs)
            self.tunings[key] = tuning
            if os.environ.get(REPORT_ENV) == "1":
                print(self.report(key), file=sys.stderr)
        return self._launch(tuning.chosen, args, kwargs, passed_tensors)

    def _launch(self, index: int, args: tuple[Any, ...], kwargs: Mapping[str, Any],
                outputs: Sequence[int]) -> DeviceOp:
        """The launch of candidate ``index``: its outputs tiled as it wants, ``outputs`` given back as Tensors."""
        config = self.configs[index]
        op = self.candidates[index](*self._tiled(config, args), **kwargs, **config.values)
        if not outputs:
            return op

        def as_passed(values: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(v.unpartition() if i in outputs else v for i, v in enumerate(values))

        return op.then(as_passed)

    def _outputs(self) -> list[int]:
        """Positions of the mutable outputs among the launch arguments."""
        params = self._launch_params
        return [i for i, p in enumerate(params) if p.kind == "tensor" and p.annotation.mode in ("mut", "mapped")]

    def _tile(self, config: Config, position: int, passed: tuple[int, ...] | None) -> tuple[int, ...]:
        """The tile of output ``position`` under ``config``; the dimensions it leaves open are
        those of the tile ``passed`` (the output's partition, if it came partitioned)."""
        p = self._launch_params[position]
        shape = p.annotation.shape
        if isinstance(shape, str):  # a st.Shape generic
            dims = list(config.values[shape]) if shape in config.values else [None] * len(passed or (None,))
            names = [shape]
        else:
            dims = [config.values.get(d) if isinstance(d, str) else d for d in shape]
            names = [str(d) for d, v in zip(shape, dims) if v is None]
        if None in dims:
            if passed is None or len(passed) != len(dims):
                open_dims = ", ".join(names)
                raise LaunchRefused(
                    f"launch of '{self.name}' refused: '{p.name}' is tiled by {open_dims}, which config "
                    f"{self.configs.index(config)} does not set: pass it partitioned, or set {open_dims} in every "
                    "config (no tensor was changed)")
            dims = [v if v is not None else s for v, s in zip(dims, passed)]
        return tuple(int(d) for d in dims)

    def _tiled(self, config: Config, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """``args`` with each output partitioned as ``config`` tiles it (moving the handles)."""
        out = list(args)
        for i in self._outputs():
            arg, tile = args[i], self._tile(config, i, _partition_of(args[i]))
            if isinstance(arg, Partition):
                out[i] = arg if arg.shape == tile else arg.unpartition().partition(tile)
            elif isinstance(arg, Tensor):
                out[i] = arg.partition(tile)
        return tuple(out)

    def _key(self, params: Sequence[Any], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> str:
        if callable(self.key):
            return _text(self.key(*args, **kwargs))
        named = {p.name: arg for p, arg in zip(params, args)} | dict(kwargs)
        return " ".join(f"{name}={_describe(named.get(name))}" for name in self.key)

    def _specs(self, config: Config, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """What ``specialize`` takes for ``config``'s candidate on ``args`` (as its launch derives it)."""
        params = self._launch_params
        values: dict[str, Any] = {k: v for k, v in kwargs.items() if k not in OPTIONS}
        for i, (p, arg) in enumerate(zip(params, args)):
            if p.kind != "tensor" or not isinstance(arg, Tensor | Partition | Shared):
                continue
            spec = tensor_spec(arg)
            if i in self._outputs():
                spec = replace(spec, partition=self._tile(config, i, _partition_of(arg)))
            values[p.name] = spec
        return {**values, **config.values}

    # -- resolving a key -------------------------------------------------------

    def _resolve(self, backend: Backend, key: str, args: tuple[Any, ...],
                 kwargs: Mapping[str, Any]) -> tuple[Tuning, tuple[Any, ...]]:
        global _said_cpu
        if os.environ.get(ENV) == "0":
            return Tuning(key, 0, f"{ENV}=0: the first config, untimed"), args
        if backend.name == "cpu" and self.do_bench is None:
            if not _said_cpu:
                _said_cpu = True
                print("safetile: autotune: the CPU interpreter does not time kernels; each tuned kernel runs its "
                      "first config", file=sys.stderr)
            return Tuning(key, 0, "the CPU interpreter: the first config, untimed"), args
        path = self._record_path(backend, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        with cache.locked(path.with_suffix(".lock")):
            if (kept := self._read_record(path, backend, key, args, kwargs)) is not None:
                return kept, args
            tuning, args = self._tune(backend, key, args, kwargs)
            self._write_record(path, backend, tuning, args, kwargs)
        return tuning, args

    def _problem(self, backend: Backend, key: str) -> dict[str, Any]:
        """What a record is keyed by (its file name is this hash)."""
        definition = self._definition()
        return {
            "kernel": f"{definition.__module__}.{definition.__qualname__}",
            "source": hashlib.sha256(ast.dump(definition.parsed.tree).encode()).hexdigest(),
            "options": _text(definition.options.key()),
            "configs": [c.text for c in self.configs],
            "key": key,
            "device": backend.device_name,
        }

    def _record_path(self, backend: Backend, key: str) -> Path:
        problem = json.dumps(self._problem(backend, key), sort_keys=True)
        name = hashlib.sha256(problem.encode()).hexdigest()[:32]
        return cache.default_cache_dir() / LAYOUT / self.name / f"{name}.json"

    def _compiled(self, backend: Backend, index: int, args: tuple[Any, ...],
                  kwargs: Mapping[str, Any]) -> CompiledVariant:
        """Candidate ``index`` compiled as its launch will (memoized: the launch reuses it)."""
        candidate = self.candidates[index]
        variant = candidate.specialize(**self._specs(self.configs[index], args, kwargs))
        return compile_variant(candidate, variant, backend.target, compile_options())  # type: ignore[arg-type]

    def _identity(self, compiled: CompiledVariant) -> dict[str, str | None]:
        """What a record must match besides the problem: the chosen variant's IR and toolchain."""
        return {"variant": compiled.key, "toolchain": compiled.cubin.toolchain if compiled.cubin else None}

    def _read_record(self, path: Path, backend: Backend, key: str, args: tuple[Any, ...],
                     kwargs: Mapping[str, Any]) -> Tuning | None:
        try:
            record = json.loads(path.read_text())
            texts = [c.text for c in self.configs]
            chosen = texts.index(record["chosen"])
            if record["format"] != LAYOUT or record["problem"] != self._problem(backend, key):
                return None
            if record["identity"] != self._identity(self._compiled(backend, chosen, args, kwargs)):
                return None  # the kernel's IR or the toolchain changed: tune again
            outcomes = [Outcome(o["config"], o["ms"], o["note"]) for o in record["outcomes"]]
            return Tuning(key, chosen, f"from {path}", outcomes, float(record["seconds"]))
        except (OSError, ValueError, KeyError, TypeError, CompileError, TileirasError, cache.MissingCubin):
            return None

    def _write_record(self, path: Path, backend: Backend, tuning: Tuning, args: tuple[Any, ...],
                      kwargs: Mapping[str, Any]) -> None:
        record = {
            "format": LAYOUT,
            "problem": self._problem(backend, tuning.key),
            "chosen": self.configs[tuning.chosen].text,
            "identity": self._identity(self._compiled(backend, tuning.chosen, args, kwargs)),
            "outcomes": [vars(o) for o in tuning.outcomes],
            "seconds": round(tuning.seconds, 3),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        cache.write_atomically(path, json.dumps(record, indent=1).encode())

    # -- tuning ----------------------------------------------------------------

    def _tune(self, backend: Backend, key: str, args: tuple[Any, ...],
              kwargs: Mapping[str, Any]) -> tuple[Tuning, tuple[Any, ...]]:
        """Time every config that survives pruning on ``args`` (restored after each); the fastest."""
        started = time.monotonic()
        outcomes = [Outcome(c.text) for c in self.configs]
        alive = self._user_pruned(outcomes, args, kwargs)
        if backend.target is not None:
            self._prebuild(backend.target, list(alive), args, kwargs)
        spilling: list[int] = []
        for i in list(alive):
            try:
                compiled = self._compiled(backend, i, args, kwargs)
            except (CompileError, TileirasError, cache.MissingCubin) as err:
                self._drop(outcomes, alive, i, f"does not compile: {_first_line(err)}")
                continue
            if compiled.cubin is None:
                continue
            usage = kernel_resources(compiled.cubin.cubin, compiled.symbol)
            limit = backend.shared_memory_per_block
            if limit is not None and usage.shared_bytes > limit:
                self._drop(outcomes, alive, i, f"uses {usage.shared_bytes} bytes of shared memory, the device "
                                                f"has {limit}")
            elif usage.spill_bytes:
                spilling.append(i)
                outcomes[i].note = f"spills {usage.spill_bytes} bytes per thread"
        if spilling and len(spilling) < len(alive):
            for i in spilling:
                self._drop(outcomes, alive, i, outcomes[i].note or "")

        outputs = [args[i] for i in self._outputs()]
        storages = [(arg if type(arg) is Tensor else arg.tensor("tune with it")).storage("tune with it")
                    for arg in outputs]
        saved = [backend.snapshot(s) for s in storages]
        timer = self.do_bench or (lambda fn: float(do_bench(fn, self.warmup, self.rep)))  # type: ignore[arg-type]
        for i in list(alive):
            args, ms = self._time(i, args, kwargs, timer, outcomes, alive)
            for storage, copy in zip(storages, saved):
                backend.restore(storage, copy)
            if ms is not None:
                outcomes[i].ms = ms
        timed = [i for i in alive if outcomes[i].ms is not None]
        if not timed:
            why = "; ".join(f"config {n} ({o.config}): {o.note}" for n, o in enumerate(outcomes))
            raise AutotuneError(f"autotune of '{self.name}' ({key}): no config can run this launch: {why}")
        chosen = min(timed, key=lambda i: outcomes[i].ms)  # type: ignore[arg-type, return-value]
        return Tuning(key, chosen, "timed", outcomes, time.monotonic() - started), args

    def _time(self, index: int, args: tuple[Any, ...], kwargs: Mapping[str, Any],
              timer: Callable[[Callable[[], Any]], float], outcomes: list[Outcome],
              alive: list[int]) -> tuple[tuple[Any, ...], float | None]:
        """Candidate ``index`` timed on ``args``: the handles back, and its milliseconds (None: dropped)."""
        config = self.configs[index]
        tiled = self._tiled(config, args)
        try:
            prepared = self.candidates[index](*tiled, **kwargs, **config.values).prepare()
        except (LaunchRefused, CompileError, TileirasError, cache.MissingCubin) as err:
            self._drop(outcomes, alive, index, f"cannot launch: {_first_line(err)}")
            return tiled, None  # a refused launch moves nothing
        try:
            ms = timer(prepared.enqueue)
        except CudaError as err:
            if err.name in STICKY:
                raise
            self._drop(outcomes, alive, index, f"fails on the device: {_first_line(err)}")
            return prepared.release(), None
        return prepared.release(), ms

    def _user_pruned(self, outcomes: list[Outcome], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> list[int]:
        alive = list(range(len(self.configs)))
        if self.prune_configs_by is None:
            return alive
        params = self._launch_params
        named = {p.name: arg for p, arg in zip(params, args)} | dict(kwargs)
        kept = [Config.of(c).text for c in self.prune_configs_by(list(self.configs), named)]
        for i in list(alive):
            if self.configs[i].text not in kept:
                self._drop(outcomes, alive, i, "pruned by prune_configs_by")
        return alive

    def _drop(self, outcomes: list[Outcome], alive: list[int], index: int, note: str) -> None:
        outcomes[index].note = note
        alive.remove(index)
        print(f"safetile: autotune '{self.name}': dropped config {index} ({outcomes[index].config}): {note}",
              file=sys.stderr)

    # -- ahead of time -----------------------------------------------------------

    def _prebuild(self, target: str, indices: Sequence[int], args: tuple[Any, ...],
                  kwargs: Mapping[str, Any]) -> None:
        """Build the cubins of candidates ``indices`` in parallel (compile errors are met again, and
        reported, when each is compiled in turn)."""
        jobs = []
        for i in indices:
            try:
                jobs.append((self.candidates[i], self.candidates[i].specialize(**self._specs(self.configs[i], args,
                                                                                            kwargs))))
            except CompileError:
                continue
        compile_in_parallel(jobs, target, compile_options())

    def _build_for_archs(self, archs: Sequence[str], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
        """``$SAFETILE_AOT_ARCHS``: every candidate of this launch built for each arch."""
        for arch in archs:
            self._prebuild(arch, range(len(self.configs)), args, kwargs)

    def warm_up(self, specializations: Iterable[Mapping[str, Any]], *, arch: str | None = None,
                jobs: int | None = None) -> list[WarmedUp]:
        """Every config's variant of each specialization compiled ahead of use (``st.warm_up``):
        with ``arch``, cubins built in parallel (``jobs`` ``tileiras`` at a time, default one per core)
        into the cache for a GPU machine; without, made ready on the backend in use.  A config that
        does not compile is left out with a note."""
        wanted = [(config, candidate, self._retiled_spec(config, values))
                  for values in specializations for config, candidate in zip(self.configs, self.candidates)]
        if arch is None:
            return [w for _, candidate, values in wanted for w in candidate.warm_up([values])]
        pairs: list[tuple[Candidate, Variant]] = []
        for config, candidate, values in wanted:
            try:
                pairs.append((candidate, candidate.specialize(**values)))
            except CompileError as err:
                print(f"safetile: autotune '{self.name}': config {self.configs.index(config)} ({config.text}) "
                      f"does not compile: {_first_line(err)}", file=sys.stderr)
        compile_in_parallel(pairs, arch, compile_options(), jobs)
        done = []
        for candidate, variant in pairs:
            try:
                compiled = compile_variant(candidate, variant, arch, compile_options())  # type: ignore[arg-type]
            except (CompileError, TileirasError) as err:
                print(f"safetile: autotune '{self.name}': {candidate.name} ({variant.entry_name}) does not "
                      f"compile for {arch}: {_first_line(err)}", file=sys.stderr)
                continue
            assert compiled.cubin is not None
            done.append(WarmedUp(compiled.symbol, compiled.cubin.path, compiled.cubin.compiled))
        return done

    def _retiled_spec(self, config: Config, values: Mapping[str, Any]) -> dict[str, Any]:
        """A specialization's values for ``config``: its generics, outputs partitioned as it tiles them."""
        params = self._launch_params
        out = dict(values)
        for i in self._outputs():
            spec = out.get(params[i].name)
            if isinstance(spec, TensorSpec):
                out[params[i].name] = replace(spec, partition=self._tile(config, i, spec.partition))
        return {**out, **config.values}

    # -- the report --------------------------------------------------------------

    def report(self, key: str | None = None) -> str:
        """Markdown tables of the configs' times, for ``key`` or every problem resolved in this process."""
        tunings = [self.tunings[key]] if key is not None else list(self.tunings.values())
        return "\n\n".join(_table(self.name, t) for t in tunings)


def _table(name: str, tuning: Tuning) -> str:
    lines = [f"autotune '{name}' ({tuning.key}): config {tuning.chosen} ({tuning.how}; tuning took "
             f"{tuning.seconds:.1f} s)", "", "| config | time (ms) | |", "|---|---|---|"]
    for n, o in enumerate(tuning.outcomes):
        ms = f"{o.ms:.4f}" if o.ms is not None else "-"
        mark = "chosen" if n == tuning.chosen else (o.note or "")
        lines.append(f"| {n}: {o.config} | {ms} | {mark} |")
    return "\n".join(lines)


def _describe(value: Any) -> str:
    """An argument as a key sees it: a tensor's dtype and shape (a partition's whole tensor), a scalar's value."""
    if isinstance(value, Tensor | Shared):
        return f"{value.dtype.name}{list(value.shape)}"
    if isinstance(value, Partition):
        return f"{value.dtype.name}{list(value.tensor_shape)}"
    return _text(value)


def _partition_of(arg: Any) -> tuple[int, ...] | None:
    return arg.shape if isinstance(arg, Partition) else None


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]


def autotune(configs: Sequence[Config | Mapping[str, Any]], key: Sequence[str] | Callable[..., Any], *,
             prune_configs_by: Callable[[list[Config], dict[str, Any]], Sequence[Config]] | None = None,
             do_bench: Callable[[Callable[[], Any]], float] | None = None, warmup: float = 25.0,
             rep: float = 100.0) -> Callable[[Candidate], Autotuned]:
    """``@st.autotune(configs=[...], key=[...])`` above ``@st.kernel``: see the module doc.

    ``prune_configs_by(configs, args)`` returns the configs worth timing for a
    launch's arguments (by name); ``do_bench(fn)`` replaces the timer (the
    median milliseconds of ``fn()``, which enqueues one launch; given, it
    also times on the CPU interpreter); ``warmup`` and ``rep`` are the
    default timer's milliseconds of warm-up and of timed runs per config."""
    caller = sys._getframe(1)
    where = (caller.f_code.co_filename, caller.f_lineno)

    def wrap(kernel: Candidate) -> Autotuned:
        if not isinstance(kernel, KernelDefinition):
            file, line = where
            raise CompileError(f"@st.autotune wraps a @st.kernel, not {kernel!r}", file, line, 0,
                               source_line(file, line), "put @st.autotune(...) above @st.kernel")
        return Autotuned(kernel, configs, key, prune_configs_by=prune_configs_by, do_bench=do_bench,
                         warmup=warmup, rep=rep, where=where)

    return wrap
