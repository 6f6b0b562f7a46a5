"""Interpreter: views, loads and stores, atomics, globals and ``alloca``.

Partial tiles at tensor edges (each padding value, or poison without one;
masked stores), ``dim_map``, strided and gather/scatter views, the shape
queries, pointer loads and stores with masks, every atomic mode.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from interpreter_support import kernel, parse, poisoned
from safetile.backend.interpreter import GlobalMemory, MemoryAccessError, run_kernel, views
from safetile.backend.interpreter.values import TensorView


def _edge_load(padding: str) -> np.ndarray:
    """Load tile 1 of a 6-element tensor cut in tiles of 4; store all 4 lanes."""
    pad = f"padding_value = {padding}, " if padding else ""
    pv = f"partition_view<tile=(4), {pad}tensor_view<6xf32, strides=[1]>>"
    out_pv = "partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>"
    module = kernel(
        "%x: tile<ptr<f32>>, %y: tile<ptr<f32>>",
        f"""
        %tx = make_tensor_view %x, shape = [6], strides = [1] : tensor_view<6xf32, strides=[1]>
        %px = make_partition_view %tx : {pv}
        %ty = make_tensor_view %y, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
        %py = make_partition_view %ty : {out_pv}
        %c0 = constant <i32: 0> : tile<i32>
        %c1 = constant <i32: 1> : tile<i32>
        %v, %t = load_view_tko weak %px[%c1] : {pv}, tile<i32> -> tile<4xf32>, token
        %t2 = store_view_tko weak %v, %py[%c0] : tile<4xf32>, {out_pv}, tile<i32> -> token
        """,
    )
    out = np.zeros(4, dtype=np.float32)
    run_kernel(module, (1,), [np.arange(1, 7, dtype=np.float32), out])
    return out


@pytest.mark.parametrize(
    ("padding", "tail"),
    [("zero", [0.0, 0.0]), ("neg_zero", [-0.0, -0.0]), ("nan", [math.nan] * 2),
     ("pos_inf", [math.inf] * 2), ("neg_inf", [-math.inf] * 2), ("", [math.nan] * 2)],
)
def test_partial_tile_loads_pad_with_the_views_padding_value(padding: str, tail: list[float]) -> None:
    out = _edge_load(padding)
    assert [str(v) for v in out.tolist()] == ["5.0", "6.0", *map(str, tail)]


def test_partial_tile_stores_are_masked_and_integer_padding_is_zero() -> None:
    pv = "partition_view<tile=(4x4), padding_value = zero, tensor_view<5x3xi32, strides=[3,1]>>"
    module = kernel(
        "%x: tile<ptr<i32>>, %y: tile<ptr<i32>>",
        f"""
        %tx = make_tensor_view %x, shape = [5, 3], strides = [3, 1] : tensor_view<5x3xi32, strides=[3,1]>
        %ty = make_tensor_view %y, shape = [5, 3], strides = [3, 1] : tensor_view<5x3xi32, strides=[3,1]>
        %px = make_partition_view %tx : {pv}
        %py = make_partition_view %ty : {pv}
        %bx, %by, %bz = get_tile_block_id : tile<i32>
        %c0 = constant <i32: 0> : tile<i32>
        %v, %t = load_view_tko weak %px[%bx, %c0] : {pv}, tile<i32> -> tile<4x4xi32>, token
        %s = reduce %v dim=1 identities=[0 : i32] : tile<4x4xi32> -> tile<4xi32>
        (%e: tile<i32>, %a: tile<i32>) {{
          %n = addi %e, %a : tile<i32>
          yield %n : tile<i32>
        }}
        %r = reshape %s : tile<4xi32> -> tile<4x1xi32>
        %b = broadcast %r : tile<4x1xi32> -> tile<4x4xi32>
        %t2 = store_view_tko weak %b, %py[%bx, %c0] : tile<4x4xi32>, {pv}, tile<i32> -> token
        """,
    )
    x = np.arange(15, dtype=np.int32).reshape(5, 3) + 1
    y = poisoned((5, 3), np.int32)
    run_kernel(module, (2,), [x, y])
    assert y.tolist() == [[s] * 3 for s in x.sum(axis=1).tolist()]


def test_dim_map_transposes_tiles() -> None:
    # A 4x8 tensor read through tiles of 8x4 whose dim 0 walks tensor dim 1.
    pv = "partition_view<tile=(8x4), tensor_view<4x8xf32, strides=[8,1]>, dim_map=[1, 0]>"
    out_pv = "partition_view<tile=(8x4), tensor_view<8x4xf32, strides=[4,1]>>"
    module = kernel(
        "%x: tile<ptr<f32>>, %y: tile<ptr<f32>>",
        f"""
        %tx = make_tensor_view %x, shape = [4, 8], strides = [8, 1] : tensor_view<4x8xf32, strides=[8,1]>
        %ty = make_tensor_view %y, shape = [8, 4], strides = [4, 1] : tensor_view<8x4xf32, strides=[4,1]>
        %px = make_partition_view %tx : {pv}
        %py = make_partition_view %ty : {out_pv}
        %c0 = constant <i32: 0> : tile<i32>
        %v, %t = load_view_tko weak %px[%c0, %c0] : {pv}, tile<i32> -> tile<8x4xf32>, token
        %t2 = store_view_tko weak %v, %py[%c0, %c0] : tile<8x4xf32>, {out_pv}, tile<i32> -> token
        """,
    )
    x = np.arange(32, dtype=np.float32).reshape(4, 8) + 1
    y = poisoned((8, 4), np.float32)
    run_kernel(module, (1,), [x, y])
    np.testing.assert_array_equal(y, x.T)


@pytest.mark.parametrize(
    ("elem", "strides", "view"),
    [
        ("f32", (8, 1), "partition_view<tile=(2x4), tensor_view<5x8xf32, strides=[8,1]>, dim_map=[1, 0]>"),
        ("f16", (1, 5), "strided_view<tile=(2x2), traversal_strides=[1,3], tensor_view<5x8xf16, strides=[1,5]>>"),
    ],
)
def test_a_tile_inside_its_tensor_is_a_box_of_the_same_lanes_as_its_addresses(
    elem: str, strides: tuple[int, int], view: str
) -> None:
    """``views.box`` (the loads' and stores' fast path: no address a lane) gives
    the lanes ``views.elements`` gives, in the same order, for every index whose
    tile lies inside the tensor, and nothing where the tile crosses the edge."""
    tv = f"tensor_view<5x8x{elem}, strides=[{strides[0]},{strides[1]}]>"
    make = "make_partition_view" if view.startswith("partition") else "make_strided_view"
    module = kernel(
        f"%x: tile<ptr<{elem}>>",
        f"""
        %tx = make_tensor_view %x, shape = [5, 8], strides = [{strides[0]}, {strides[1]}] : {tv}
        %px = {make} %tx : {view}
        """,
    )
    (made,) = [op for op in module.walk() if op.name == f"cuda_tile.{make}"]
    tile = views.tile_view(made.results[0].type, TensorView(made.results[0].type.tensor_view, 4096, (5, 8), strides))
    boxes = 0
    for i in range(tile.index_space[0]):
        for j in range(tile.index_space[1]):
            addresses, mask = views.elements(tile, (i, j), check=True)
            box = views.box(tile, (i, j), check=True)
            if mask is not None:
                assert box is None, (i, j)
                continue
            boxes += 1
            assert box is not None and box.offsets.shape == addresses.shape
            np.testing.assert_array_equal(box.start + box.offsets * box.itemsize, addresses.astype(np.int64))
            assert box.extent == int(box.offsets.max()) + 1
    assert boxes >= 2


def test_strided_view_overlapping_tiles_and_index_space() -> None:
    sv = "strided_view<tile=(4), traversal_strides=[3], padding_value = zero, tensor_view<10xf32, strides=[1]>>"
    module = kernel(
        "%x: tile<ptr<f32>>, %y: tile<ptr<f32>>",
        f"""
        %tx = make_tensor_view %x, shape = [10], strides = [1] : tensor_view<10xf32, strides=[1]>
        %sx = make_strided_view %tx : {sv}
        %n = get_index_space_shape %sx : {sv} -> tile<i32>
        %ty = make_tensor_view %y, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
        %py = make_partition_view %ty : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
        %c0 = constant <i32: 0> : tile<i32>
        %c1 = constant <i32: 1> : tile<i32>
        %r = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {{
          %v, %t = load_view_tko weak %sx[%i] : {sv}, tile<i32> -> tile<4xf32>, token
          %t2 = store_view_tko weak %v, %py[%i] : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
          %next = addi %acc, %c1 : tile<i32>
          continue %next : tile<i32>
        }}
        """,
    )
    x = np.arange(1, 11, dtype=np.float32)
    y = poisoned(16, np.float32)
    run_kernel(module, (1,), [x, y])
    # ceil(10 / 3) = 4 tiles starting at 0, 3, 6, 9; the last one is padded.
    assert y.tolist() == [1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 0, 0, 0]


def test_gather_and_scatter_views() -> None:
    gv = "gather_scatter_view<tile=(4x2), padding_value = nan, tensor_view<6x3xf32, strides=[3,1]>, sparse_dim=0>"
    module = kernel(
        "%x: tile<ptr<f32>>, %y: tile<ptr<f32>>",
        f"""
        %tx = make_tensor_view %x, shape = [6, 3], strides = [3, 1] : tensor_view<6x3xf32, strides=[3,1]>
        %gx = make_gather_scatter_view %tx : {gv}
        %ty = make_tensor_view %y, shape = [6, 3], strides = [3, 1] : tensor_view<6x3xf32, strides=[3,1]>
        %gy = make_gather_scatter_view %ty : gather_scatter_view<tile=(4x2), tensor_view<6x3xf32, strides=[3,1]>, sparse_dim=0>
        %rows = constant <i32: [5, 0, 9, 2]> : tile<4xi32>
        %c1 = constant <i32: 1> : tile<i32>
        %v, %t = load_view_tko weak %gx[%rows, %c1] : {gv}, tile<4xi32>, tile<i32> -> tile<4x2xf32>, token
        %back = constant <i32: [0, 1, 2, 3]> : tile<4xi32>
        %c0 = constant <i32: 0> : tile<i32>
        %t2 = store_view_tko weak %v, %gy[%back, %c0] : tile<4x2xf32>, gather_scatter_view<tile=(4x2), tensor_view<6x3xf32, strides=[3,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> token
        """,
    )
    x = np.arange(18, dtype=np.float32).reshape(6, 3) + 1
    y = np.zeros((6, 3), dtype=np.float32)
    run_kernel(module, (1,), [x, y])
    expected = np.zeros((6, 3))
    expected[0, :2] = x[5, 1:]
    expected[1, :2] = x[0, 1:]
    expected[2, :2] = np.nan  # row 9 is outside: padding
    expected[3, :2] = x[2, 1:]
    np.testing.assert_array_equal(y, expected)


def test_tensor_and_index_space_shapes() -> None:
    pv = "partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>"
    module = kernel(
        "%x: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>",
        f"""
        %tv = make_tensor_view %x, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
        %pv = make_partition_view %tv : {pv}
        %s:2 = get_tensor_shape %tv : tensor_view<?x?xf32, strides=[?,1]> -> tile<i64>
        %k:2 = get_index_space_shape %pv : {pv} -> tile<i16>
        %p = print_tko "%ld %ld %d %d", %s#0, %s#1, %k#0, %k#1 : tile<i64>, tile<i64>, tile<i16>, tile<i16> -> token
        """,
    )
    out = io.StringIO()
    run_kernel(module, (1,), [np.zeros(9 * 17, np.float32), 9, 17], stream=out)
    assert out.getvalue() == "9 17 3 3"


def _pointer_tiles(elem: str, n: int, *names: str) -> str:
    """IR defining ``%i`` (iota) and, for each scalar pointer ``%name``, the
    tile ``%qname`` of pointers to its first ``n`` elements."""
    lines = [f"%i = iota : tile<{n}xi32>"]
    for x in names:
        lines += [
            f"%r{x} = reshape %{x} : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>",
            f"%b{x} = broadcast %r{x} : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>",
            f"%q{x} = offset %b{x}, %i : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>",
        ]
    return "\n".join(lines)


ATOMIC_CASES = {
    "add": lambda old, arg: old + arg,
    "and": lambda old, arg: old & arg,
    "or": lambda old, arg: old | arg,
    "xor": lambda old, arg: old ^ arg,
    "max": max,
    "min": min,
    "umax": lambda old, arg: max(old % 2**32, arg % 2**32),
    "umin": lambda old, arg: min(old % 2**32, arg % 2**32),
    "xchg": lambda old, arg: arg,
}


@pytest.mark.parametrize("mode", sorted(ATOMIC_CASES))
def test_atomic_rmw_modes_return_old_values(mode: str) -> None:
    module = kernel(
        "%p: tile<ptr<i32>>, %o: tile<ptr<i32>>, %a: tile<ptr<i32>>",
        _pointer_tiles("i32", 8, "p", "o", "a")
        + f"""
        %args, %t0 = load_ptr_tko weak %qa : tile<8xptr<i32>> -> tile<8xi32>, token
        %old, %t = atomic_rmw_tko relaxed device %qp, {mode}, %args : tile<8xptr<i32>>, tile<8xi32> -> tile<8xi32>, token
        %t2 = store_ptr_tko weak %qo, %old : tile<8xptr<i32>>, tile<8xi32> -> token
        """,
    )
    memory = np.array([5, -3, 0, 7, 2**31 - 1, -(2**31), 12, -1], dtype=np.int32)
    args = np.array([3, 4, -9, -7, 1, 5, 10, 2], dtype=np.int32)
    before = memory.copy()
    old = poisoned(8, np.int32)
    run_kernel(module, (1,), [memory, old, args])
    assert old.tolist() == before.tolist()
    expected = [ATOMIC_CASES[mode](int(m), int(a)) for m, a in zip(before, args)]
    assert memory.tolist() == [((v + 2**31) % 2**32) - 2**31 for v in expected]


def test_atomics_to_one_address_apply_in_lane_order() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>",
        _pointer_tiles("f32", 4, "p")
        + """
        %zero = constant <i32: 0> : tile<4xi32>
        %one = constant <i32: 1> : tile<4xi32>
        %same = offset %bp, %zero : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
        %v = constant <f32: [1.0, 2.0, 4.0, 8.0]> : tile<4xf32>
        %old, %t = atomic_rmw_tko relaxed device %same, addf, %v : tile<4xptr<f32>>, tile<4xf32> -> tile<4xf32>, token
        %next = addi %i, %one : tile<4xi32>
        %dst = offset %bp, %next : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
        %t2 = store_ptr_tko weak %dst, %old : tile<4xptr<f32>>, tile<4xf32> -> token
        """,
    )
    data = np.array([100.0, 0, 0, 0, 0], dtype=np.float32)
    run_kernel(module, (1,), [data])
    assert data.tolist() == [115.0, 100.0, 101.0, 103.0, 107.0]


def test_atomic_cas_compares_bits_and_masked_lanes_return_cmp() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>, %o: tile<ptr<f32>>",
        _pointer_tiles("f32", 4, "p", "o")
        + """
        %cmp = constant <f32: [1.0, 0.0, 0x7FC00000, 5.0]> : tile<4xf32>
        %val = constant <f32: [10.0, 20.0, 30.0, 40.0]> : tile<4xf32>
        %mask = constant <i1: [true, true, true, false]> : tile<4xi1>
        %old, %t = atomic_cas_tko relaxed device %qp, %cmp, %val, %mask : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> tile<4xf32>, token
        %t2 = store_ptr_tko weak %qo, %old : tile<4xptr<f32>>, tile<4xf32> -> token
        """,
    )
    data = np.array([1.0, -0.0, np.nan, 5.0], dtype=np.float32)
    old = poisoned(4, np.float32)
    run_kernel(module, (1,), [data, old])
    # -0.0 != 0.0 bitwise; the NaN has the canonical bits; lane 3 is masked.
    assert [str(v) for v in data.tolist()] == ["10.0", "-0.0", "30.0", "5.0"]
    assert [str(v) for v in old.tolist()] == ["1.0", "-0.0", "nan", "5.0"]


def test_atomic_red_view_adds_a_tile() -> None:
    pv = "partition_view<tile=(4), tensor_view<8xi32, strides=[1]>>"
    module = kernel(
        "%p: tile<ptr<i32>>",
        f"""
        %tv = make_tensor_view %p, shape = [8], strides = [1] : tensor_view<8xi32, strides=[1]>
        %pv = make_partition_view %tv : {pv}
        %bx, %by, %bz = get_tile_block_id : tile<i32>
        %c1 = constant <i32: 1> : tile<i32>
        %v = iota : tile<4xi32>
        %t = atomic_red_view_tko relaxed device %pv[%c1], add, %v : tile<4xi32>, {pv}, tile<i32> -> token
        """,
    )
    data = np.zeros(8, dtype=np.int32)
    run_kernel(module, (3,), [data])
    assert data.tolist() == [0, 0, 0, 0, 0, 3, 6, 9]


def test_globals_persist_in_a_memory() -> None:
    module = parse(
        """
        cuda_tile.module @t {
          global @counter <i32: [41]> : tile<1xi32>
          entry @k(%o: tile<ptr<i32>>) {
            %g = get_global @counter : tile<ptr<i32>>
            %one = constant <i32: 1> : tile<i32>
            %old, %t = atomic_rmw_tko relaxed device %g, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
            %t2 = store_ptr_tko weak %o, %old : tile<ptr<i32>>, tile<i32> -> token
            return
          }
        }
        """
    )
    memory = GlobalMemory()
    out = np.zeros(1, dtype=np.int32)
    run_kernel(module, (1,), [out], memory=memory)
    run_kernel(module, (1,), [out], memory=memory)
    assert out.tolist() == [42]
    run_kernel(module, (1,), [out])  # a fresh memory has a fresh global
    assert out.tolist() == [41]


def test_constant_global_cannot_be_stored_to() -> None:
    module = parse(
        """
        cuda_tile.module @t {
          global private constant @table <i32: [1, 2, 3, 4]> : tile<4xi32>
          entry @k() {
            %g = get_global @table : tile<ptr<i32>>
            %v, %t = load_ptr_tko weak %g : tile<ptr<i32>> -> tile<i32>, token
            %t2 = store_ptr_tko weak %g, %v : tile<ptr<i32>>, tile<i32> -> token
            return
          }
        }
        """
    )
    with pytest.raises(MemoryAccessError, match="read-only buffer '@table'"):
        run_kernel(module, (1,), [])


def test_alloca_is_private_scratch_freed_after_its_block() -> None:
    module = kernel(
        "%o: tile<ptr<i64>>",
        """
        %s = alloca num_elem = 4, alignment = 16 : tile<ptr<i32>>
        %v = constant <i32: 7> : tile<i32>
        %t = store_ptr_tko weak %s, %v : tile<ptr<i32>>, tile<i32> -> token
        %w, %t2 = load_ptr_tko weak %s : tile<ptr<i32>> -> tile<i32>, token
        %a = ptr_to_int %s : tile<ptr<i32>> -> tile<i64>
        %t3 = store_ptr_tko weak %o, %a : tile<ptr<i64>>, tile<i64> -> token
        """,
    )
    out = np.zeros(1, dtype=np.int64)
    memory = GlobalMemory()
    run_kernel(module, (1,), [out], memory=memory)
    assert out[0] % 16 == 0
    assert memory.buffer_at(int(out[0])) is None  # released after the block


def test_tokens_are_typed_and_order_nothing_extra() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>",
        """
        %t0 = make_token : token
        %v = constant <f32: 2.0> : tile<f32>
        %q = ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<i32>>
        %a = absf %v : tile<f32>
        %t1 = store_ptr_tko weak %p, %a token=%t0 : tile<ptr<f32>>, tile<f32> -> token
        %w = gdc_wait_tko token=%t1 -> token
        %t2 = memory_fence_alias_tko %w
        %bits, %t3 = load_ptr_tko weak %q token=%t2 : tile<ptr<i32>> -> tile<i32>, token
        %t4 = join_tokens %t3, %t1 : token
        %t5 = gdc_launch_dependents_tko token=%t4 -> token
        %f = bitcast %bits : tile<i32> -> tile<f32>
        %p2 = pow %f, %f : tile<f32>
        %t6 = store_ptr_tko weak %p, %p2 token=%t5 : tile<ptr<f32>>, tile<f32> -> token
        """,
    )
    data = np.array([-1.0], dtype=np.float32)
    run_kernel(module, (1,), [data])
    assert data.tolist() == [4.0]


def test_block_ids_and_grid_size_in_three_dimensions() -> None:
    module = kernel(
        "%p: tile<ptr<i32>>",
        """
        %bx, %by, %bz = get_tile_block_id : tile<i32>
        %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
        %yz = muli %bz, %ny : tile<i32>
        %row = addi %yz, %by : tile<i32>
        %rx = muli %row, %nx : tile<i32>
        %linear = addi %rx, %bx : tile<i32>
        %q = offset %p, %linear : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
        %n = muli %nx, %ny : tile<i32>
        %total = muli %n, %nz : tile<i32>
        %v = addi %linear, %total : tile<i32>
        %t = store_ptr_tko weak %q, %v : tile<ptr<i32>>, tile<i32> -> token
        """,
    )
    out = poisoned(24, np.int32)
    run_kernel(module, (2, 3, 4), [out], shuffle=True)
    assert out.tolist() == list(range(24, 48))


def test_tensor_view_parameters_take_arrays_with_their_strides() -> None:
    tv = "tensor_view<4x?xf32, strides=[?,?]>"
    pv = f"partition_view<tile=(4x2), {tv}>"
    module = kernel(
        f"%x: {tv}, %y: tile<ptr<f32>>",
        f"""
        %px = make_partition_view %x : {pv}
        %c0 = constant <i32: 0> : tile<i32>
        %c1 = constant <i32: 1> : tile<i32>
        %v, %t = load_view_tko weak %px[%c0, %c1] : {pv}, tile<i32> -> tile<4x2xf32>, token
        %ty = make_tensor_view %y, shape = [4, 2], strides = [2, 1] : tensor_view<4x2xf32, strides=[2,1]>
        %py = make_partition_view %ty : partition_view<tile=(4x2), tensor_view<4x2xf32, strides=[2,1]>>
        %t2 = store_view_tko weak %v, %py[%c0, %c0] : tile<4x2xf32>, partition_view<tile=(4x2), tensor_view<4x2xf32, strides=[2,1]>>, tile<i32> -> token
        """,
    )
    x = np.asfortranarray(np.arange(16, dtype=np.float32).reshape(4, 4))
    y = poisoned((4, 2), np.float32)
    run_kernel(module, (1,), [x, y])
    np.testing.assert_array_equal(y, x[:, 2:])
