"""Differential test of bounds-check elision: with or without it, the same answer.

Random small kernels (a few templates, with tile sizes, constant offsets and
loop bounds drawn by hypothesis) index partitions near and past their ends;
random tensor sizes and scalar arguments put the indices in range, on the
edge, or out.  Each case runs on the interpreter twice:

* *kept*: the frontend's IR through the safety steps without
  ``bounds-check-elision`` — every index check stays an assert at its access;
* *elided*: a normal launch — checks discharged statically, hoisted to the
  host as launch checks, or hoisted in the kernel.

Both must store the same values, or both refuse (an assert in the kernel, or
a refused launch).  A refusal by the elided run alone is a *false refusal*: a
launch check stricter than the index math (``(pid + 4) % 3`` checked as if
index 2 were reached).  A failure prints the case (kernel source and
arguments) and hypothesis's reproduction blob.

The number of cases is the ``differential`` settings profile's:
``$SAFETILE_DIFFERENTIAL_CASES``, else 300 in the full tier (``make
test-full``) and 60 in ``make test`` (``support.examples``); the
bar for a change to the index analysis is 30000 cases without a failure; met
on 2026-11-27 with the tight launch checks: 30000 cases, no failure and no
false refusal, 17.5 minutes on a 2-core machine).
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import os
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile.backend.interpreter import run_kernel
from safetile.backend.interpreter.errors import InterpreterError
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp
from safetile.frontend.kernel import context
from safetile.passes.lower_tile_safety import LowerTileSafety
from safetile.passes.partition_disjointness import PartitionDisjointness
from safetile.passes.token_order import TokenOrder
from safetile.runtime.errors import LaunchRefused
from support import examples

TEMPLATES = {
    # The block's tile, shifted by a constant.
    "shifted": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            z.store(x.partition((T,)).load((pid[0] + C,)))
    """,
    # A tile chosen by a scalar argument.
    "scalar": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            z.store(x.partition((T,)).load((n + C,)))
    """,
    # A loop over runtime bounds.
    "runtime_loop": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            px = x.partition((T,))
            acc = st.zeros((T,), f32)
            for j in range(C, n):
                acc = acc + px.load((j,))
            z.store(acc)
    """,
    # A loop over constant bounds.
    "constant_loop": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            px = x.partition((T,))
            acc = st.zeros((T,), f32)
            for j in range(C, C + 2):
                acc = acc + px.load((j,))
            z.store(acc)
    """,
    # A loop over the partition's own tiles, read at an offset.
    "num_tiles_loop": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            px = x.partition((T,))
            acc = st.zeros((T,), f32)
            for j in range(st.num_tiles(px, 0)):
                acc = acc + px.load((j + C,))
            z.store(acc)
    """,
    # The Python remainder of the block id: (pid + C) % D reaches D - 1 only on a grid of enough blocks.
    "remainder": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            z.store(x.partition((T,)).load(((pid[0] + C) % D,)))
    """,
    # The floor quotient of the block id.
    "quotient": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            z.store(x.partition((T,)).load(((pid[0] + C) // D,)))
    """,
    # The block id clamped from above.
    "minimum": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            z.store(x.partition((T,)).load((min(pid[0] + C, D),)))
    """,
    # The block id clamped from below.
    "maximum": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            z.store(x.partition((T,)).load((max(pid[0] + C, D - 2),)))
    """,
    # A loop over the block's own tiles of x, folded by a remainder.
    "remainder_loop": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            px = x.partition((T,))
            acc = st.zeros((T,), f32)
            for j in range(C + 1, C + 1 + D):
                acc = acc + px.load((j % D,))
            z.store(acc)
    """,
    # A loop-invariant access in a loop of runtime trips (it may never run: no launch check).
    "invariant_in_loop": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            px = x.partition((T,))
            acc = st.zeros((T,), f32)
            for j in range(n):
                acc = acc + px.load((pid[0] + C,))
            z.store(acc)
    """,
    # An access under a runtime condition (it may never run: no launch check).
    "guarded": """
        def k(z: st.Mut[f32, (T,)], x: st.Ref[f32, (-1,)], n: i32):
            pid = st.tile_block_id()
            t = st.zeros((T,), f32)
            if pid[0] < n:
                t = x.partition((T,)).load((pid[0] + C,))
            z.store(t)
    """,
}


@dataclass(frozen=True)
class Case:
    template: str
    tile: int
    offset: int
    out_len: int
    in_len: int
    n: int
    divisor: int = 3
    """``D`` in the templates: a remainder's or quotient's divisor, a clamp's bound."""

    def source(self) -> str:
        body = (textwrap.dedent(TEMPLATES[self.template]).replace("(T,)", f"({self.tile},)")
                .replace("C", str(self.offset)).replace("D", str(self.divisor)))
        return f"import safetile as st\nfrom safetile import f32, i32\n\n\n@st.kernel\n{body.strip()}\n"


_KERNELS: dict[str, Any] = {}
_counter = itertools.count()


def kernel_of(case: Case, folder: Path) -> Any:
    """The kernel of ``case``'s source (imported once per distinct source)."""
    text = case.source()
    if text not in _KERNELS:
        path = folder / f"differential_{next(_counter)}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _KERNELS[text] = module.k
    return _KERNELS[text]


def inputs(case: Case) -> tuple[np.ndarray, np.ndarray]:
    x = np.arange(1, case.in_len + 1, dtype=np.float32)
    z = np.full(case.out_len, -1.0, dtype=np.float32)
    return z, x


def run_kept(kernel: Any, case: Case) -> np.ndarray | None:
    """Every check an assert at its access; None if the kernel refuses."""
    variant = kernel.specialize()
    module = ModuleOp([TileModuleOp("m", [variant.entry.clone()])])
    for step in (PartitionDisjointness(), TokenOrder(), LowerTileSafety()):
        step.apply(context(), module)
    z, x = inputs(case)
    arrays = {"z": z, "x": x}
    args: list[Any] = []
    for p in variant.params:
        name, _, rest = p.name.partition(".")
        if name == "n":
            args.append(case.n)
        elif not rest:
            args.append(arrays[name])
        else:
            what, dim = rest.rstrip("]").split("[")
            a = arrays[name]
            args.append(a.shape[int(dim)] if what == "shape" else a.strides[int(dim)] // a.itemsize)
    try:
        run_kernel(module, (math.ceil(case.out_len / case.tile), 1, 1), args)
    except InterpreterError:
        return None
    return z


def run_elided(kernel: Any, case: Case) -> np.ndarray | None:
    """A normal launch (launch checks, hoisted asserts); None if it refuses."""
    z, x = inputs(case)
    try:
        out, _, _ = kernel(st.from_numpy(z).sync().partition((case.tile,)), st.from_numpy(x).sync(), case.n).sync()
    except (InterpreterError, LaunchRefused):
        return None
    return out.unpartition().numpy()


@hs.composite
def cases(draw: Any) -> Case:
    tile = draw(hs.sampled_from([4, 8]))
    out_tiles = draw(hs.integers(1, 3))
    # Sizes on and around tile boundaries: a partial last tile, an exact fit, one more.
    out_len = out_tiles * tile - draw(hs.integers(0, tile - 1))
    in_tiles = out_tiles + draw(hs.integers(-1, 2))
    in_len = max(1, in_tiles * tile - draw(hs.sampled_from([0, 1, tile - 1])))
    return Case(
        template=draw(hs.sampled_from(sorted(TEMPLATES))),
        tile=tile,
        offset=draw(hs.integers(-1, 4)),
        out_len=out_len,
        in_len=in_len,
        n=draw(hs.integers(-1, 4)),
        divisor=draw(hs.integers(1, 4)),
    )


CASES_ENV = "SAFETILE_DIFFERENTIAL_CASES"
settings.register_profile(
    "differential",
    max_examples=int(os.environ.get(CASES_ENV) or examples(300)),
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@settings(settings.get_profile("differential"))
@given(case=cases())
def test_elision_changes_no_answer(case: Case, tmp_path: Path) -> None:
    kernel = kernel_of(case, tmp_path)
    kept, elided = run_kept(kernel, case), run_elided(kernel, case)
    described = f"{case}\n{case.source()}"
    if kept is None or elided is None:
        assert kept is None and elided is None, (
            f"one run refused and the other did not (kept refused: {kept is None}):\n{described}"
        )
    else:
        np.testing.assert_array_equal(elided, kept, err_msg=described)


def test_the_cases_reach_both_outcomes(tmp_path: Path) -> None:
    """The templates give answers and refusals (a harness that never refuses proves little)."""
    refused = set()
    for template in sorted(TEMPLATES):
        for n, offset in ((0, 0), (9, 2)):
            case = Case(template, 4, offset, 8, 8, n)
            refused.add(run_kept(kernel_of(case, tmp_path), case) is None)
    assert refused == {True, False}


def test_a_remainder_is_refused_only_where_a_block_reaches_the_index(tmp_path: Path) -> None:
    """``(pid + 4) % 3`` is at most 2 but reaches 2 only from 2 blocks on: one block with 2 tiles
    of ``x`` runs (index 1); the launch check ``2 < tiles`` refused it.  Three blocks reach 2."""
    one_block = Case("remainder", 4, 4, 4, 8, 0, 3)
    kernel = kernel_of(one_block, tmp_path)
    np.testing.assert_array_equal(run_elided(kernel, one_block), [5.0, 6.0, 7.0, 8.0])
    assert not [c for c in kernel.compile_variant().launch_checks if "2 <" in str(c)]
    three_blocks = Case("remainder", 4, 4, 12, 8, 0, 3)
    assert run_kept(kernel, three_blocks) is None and run_elided(kernel, three_blocks) is None
