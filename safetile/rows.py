"""The row launcher: which kernel, tile and sm_90 hints a row of a given width and type gets.

A row workload (softmax, rms_norm, layer_norm) has two kernels:

* a one-tile kernel holding ``BM`` whole rows in one ``(BM, BN)`` tile,
  ``BN = row_tile(width)``: the launcher's choice while ``BN`` is at most
  the table's ``widest`` for the element width;
* a looped kernel walking a row in column tiles of ``BN`` (``BM = 1``, a grid
  of one block per row): every wider row.

A ``RowTable`` holds one workload's candidates as data: per element width (16,
32 or 64 bits) a list of rules ``(up_to, choices)``, the first whose ``up_to``
holds the row tile (one-tile kernel) or the width (looped kernel) applying
(``None``: any).  A choice is ``(size, sm_90 hints)``, ``(size, sm_90
hints, sm_90 store hints)`` or ``(size, sm_90 hints, sm_90 store hints, sm_90
load hints)``, ``size`` the elements a block of the one-tile kernel or the
looped kernel's column tile, the store hints ``DIRECT_STORES`` (stores
without the TMA) and the load hints ``DIRECT_LOADS`` (loads without it)
where given.  The first choice is the fastest
``st.autotune`` timed on an H100 (docs/benchmarks.md §5; since run -s6 the
least time summed over the rule's measured cases, a default changed where 1%
or more below the old one's), the default; the others are the runners-up it
also times.  Why data and not
one rule: the fastest tile moves with the workload (rms_norm's looped kernel
wants 2048 columns, layer_norm's 8192) and with the width, and only a timing
decides it.

Invariants of the configs (``RowTable.configs``): a one-tile config's ``BN``
is ``row_tile(width)``, a looped one's ``BM`` is 1; no config is listed twice;
a one-tile kernel's tile of 32-bit (or wider) elements of 8192 or more takes
``occupancy`` 2 at most (at 4 they spill).  The default is what the CPU interpreter and
``SAFETILE_AUTOTUNE=0`` run, and what ``safetile.nn``'s forward rows launch
(a torch op does not time candidates): both pick their tiles here, so a
torch user and an example's user get the same ones.  f64 (``safetile.nn``'s
gradcheck type) is not timed: 4096 elements a block, no hint.

``RowLauncher`` pairs a table with a workload's two kernels: ``launch``
picks the kernel for the width and the ``st.autotune`` of its candidates
(timed on the device at the first launch of each element type and width,
kept on disk: docs/autotune.md), or fixed rows per block (``rows=``).
This module imports no torch (the examples run without it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import safetile as st

Hints = Mapping[str, int]
"""sm_90 tileiras hints (an entry's ``occupancy``, ``num_worker_warps_per_cta``; loads' and stores'
``allow_tma``)."""
Choice = tuple[int, Hints] | tuple[int, Hints, Hints] | tuple[int, Hints, Hints, Hints]
"""(elements a block of the one-tile kernel, or the looped kernel's column tile; sm_90 hints[; sm_90
store hints: ``DIRECT_STORES``[; sm_90 load hints: ``DIRECT_LOADS``]])."""
Rule = tuple[int | None, Sequence[Choice]]
"""(the widest row tile / width the choices serve, ``None``: any; the choices, the default first)."""

REREAD = 1 << 15
"""Elements of a row (64 KiB of 16-bit, 128 KiB of f32) that the looped kernels' first pass reads
last, so that the second pass's first tiles are still in L2: the first pass starts at column tile
``REREAD // BN`` and wraps round to it (the kernels' ``REREAD`` generic; 0: left to right).  Read
left to right, a row wider than a block's share of L2 (50 MB over 264 blocks in flight at occupancy
2, about 190 KB, half of it taken by the second pass's own writes) is re-read from DRAM whole: its
first tiles, which the second pass reads first, are the ones evicted first.  Measured on an H100
(docs/benchmarks.md §5, run -s5, the same config each way): 32768 against left to right 1.09-1.12x at
65,536 16-bit columns, 1.00-1.04x at 262,144 and in f32; 65536 no faster than left to right.
layer_norm's looped kernel walks left to right: in two loops its candidates spilled or ran slower."""

SPILL_FREE_F32_TILE = 8192
"""The one-tile kernels' 32-bit tiles of this many elements or more take ``occupancy`` 2 at most: at 4
they spill."""


def row_tile(width: int) -> int:
    """The smallest power of two holding ``width`` columns (by comparisons: a symbolic width under
    ``torch.compile`` becomes guards, so a trace holds for one power of two)."""
    tile = 1
    while tile < width:
        tile *= 2
    return tile


def sm_90(**values: int) -> dict[str, dict[str, int]]:
    """Hints for sm_90 (a config's ``optimization_hints``)."""
    return {"sm_90": values}


def hint_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """A config's kernel options (``optimization_hints``, ``store_hints`` where it has them): what
    ``kernel.with_options`` takes to launch the config's variant outside ``st.autotune``."""
    return {name: value for name, value in config.items() if name.endswith("_hints")}


def _rule(rules: Sequence[Rule], n: int) -> Sequence[Choice]:
    return next(choices for up_to, choices in rules if up_to is None or n <= up_to)


@dataclass(frozen=True)
class RowTable:
    """One row workload's candidates (the module doc says how they are read)."""

    name: str
    one_tile: Mapping[int, Sequence[Rule]]
    """Element bits -> rules by the row tile."""
    looped: Mapping[int, Sequence[Rule]]
    """Element bits -> rules by the width."""
    widest: Mapping[int, int] = field(default_factory=lambda: {16: 8192, 32: 8192, 64: 8192})
    """Element bits -> the widest row tile the one-tile kernel takes."""

    def is_looped(self, width: int, dtype: st.DType) -> bool:
        """Whether rows of ``width`` take the looped kernel."""
        return row_tile(width) > self.widest[dtype.bits]

    def configs(self, width: int, dtype: st.DType) -> list[dict[str, Any]]:
        """The candidates for rows of ``width`` columns, the default first (the kernel
        ``is_looped`` says): ``BM``, ``BN``, ``optimization_hints``."""
        looped = self.is_looped(width, dtype)
        tile = row_tile(width)
        found: list[dict[str, Any]] = []
        rules = (self.looped if looped else self.one_tile)[dtype.bits]
        for size, hints, *memory in _rule(rules, width if looped else tile):
            rows, columns = (1, size) if looped else (max(1, size // tile), tile)
            if not looped and dtype.bits >= 32 and rows * columns >= SPILL_FREE_F32_TILE and \
                    hints.get("occupancy", 0) > 2:
                hints = dict(hints, occupancy=2)
            config = dict(BM=rows, BN=columns, optimization_hints=sm_90(**hints))  # sm_90() : no hint
            for option, values in zip(("store_hints", "load_hints"), memory):
                config[option] = sm_90(**values)
            if config not in found:
                found.append(config)
        return found

    def default(self, width: int, dtype: st.DType) -> dict[str, Any]:
        """The default config (the first candidate)."""
        return self.configs(width, dtype)[0]

    def hints(self, *, E: st.DType, BM: int, BN: int, N: int, **_: Any) -> dict[str, dict[str, int]]:
        """A one-tile kernel's ``optimization_hints`` function (``safetile.nn``'s forward rows): the
        default's hints for rows of ``N`` columns where ``(BM, BN)`` is its tile, else none."""
        return self._default_option("optimization_hints", E=E, BM=BM, BN=BN, N=N)

    def store_hints(self, *, E: st.DType, BM: int, BN: int, N: int, **_: Any) -> dict[str, dict[str, Any]]:
        """A one-tile kernel's ``store_hints`` function (``safetile.nn``'s forward rows): the
        default's store hints (``DIRECT_STORES``) for rows of ``N`` columns where ``(BM, BN)`` is its
        tile, else none."""
        return self._default_option("store_hints", E=E, BM=BM, BN=BN, N=N)

    def load_hints(self, *, E: st.DType, BM: int, BN: int, N: int, **_: Any) -> dict[str, dict[str, Any]]:
        """A one-tile kernel's ``load_hints`` function (``safetile.nn``'s forward rows): the
        default's load hints (``DIRECT_LOADS``) for rows of ``N`` columns where ``(BM, BN)`` is its
        tile, else none."""
        return self._default_option("load_hints", E=E, BM=BM, BN=BN, N=N)

    def _default_option(self, option: str, *, E: st.DType, BM: int, BN: int, N: int) -> dict[str, dict[str, Any]]:
        config = self.default(N, E)
        return dict(config.get(option, {})) if (config["BM"], config["BN"]) == (BM, BN) else {}


_F64: Mapping[int, Sequence[Rule]] = {64: [(None, [(4096, {})])]}
DIRECT_STORES: Hints = {"allow_tma": False}
"""sm_90 store hints: the tile stored by plain global writes (``STG``), not the TMA.  For softmax
(plain loads: its ``-inf`` padding is none the TMA fills) tileiras then builds a block of one
warpgroup, 128 threads, where with TMA stores it adds a second warpgroup (256 threads, one warp
of it issuing the stores) and stages the tile in shared memory: half the threads an SM holds did
no arithmetic.  ``softmax_row`` f16 at 1024 columns, one row a block (sm_90, tileiras 13.4): 23
registers, 128 threads, 304 instructions a thread against 384 with TMA stores; a row of 4096: 56
registers, its 4 loads a thread issued together.  The norms load through the TMA (zero padding)
unless their loads are direct too (``DIRECT_LOADS``): with TMA loads their blocks keep the second
warpgroup either way."""
DIRECT_LOADS: Hints = {"allow_tma": False}
"""sm_90 load hints: the tile loaded by plain global reads (``LDG``, padding by predicated loads), not
the TMA into shared memory.  With ``DIRECT_STORES`` too, the norms' one-tile blocks are built as
softmax's (one warpgroup storing from registers): ``rms_norm_row`` f16 at 1024 columns, one row a
block, 28 registers and 128 threads (``layer_norm_row`` 34), where with TMA loads and no hint it is
255 registers over 256 threads (sm_90, tileiras 13.4).  Softmax loads this way already (its ``-inf``
padding is none the TMA fills).  Measured (run -s7, docs/benchmarks.md §5): 16-bit rms_norm's default
up to 2048 columns (1.6% less time than TMA loads and stores), a tie for the f32 norms at 256-1024
columns, slower for 16-bit layer_norm (1.03-1.06x) and at 4096 and 16384 columns (1.06-1.64x); run -s8:
16-bit layer_norm's 8 rows of 1024 at occupancy 4 loaded directly, 0.4% under TMA loads (the tuner's
pick at 1024 columns, 1.24x at 256)."""
WARPS_8: Hints = {"num_worker_warps_per_cta": 8}
"""Eight worker warps a block (256 threads), no occupancy hint.  One row of 1024 a block so, stored (the
norms also loaded) directly, takes 20-24 registers (sm_90, tileiras 13.4), the fewest of any row config:
100% occupancy (93% achieved) where Triton's one row of 4 warps has 25-32.  Timed in run -s8b2
(docs/benchmarks.md §5), it stays a candidate for the f32 norms at 1024 columns only (rms_norm's
pick there, 0.4% under the default: a tie); for 16-bit rows it ran 1.18-1.43x the pick's time (ncu:
73-76% of the issue slots busy, 1.7x softmax's pick's instructions, 2.6x layer_norm's), two rows so
1.02-1.33x, dropped."""
WARPS_8_OCCUPANCY_2: Hints = {"num_worker_warps_per_cta": 8, "occupancy": 2}
"""Eight worker warps a block, two blocks a multiprocessor (80 registers): the looped softmax's and
16-bit rms_norm's pick (runs -B and -C, docs/benchmarks.md §5)."""

_NORM_F32_UP_TO_1024: Sequence[Choice] = [
    (2048, {"occupancy": 6}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6}, DIRECT_STORES),
    (1024, {}, DIRECT_STORES, DIRECT_LOADS)]
_NORM_F32_ONE_TILE: Sequence[Rule] = [
    (512, _NORM_F32_UP_TO_1024),
    (1024, [*_NORM_F32_UP_TO_1024, (1024, WARPS_8, DIRECT_STORES, DIRECT_LOADS)]),
    (8192, [(4096, {"occupancy": 4}), (2048, {"occupancy": 6})])]
"""rms_norm's and layer_norm's f32 one-tile rules up to 8192 columns (the same runs chose the same for
both): 2048 elements a block at occupancy 6 up to 1024 columns (40 registers), 4096 at 4 wider; direct
stores tie (run -s6: 0.2-0.9% slower), and so do direct loads and stores, 1024 elements a block (32-45
registers, 128 threads; run -s7: the summed time 0.999-1.001x the default's).  A row of 16384 takes one
tile at occupancy 2 (128 registers, no spill; run -B), each table's own rule: loaded and stored
directly with 8 worker warps (95-135 registers) it ran 1.19x (rms_norm) and 1.64x (layer_norm) the
default's summed time in run -s7, dropped.  At 1024 columns one row with ``WARPS_8`` too (24-32
registers; run -s8b2: rms_norm's pick at 0.996x the default's time, layer_norm 1.012x; two rows at
occupancy 8 with TMA stores, 32 registers and 100% occupancy against the default's 75%, 1.003-1.004x,
dropped)."""
_NORM_ROW_16384: Sequence[Choice] = [(16384, {"occupancy": 2}), (16384, {"occupancy": 2}, DIRECT_STORES),
                                     (16384, {"num_worker_warps_per_cta": 8}), (16384, {})]
"""A norm's row of 16384 in one tile, TMA stores first: rms_norm's (direct stores 0.5-1.1% faster in
run -s6, within the noise); layer_norm puts direct stores first."""

SOFTMAX = RowTable(
    "softmax",
    one_tile={
        # 16-bit, DIRECT_STORES (run -s6, docs/benchmarks.md §5: the least time summed over f16 and bf16,
        # softmax and log-softmax): 1024 elements a block up to 1024 columns (23 registers, 128 threads:
        # 1.10-1.11x the 4096 at occupancy 6 with TMA stores shipped before, 1.11-1.14x at 256 columns); wider,
        # 8192 at 6 up to 4096 (2 rows of 4096: 1.12x the 8192 at 4 with TMA stores), 4096 with 8 warps
        # the log-softmax's pick (1-2% either way).  The TMA-store candidates ran 10-48% slower and left.
        # 4096 elements a block with no hint up to 1024 columns (4 rows of 1024: 56 registers, 23 instructions
        # an element against one row's 38, sm_90 SASS) ran 1.08x the default's summed time in run -s7: dropped.
        # Rows of 2048 columns were not timed (the same candidates); rows of 8192 were not either: they
        # keep the 8192 at 4 with TMA stores first (safetile.nn's softmax spills 32 bytes with direct
        # stores at occupancy 6 there), direct stores with no hint and with 8 warps (80 and 56
        # registers) its runners-up.  Run -s8b2 at 1024 columns: one and two rows with 8 worker warps, directly
        # stored (20-22 and 26-28 registers), 1.36-1.43x and 1.04-1.05x the pick's time; f32 one row so (20-22)
        # 1.016-1.018x, two rows at occupancy 8 with TMA stores (32 registers, 100% occupancy) 1.008-1.012x:
        # dropped.  ncu: the pick (one row, 23 registers) already runs at 100% occupancy (88% achieved)
        16: [(1024, [(1024, {}, DIRECT_STORES), (4096, {"occupancy": 8}, DIRECT_STORES), (2048, {}, DIRECT_STORES)]),
             (4096, [(8192, {"occupancy": 6}, DIRECT_STORES), (4096, {"num_worker_warps_per_cta": 8}, DIRECT_STORES),
                     (4096, {}, DIRECT_STORES)]),
             (None, [(8192, {"occupancy": 4}), (8192, {}, DIRECT_STORES),
                     (8192, {"num_worker_warps_per_cta": 8}, DIRECT_STORES)])],
        # f32: 1024 at 8 up to 1024 columns (32 registers), 4096 at 4 up to 8192; a row of 16384 in one
        # tile at occupancy 2 (128 registers, no spill: 0.99 of Triton, 0.71-0.75 looped; run -B).  Direct
        # stores tie there (run -s6: within 0.1-0.9%); a row of 16384 with no hint and TMA stores ran 1.15x
        # the default's time, dropped
        32: [(1024, [(1024, {"occupancy": 8}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6}),
                     (1024, {}, DIRECT_STORES)]),
             (8192, [(4096, {"occupancy": 4}), (2048, {"occupancy": 6}), (4096, {}, DIRECT_STORES),
                     (4096, {"num_worker_warps_per_cta": 8}, DIRECT_STORES)]),
             (None, [(16384, {"occupancy": 2}), (16384, {}, DIRECT_STORES),
                     (16384, {"num_worker_warps_per_cta": 8}, DIRECT_STORES),
                     (16384, {"num_worker_warps_per_cta": 8})])],
        **_F64},
    looped={
        # 8 worker warps at occupancy 2 with DIRECT_STORES (256 threads where TMA stores made 384; run -s6,
        # the least time summed over the types' cases): 16-bit tiles of 8192 up to 16384 columns (71
        # registers: 1.22x the tiles of 16384 with TMA stores shipped before, which came 1.02-1.08x the 8192
        # at 3, run -C), tiles of 16384 wider (103 registers: 1.14-1.15x the same tiles with TMA stores);
        # f32 tiles of 8192 (72 registers: 1.14-1.15x with TMA stores, which came 1.2-1.4x the 8192 at 3,
        # run -B).  The other TMA-store candidates (occupancy 1-3, no warps hint) ran 1.24-2.7x the
        # default's time and left; a load latency of 4 was slower everywhere, 2048 always.  8 warps at
        # occupancy 2 lost to the one-tile kernel's candidates at 256-4096 columns (run -C).  16-bit tiles of
        # 4096 at 2 spill (120-320 bytes) since the first pass runs in two loops (REREAD), dropped (run -s5);
        # with direct stores bf16 ones at 3 spill 336 bytes, with 8 warps at 2 they take 55 registers and
        # ran 1.12x the default's time.  f32 tiles of 16384 with 8 warps at 2, direct stores (105 registers,
        # run -s8): the pick of softmax and log-softmax at 65,536 and log-softmax at 262,144 columns (f32
        # log-softmax at 65,536 2013 GB/s against 1941 with tiles of 8192 in run -s7; that run's tuning
        # times were not kept, so the default stays)
        16: [(16384, [(8192, WARPS_8_OCCUPANCY_2, DIRECT_STORES), (16384, WARPS_8_OCCUPANCY_2, DIRECT_STORES),
                      (16384, WARPS_8_OCCUPANCY_2), (4096, WARPS_8_OCCUPANCY_2, DIRECT_STORES)]),
             (None, [(16384, WARPS_8_OCCUPANCY_2, DIRECT_STORES), (8192, WARPS_8_OCCUPANCY_2, DIRECT_STORES),
                     (16384, WARPS_8_OCCUPANCY_2)])],
        32: [(None, [(8192, WARPS_8_OCCUPANCY_2, DIRECT_STORES), (4096, WARPS_8_OCCUPANCY_2, DIRECT_STORES),
                     (8192, WARPS_8_OCCUPANCY_2), (16384, WARPS_8_OCCUPANCY_2, DIRECT_STORES)])],
        **_F64},
    widest={16: 8192, 32: 16384, 64: 8192},
)
"""Softmax and log-softmax (``examples/softmax.py``, ``safetile.nn.softmax``)."""

RMS_NORM = RowTable(
    "rms_norm",
    one_tile={
        # 16-bit: up to 2048 columns (row tiles of 256-2048), 1024 elements a block loaded and stored directly
        # with no hint (run -s7: 28 registers, 128 threads; 0.984x the summed time of the 8192 at occupancy 4
        # with TMA loads and stores shipped before, chosen at 256 and f16 1024; 4096 at occupancy 8, direct,
        # chosen at bf16 1024, 1.013x; the 4096 at 4 and 2048 at 6 with TMA loads, 1.05x, left); 8192
        # elements a block at occupancy 4 at rows of 128 columns or fewer and of 8192 (1.04-1.07x the 4096
        # shipped before), but one row of
        # 4096 at 6 (chosen in runs -B and -C, 1.01-1.02x; loaded and stored directly with 8 warps 1.056x,
        # run -s7, dropped); f32 2048 at 6 up to 1024 columns (40 registers),
        # 4096 at 4 wider; a row of 16384 in one tile at occupancy 2 (128 registers, no spill: 0.99-1.00 of
        # Triton, 0.81-0.85 looped; run -B).  Direct stores at 8192 a block: within 1% up to 1024 columns
        # (run -s6; at rows of 128 columns or fewer, 64 rows a block and more, f16 spills 216 bytes).  Run -s8b2
        # at 1024 columns: one and two rows with 8 worker warps, direct (22 and 32 registers), 1.18-1.19x / 1.02x
        # the default's time, dropped
        16: [(128, [(8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]),
             (2048, [(1024, {}, DIRECT_STORES, DIRECT_LOADS), (4096, {"occupancy": 8}, DIRECT_STORES, DIRECT_LOADS),
                     (8192, {"occupancy": 4}), (8192, {"occupancy": 4}, DIRECT_STORES)]),
             (4096, [(4096, {"occupancy": 6}), (8192, {"occupancy": 4}), (4096, {"occupancy": 4})]),
             (8192, [(8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]),
             (None, _NORM_ROW_16384)],
        32: [*_NORM_F32_ONE_TILE, (None, _NORM_ROW_16384)],
        **_F64},
    looped={
        # 16-bit (wider than 16384 columns): tiles of 16384, 8 worker warps at occupancy 2 (80 registers:
        # 1.07-1.11x the 4096 at 2 of run -e, run -B; tiles of 8192 spill at occupancy 1 and with 8 warps);
        # f32 2048 at 3 (chosen in runs -e, -B and -C at 65,536 columns; run -s5 chose 4096 at 1 there and
        # 8192 with 8 warps at 2 at 262,144, 1.02-1.04x its run -C figures); bf16 tiles of 4096 at 3 spill
        # (56 bytes) since the first pass runs in two loops, dropped
        16: [(None, [(16384, WARPS_8_OCCUPANCY_2), (4096, {"occupancy": 2}), (8192, {"occupancy": 3}),
                     (4096, {"occupancy": 1})])],
        32: [(None, [(2048, {"occupancy": 3}), (2048, {"occupancy": 2}), (4096, {"occupancy": 3}),
                     (8192, {"occupancy": 2}), (4096, {"occupancy": 1}), (8192, WARPS_8_OCCUPANCY_2)])],
        **_F64},
    widest={16: 16384, 32: 16384, 64: 8192},
)
"""RMS normalization (``examples/rms_norm.py``, ``safetile.nn.rms_norm``)."""

_LAYER_NORM_ROW_16384: Sequence[Choice] = [(16384, {"occupancy": 2}, DIRECT_STORES), (16384, {"occupancy": 2}),
                                           (16384, {"num_worker_warps_per_cta": 8})]
"""layer_norm's row of 16384 in one tile: occupancy 2 with DIRECT_STORES (128 registers, no spill:
1.03-1.07x TMA stores in both calls of run -s6; those 1.46x no hint (dropped since run -s7), 1.5x the
looped kernel, run -B)."""

_LAYER_NORM_16_UP_TO_2048: Sequence[Choice] = [
    (8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6}),
    (8192, {"occupancy": 4}, DIRECT_STORES), (16384, {"occupancy": 2}, DIRECT_STORES),
    (8192, {"occupancy": 4}, DIRECT_STORES, DIRECT_LOADS)]
"""16-bit layer_norm's one-tile candidates at row tiles of 256-2048 (``LAYER_NORM``'s comment says what each
ran)."""

LAYER_NORM = RowTable(
    "layer_norm",
    one_tile={
        # 16-bit: 8192 elements a block at occupancy 4 (1.1-1.2x the 4096 shipped before), one row of 4096 at
        # 6 (as rms_norm); a row of 16384 in
        # one tile at 2 (128 registers, no spill: 1.46x no hint, 1.5x the looped kernel); f32 as rms_norm,
        # a row of 16384 in one tile at 2 too (0.96 of Triton, 0.67 looped; run -B).  Direct stores at 8192
        # a block: 1.01x at 1024 columns (run -s6; at rows of 128 columns or fewer f16 spills 240 bytes).
        # Loaded and stored directly (run -s7), as rms_norm's default: 1024 a block 1.06x the default's summed
        # time at 256-1024 columns, 4096 at occupancy 8 1.028x, a row of 4096 with 8 warps 1.13x: dropped.
        # Run -s8 (tuning.md of -s8b): 8192 loaded and stored directly at occupancy 4 (85 registers) the pick
        # at 1024 columns (0.995-0.996x the time of direct stores alone, 0.98x the 16384 at 2), 1.24x the
        # default at 256 columns: the summed time keeps the default (direct stores alone 0.995x it); 2048
        # loaded directly with no hint 1.05x the pick, dropped, as 4, 8 and 16 rows of 1024 with 8 worker
        # warps, direct (56-91 registers: 1.34-1.59x).  The counters (ncu, docs/benchmarks.md §5 "Run -s8"):
        # the pick at 31% occupancy (its 85 registers), one row a block (34) at 68% issuing 1.65x the
        # pick's instructions; Triton's one row of 4 warps at 93% with 32 registers.  Run -s8b2: the same 8 rows
        # at occupancy 8 and 6 (64 and 71 registers, no spill at 1024 columns) ran 1.011-1.013x / 1.008-1.011x
        # the pick's time (f16, bf16); ncu: at occupancy 8 47.6% achieved against the pick's 30.2%, 88.6 µs
        # against 88.8, 83.5% of the DRAM peak either way: occupancy is not what holds the pick back.  One
        # and two rows with 8 warps (24 and 44 registers) 1.34-1.40x / 1.32-1.33x.  All dropped
        16: [(128, [(8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]),
             (2048, _LAYER_NORM_16_UP_TO_2048),
             (4096, [(4096, {"occupancy": 6}), (8192, {"occupancy": 4}), (4096, {"occupancy": 4})]),
             (8192, [(8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]),
             (None, _LAYER_NORM_ROW_16384)],
        32: [*_NORM_F32_ONE_TILE, (None, _LAYER_NORM_ROW_16384)],
        **_F64},
    looped={
        # 16-bit: 8192 at occupancy 2 (1.4x no hint); f32 16384 at occupancy 1 (1.1x the 8192 at 3 of run -e;
        # run -B; f32 tiles of 4096 only at 3 or with no hint, bf16 ones of 2048 not at 2: those spill)
        16: [(None, [(8192, {"occupancy": 2}), (8192, {"occupancy": 3}), (8192, {}), (8192, {"occupancy": 1}),
                     (16384, {"occupancy": 1})])],
        32: [(None, [(16384, {"occupancy": 1}), (8192, {"occupancy": 3}), (4096, {"occupancy": 3}), (4096, {}),
                     (8192, {"occupancy": 2}), (8192, WARPS_8_OCCUPANCY_2)])],
        **_F64},
    widest={16: 16384, 32: 16384, 64: 8192},
)
"""Layer normalization (``examples/layer_norm.py``, ``safetile.nn.layer_norm``)."""


class RowLauncher:
    """A workload's launcher: ``table``'s choice between ``one_tile`` and ``looped`` (two
    ``@st.kernel``s taking ``(z, x, *args)``, ``z`` tiled ``(BM, BN)``), tuned per element type
    and width.  ``key_generics`` name the keyword generics that make a new tuning problem
    (softmax's ``LOG``); the number of rows never does."""

    def __init__(self, table: RowTable, one_tile: Any, looped: Any, key_generics: Sequence[str] = ()) -> None:
        self.table = table
        self.one_tile = one_tile
        self.looped = looped
        self.key_generics = tuple(key_generics)
        self.tuned_kernels: dict[tuple[bool, str, int], Any] = {}
        """This process's tuned kernels by (looped, element type, width): ``report()`` says what each chose."""

    def tuning_key(self, z: Any, x: Any, *_: Any, **generics: Any) -> tuple[Any, ...]:
        """What makes a new tuning problem: the element type, the row width, ``key_generics``."""
        return (x.dtype.name, x.shape[1], *(generics.get(name, 0) for name in self.key_generics))

    def tuned(self, width: int, dtype: st.DType) -> Any:
        """The ``st.autotune`` of the width's kernel over its candidates (one per looped, type, width)."""
        looped = self.table.is_looped(width, dtype)
        key = (looped, dtype.name, width)
        if key not in self.tuned_kernels:
            self.tuned_kernels[key] = st.autotune(configs=self.table.configs(width, dtype), key=self.tuning_key,
                                                  warmup=10, rep=40)(self.looped if looped else self.one_tile)
        return self.tuned_kernels[key]

    def launch(self, z: st.Tensor | st.Partition, x: st.Tensor, *args: Any, rows: int | None = None,
               **generics: Any) -> st.DeviceOp:
        """``kernel(z, x, *args, **generics)``: the one-tile kernel where a row fits its widest tile,
        else the looped one on a grid of one block per row block, with the tile and hints
        ``st.autotune`` picks for the type and width; ``rows`` fixes the rows per block instead
        (the default column tile, the kernel's own hints, no tuning).  ``z`` comes back as passed
        (a Partition tiled as the chosen config tiles it)."""
        width = x.shape[1]
        looped = self.table.is_looped(width, x.dtype)
        if rows is None:
            grid = dict(grid=(x.shape[0],)) if looped else {}
            return self.tuned(width, x.dtype)(z, x, *args, **generics, **grid)
        tile = (rows, self.table.default(width, x.dtype)["BN"])
        kernel, grid = (self.looped, dict(grid=(-(-x.shape[0] // rows),))) if looped else (self.one_tile, {})
        tensor = z.unpartition() if isinstance(z, st.Partition) else z
        op = kernel(tensor.partition(tile), x, *args, **generics, **grid)
        return op if isinstance(z, st.Partition) else op.then(lambda out: (out[0].unpartition(), *out[1:]))
