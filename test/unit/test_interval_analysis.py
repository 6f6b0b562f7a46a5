"""Property tests of passes/analyses/intervals.py: claimed bounds hold on concrete runs.

Each example is a random index expression (a start — block id, loop
variable, constant or assumed-bounded argument — then a chain of
``addi``/``subi`` with constants, ``divi`` by a positive constant rounding
toward zero or -inf, and the ``remi`` + ``select`` of Python's ``%``), built
as Tile IR and analysed; then a
random concrete launch (tensor sizes, block id, loop iteration, argument
value) evaluates it, and the value must lie in the claimed interval.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.frontend.kernel import context
from safetile.passes.analyses.intervals import Bound, IntervalAnalysis
from support import examples

TILE_Z, TILE_X = 16, 8
STARTS = ("bid", "k", "const", "assumed")

steps = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["addi", "subi"]), st.integers(-5, 5)),
        st.tuples(st.sampled_from(["divi_zero", "divi_floor", "pymod"]), st.integers(1, 5)),
    ),
    max_size=4,
)


def _step(i: int, op: str, c: int) -> list[str]:
    """Tile IR computing ``%v{i+1}`` from ``%v{i}``."""
    const = f"%c{i} = constant <i32: {c}> : tile<i32>"
    if op in ("addi", "subi"):
        return [const, f"%v{i + 1} = {op} %v{i}, %c{i} : tile<i32>"]
    if op == "divi_zero":
        return [const, f"%v{i + 1} = divi %v{i}, %c{i} signed : tile<i32>"]
    if op == "divi_floor":
        return [const, f"%v{i + 1} = divi %v{i}, %c{i} signed rounding<negative_inf> : tile<i32>"]
    return [  # Python's v % c, as the frontend lowers it
        const,
        f"%r{i} = remi %v{i}, %c{i} signed : tile<i32>",
        f"%n{i} = cmpi less_than %r{i}, %zero, signed : tile<i32> -> tile<i1>",
        f"%s{i} = addi %r{i}, %c{i} : tile<i32>",
        f"%v{i + 1} = select %n{i}, %s{i}, %r{i} : tile<i1>, tile<i32>",
    ]


def _apply(value: int, op: str, c: int) -> int:
    if op == "addi":
        return value + c
    if op == "subi":
        return value - c
    if op == "divi_zero":
        return abs(value) // c * (1 if value >= 0 else -1)
    if op == "divi_floor":
        return value // c
    return value % c


def _kernel(start: str, start_const: int, bounds: tuple[int, int], chain: list[tuple[str, int]]) -> str:
    head = {
        "bid": "%v0 = addi %b#0, %zero : tile<i32>",
        "k": "%v0 = addi %k, %zero : tile<i32>",
        "const": f"%v0 = constant <i32: {start_const}> : tile<i32>",
        "assumed": f"%v0 = assume bounded<{bounds[0]}, {bounds[1]}>, %a : tile<i32>",
    }[start]
    body = [head]
    for i, (op, c) in enumerate(chain):
        body += _step(i, op, c)
    lines = "\n        ".join(body)
    return f"""
cuda_tile.module @m {{
  entry @p(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>, %a: tile<i32>) {{
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {{tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: {TILE_Z}>}} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {{tile_safety.arg = "x"}} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=({TILE_X}), tensor_view<?xf32, strides=[1]>>
    %nt = get_index_space_shape %px : partition_view<tile=({TILE_X}), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    for %k in (%zero to %nt, step %one) : tile<i32> {{
        {lines}
    }}
    return
  }}
}}
"""


def _evaluate(bound: Bound, sizes: dict[str, int]) -> int:
    if bound.extent is None:
        return bound.offset
    size = bound.extent.size
    if not isinstance(size, int):
        size = sizes[getattr(size, "name_hint")]
    return (-(-size // bound.extent.tile) + bound.offset) // bound.divisor


@settings(max_examples=examples(300), deadline=None)
@given(
    start=st.sampled_from(STARTS),
    start_const=st.integers(-20, 20),
    lo=st.integers(-10, 10),
    width=st.integers(0, 20),
    chain=steps,
    n=st.integers(1, 200),
    m=st.integers(1, 200),
    data=st.data(),
)
def test_claimed_bounds_hold(
    start: str, start_const: int, lo: int, width: int, chain: list[tuple[str, int]], n: int, m: int, data: st.DataObject
) -> None:
    module = parse_tile_ir(context(), _kernel(start, start_const, (lo, lo + width), chain))
    entry = next(o for o in module.walk() if isinstance(o, EntryOp))
    value_op = [o for o in entry.walk() if o.results and o.results[0].name_hint == f"v{len(chain)}"][0]
    claimed = IntervalAnalysis(entry).interval(value_op.results[0])

    # A concrete launch: the grid is z's tile count, k runs over x's tiles.
    tiles_x = -(-m // TILE_X)
    assume(tiles_x > 0)
    concrete = {
        "bid": data.draw(st.integers(0, -(-n // TILE_Z) - 1)),
        "k": data.draw(st.integers(0, tiles_x - 1)),
        "const": start_const,
        "assumed": data.draw(st.integers(lo, lo + width)),  # the assumption holds
    }[start]
    for op, c in chain:
        concrete = _apply(concrete, op, c)

    sizes = {"n": n, "m": m}
    if claimed.lo is not None:
        assert claimed.lo <= concrete
    if claimed.hi is not None:
        assert concrete <= _evaluate(claimed.hi, sizes)


def test_block_id_and_loop_bounds_are_symbolic() -> None:
    module = parse_tile_ir(context(), _kernel("k", 0, (0, 0), []))
    entry = next(o for o in module.walk() if isinstance(o, EntryOp))
    analysis = IntervalAnalysis(entry)
    k = next(o for o in entry.walk() if o.results and o.results[0].name_hint == "v0").results[0]
    claimed = analysis.interval(k)
    assert claimed.lo == 0 and claimed.hi is not None and claimed.hi.offset == -1
    assert claimed.hi.extent is not None and claimed.hi.extent.host().expression() == f"ceil_div(x.shape[0], {TILE_X})"
    grid = analysis.grid[0]
    assert grid is not None and grid.host().expression() == f"ceil_div(z.shape[0], {TILE_Z})"


def test_division_and_python_modulo_of_a_block_id() -> None:
    """permute_heads' ``b, h = bh // H, bh % H``: both bounded, the quotient symbolically."""
    text = _kernel("bid", 0, (0, 0), [("divi_floor", 4)]).replace(
        "%v1 = divi", "%h = remi %v0, %c0 signed : tile<i32>\n        "
        "%neg = cmpi less_than %h, %zero, signed : tile<i32> -> tile<i1>\n        "
        "%up = addi %h, %c0 : tile<i32>\n        "
        "%hm = select %neg, %up, %h : tile<i1>, tile<i32>\n        %v1 = divi"
    )
    entry = next(o for o in parse_tile_ir(context(), text).walk() if isinstance(o, EntryOp))
    analysis = IntervalAnalysis(entry)
    named = {o.results[0].name_hint: o.results[0] for o in entry.walk() if o.results}
    quotient, modulo = analysis.interval(named["v1"]), analysis.interval(named["hm"])
    assert quotient.lo == 0 and quotient.hi is not None
    assert quotient.hi.host().expression() == f"(ceil_div(z.shape[0], {TILE_Z}) - 1) // 4"
    assert modulo.lo == 0 and modulo.hi is not None and modulo.hi.constant() == 3
