"""Interpreter: what it catches, and what its errors say.

Races between tile blocks, view indices outside the index space, failing
``assert`` and ``assume``, accesses outside every buffer, bad launches; and
that running the blocks shuffled changes nothing for a race-free kernel.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from interpreter_support import kernel, partition_view, poisoned, tensor_view
from safetile.backend.interpreter import (
    DISPATCH,
    AssumptionError,
    DeviceAssertError,
    GlobalMemory,
    InterpreterError,
    LaunchError,
    MemoryAccessError,
    OutOfRangeError,
    Program,
    RaceError,
    find_entry,
    run_kernel,
)

PV16 = partition_view("f32", 16)
PV4 = "partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>"


def _view(ptr: str, name: str, view: str = PV16) -> str:
    return (
        f"%tv{name} = make_tensor_view {ptr}, shape = [16], strides = [1] : {tensor_view('f32', 16)}\n"
        f"%{name} = make_partition_view %tv{name} : {view}"
    )


RACY = kernel(
    "%p: tile<ptr<f32>>",
    f"""
    {_view("%p", "pv")}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %f = itof %bx signed : tile<i32> -> tile<f32>
    %r = reshape %f : tile<f32> -> tile<1xf32>
    %v = broadcast %r : tile<1xf32> -> tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %t = store_view_tko weak %v, %pv[%c0] : tile<16xf32>, {PV16}, tile<i32> -> token
    """,
)


def test_two_blocks_storing_one_tile_is_a_race_naming_both() -> None:
    out = poisoned(16, np.float32)
    with pytest.raises(RaceError) as info:
        run_kernel(RACY, (2,), [out])
    message = str(info.value)
    assert "tile block (0, 0, 0) wrote it" in message
    assert "tile block (1, 0, 0) wrote it" in message
    assert "data race on p[0]" in message
    assert info.value.block_id == (1, 0, 0)
    assert "'store_view_tko'" in message


def test_race_is_found_in_shuffled_order_too() -> None:
    with pytest.raises(RaceError) as info:
        run_kernel(RACY, (3,), [poisoned(16, np.float32)], shuffle=True, seed=1)
    blocks = re.findall(r"tile block \((\d), 0, 0\)", str(info.value))
    assert len(set(blocks)) == 2


def test_race_detection_can_be_turned_off() -> None:
    out = poisoned(16, np.float32)
    run_kernel(RACY, (2,), [out], detect_races=False)
    assert out.tolist() == [1.0] * 16  # the last block wins


def test_reading_what_another_block_wrote_is_a_race() -> None:
    # Block 0 writes tile 0; block 1 reads tile 0 and writes tile 1.
    module = kernel(
        "%p: tile<ptr<f32>>",
        f"""
        {_view("%p", "pv", PV4)}
        %bx, %by, %bz = get_tile_block_id : tile<i32>
        %c0 = constant <i32: 0> : tile<i32>
        %one = constant <f32: 1.0> : tile<4xf32>
        %zero = cmpi equal %bx, %c0, signed : tile<i32> -> tile<i1>
        if %zero {{
          %t0 = store_view_tko weak %one, %pv[%c0] : tile<4xf32>, {PV4}, tile<i32> -> token
        }} else {{
          %x, %t1 = load_view_tko weak %pv[%c0] : {PV4}, tile<i32> -> tile<4xf32>, token
          %t2 = store_view_tko weak %x, %pv[%bx] : tile<4xf32>, {PV4}, tile<i32> -> token
        }}
        """,
    )
    with pytest.raises(RaceError, match=r"tile block \(0, 0, 0\) wrote it and tile block \(1, 0, 0\) read it"):
        run_kernel(module, (2,), [poisoned(16, np.float32)])


ATOMIC_ADD = kernel(
    "%p: tile<ptr<i32>>",
    """
    %one = constant <i32: 1> : tile<i32>
    %old, %t = atomic_rmw_tko relaxed device %p, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    """,
)


def test_atomics_of_many_blocks_are_not_races() -> None:
    counter = np.zeros(1, dtype=np.int32)
    run_kernel(ATOMIC_ADD, (5, 2), [counter], shuffle=True)
    assert counter.tolist() == [10]


def test_a_plain_store_after_another_blocks_atomic_is_a_race() -> None:
    module = kernel(
        "%p: tile<ptr<i32>>",
        """
        %bx, %by, %bz = get_tile_block_id : tile<i32>
        %c0 = constant <i32: 0> : tile<i32>
        %zero = cmpi equal %bx, %c0, signed : tile<i32> -> tile<i1>
        if %zero {
          %old, %t = atomic_rmw_tko relaxed device %p, add, %bx : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
        } else {
          %t2 = store_ptr_tko weak %p, %bx : tile<ptr<i32>>, tile<i32> -> token
        }
        """,
    )
    with pytest.raises(RaceError, match="atomically wrote it and tile block"):
        run_kernel(module, (2,), [np.zeros(1, dtype=np.int32)])


SAFE = kernel(
    "%x: tile<ptr<f32>>, %y: tile<ptr<f32>>",
    f"""
    {_view("%x", "px", PV4)}
    {_view("%y", "py", PV4)}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %v, %t = load_view_tko weak %px[%bx] : {PV4}, tile<i32> -> tile<4xf32>, token
    %s = mulf %v, %v : tile<4xf32>
    %t2 = store_view_tko weak %s, %py[%bx] : tile<4xf32>, {PV4}, tile<i32> -> token
    """,
)


def test_shuffled_order_gives_identical_results() -> None:
    x = (np.random.default_rng().random(16) + 0.5).astype(np.float32)
    y1, y2 = poisoned(16, np.float32), poisoned(16, np.float32)
    straight = run_kernel(SAFE, (4,), [x, y1])
    shuffled = run_kernel(SAFE, (4,), [x, y2], shuffle=True, seed=5)
    np.testing.assert_array_equal(y1, x * x)
    np.testing.assert_array_equal(y1, y2)
    assert sorted(shuffled.order) == list(straight.order)
    assert shuffled.order != straight.order


def test_out_of_range_view_index_is_caught() -> None:
    x, y = np.ones(16, dtype=np.float32), poisoned(16, np.float32)
    with pytest.raises(OutOfRangeError) as info:
        run_kernel(SAFE, (5,), [x, y])
    assert "index (4) is outside the index space (4) of the partition_view" in str(info.value)
    assert info.value.block_id == (4, 0, 0)
    assert "'load_view_tko'" in str(info.value)


def test_unchecked_out_of_range_tiles_are_masked() -> None:
    x, y = np.full(16, 2, dtype=np.float32), poisoned(16, np.float32)
    run_kernel(SAFE, (6,), [x, y], check_bounds=False)
    assert y.tolist() == [4.0] * 16


ASSERT = kernel(
    "%p: tile<ptr<i32>>",
    """
    %tv = make_tensor_view %p, shape = [8], strides = [1] : tensor_view<8xi32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(4), tensor_view<8xi32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %v, %t = load_view_tko weak %pv[%bx] : partition_view<tile=(4), tensor_view<8xi32, strides=[1]>>, tile<i32> -> tile<4xi32>, token
    %c0 = constant <i32: 0> : tile<4xi32>
    %ok = cmpi greater_than %v, %c0, signed : tile<4xi32> -> tile<4xi1>
    assert %ok, "values must be positive" : tile<4xi1> loc("kernels/check.py":12:5)
    """,
)


def test_failing_assert_names_kernel_block_location_and_message() -> None:
    data = np.array([1, 2, 3, 4, 5, -6, 7, -8], dtype=np.int32)
    with pytest.raises(DeviceAssertError) as info:
        run_kernel(ASSERT, (2,), [data])
    err = info.value
    assert err.assert_message == "values must be positive"
    assert err.block_id == (1, 0, 0)
    assert err.kernel == "k"
    assert str(err) == (
        "@k: tile block (1, 0, 0): 'assert' at kernels/check.py:12:5: "
        'assertion failed at element(s) (1,), (3,): "values must be positive"'
    )


def test_passing_assert_is_silent() -> None:
    run_kernel(ASSERT, (2,), [np.arange(1, 9, dtype=np.int32)])


ASSUME = kernel(
    "%n: tile<i32>, %p: tile<ptr<f32>>",
    """
    %m = assume bounded<0, 100>, %n : tile<i32>
    %q = assume div_by<16>, %p : tile<ptr<f32>>
    %i = iota : tile<8xi32>
    %j = assume div_by<4, every 4 along 0>, %i : tile<8xi32>
    """,
)


def test_assume_is_checked_only_on_request() -> None:
    x = np.zeros(4, dtype=np.float32)
    run_kernel(ASSUME, (1,), [500, x])
    run_kernel(ASSUME, (1,), [50, x], check_assumes=True)
    with pytest.raises(AssumptionError, match=r"assume bounded<0, 100> does not hold: value 500"):
        run_kernel(ASSUME, (1,), [500, x], check_assumes=True)


def test_assume_div_by_checks_pointers_and_groups() -> None:
    memory = GlobalMemory()
    base = memory.register(np.zeros(8, dtype=np.float32), "backing")
    run_kernel(ASSUME, (1,), [5, base], memory=memory, check_assumes=True)
    with pytest.raises(AssumptionError, match=r"div_by<16> does not hold: value 0x[0-9a-f]+4"):
        run_kernel(ASSUME, (1,), [5, base + 4], memory=memory, check_assumes=True)
    module = kernel(
        "",
        """
        %i = iota : tile<8xi32>
        %j = assume div_by<4, every 2 along 0>, %i : tile<8xi32>
        """,
    )
    with pytest.raises(AssumptionError, match="value 0x2"):
        run_kernel(module, (1,), [], check_assumes=True)


def test_load_outside_every_buffer_names_address_and_buffer() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>",
        """
        %i = iota : tile<8xi32>
        %r = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
        %b = broadcast %r : tile<1xptr<f32>> -> tile<8xptr<f32>>
        %q = offset %b, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
        %v, %t = load_ptr_tko weak %q : tile<8xptr<f32>> -> tile<8xf32>, token
        """,
    )
    with pytest.raises(MemoryAccessError) as info:
        run_kernel(module, (1,), [np.zeros(6, dtype=np.float32)])
    assert re.search(r"address 0x[0-9a-f]+ \(4 bytes\) is outside every live buffer \(0 bytes after buffer 'p'", str(info.value))
    assert "'load_ptr_tko'" in str(info.value)


def test_masked_lanes_are_not_accessed() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>, %o: tile<ptr<f32>>",
        """
        %i = iota : tile<8xi32>
        %r = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
        %b = broadcast %r : tile<1xptr<f32>> -> tile<8xptr<f32>>
        %q = offset %b, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
        %six = constant <i32: 6> : tile<8xi32>
        %m = cmpi less_than %i, %six, signed : tile<8xi32> -> tile<8xi1>
        %pad = constant <f32: -1.0> : tile<8xf32>
        %v, %t = load_ptr_tko weak %q, %m, %pad : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
        %ro = reshape %o : tile<ptr<f32>> -> tile<1xptr<f32>>
        %bo = broadcast %ro : tile<1xptr<f32>> -> tile<8xptr<f32>>
        %qo = offset %bo, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
        %t2 = store_ptr_tko weak %qo, %v : tile<8xptr<f32>>, tile<8xf32> -> token
        """,
    )
    out = poisoned(8, np.float32)
    run_kernel(module, (1,), [np.arange(1, 7, dtype=np.float32), out])
    assert out.tolist() == [1, 2, 3, 4, 5, 6, -1, -1]


def test_misaligned_pointer_is_an_error() -> None:
    module = kernel(
        "%p: tile<ptr<i32>>",
        """
        %a = ptr_to_int %p : tile<ptr<i32>> -> tile<i64>
        %one = constant <i64: 1> : tile<i64>
        %b = addi %a, %one : tile<i64>
        %q = int_to_ptr %b : tile<i64> -> tile<ptr<i32>>
        %v, %t = load_ptr_tko weak %q : tile<ptr<i32>> -> tile<i32>, token
        """,
    )
    with pytest.raises(MemoryAccessError, match="not aligned to the 4-byte element size"):
        run_kernel(module, (1,), [np.zeros(4, dtype=np.int32)])


@pytest.mark.parametrize(("shift", "message"), [
    (0, r"is outside every live buffer \(0 bytes after buffer 'p'"),
    (1, "not aligned to the 4-byte element size"),
])
def test_a_view_tile_inside_its_tensor_but_not_its_buffer_is_an_error(shift: int, message: str) -> None:
    """A tile inside the tensor view's shape loads as a box (no address a lane); where the view's
    memory is not one aligned live buffer (a shape larger than the array, a base off by a byte),
    the load goes by its addresses and names what is wrong."""
    tv = "tensor_view<16xi32, strides=[1]>"
    pv = "partition_view<tile=(8), tensor_view<16xi32, strides=[1]>>"
    module = kernel(
        "%p: tile<ptr<i32>>",
        f"""
        %a = ptr_to_int %p : tile<ptr<i32>> -> tile<i64>
        %s = constant <i64: {shift}> : tile<i64>
        %b = addi %a, %s : tile<i64>
        %q = int_to_ptr %b : tile<i64> -> tile<ptr<i32>>
        %t = make_tensor_view %q, shape = [16], strides = [1] : {tv}
        %v = make_partition_view %t : {pv}
        %c = constant <i32: {1 - shift}> : tile<i32>
        %x, %k = load_view_tko weak %v[%c] : {pv}, tile<i32> -> tile<8xi32>, token
        """,
    )
    with pytest.raises(MemoryAccessError, match=message):
        run_kernel(module, (1,), [np.zeros(12 - 4 * shift, dtype=np.int32)])


def test_store_to_a_read_only_array_is_an_error() -> None:
    module = kernel(
        "%p: tile<ptr<i32>>",
        """
        %one = constant <i32: 1> : tile<i32>
        %t = store_ptr_tko weak %p, %one : tile<ptr<i32>>, tile<i32> -> token
        """,
    )
    frozen = np.zeros(4, dtype=np.int32)
    frozen.flags.writeable = False
    with pytest.raises(MemoryAccessError, match="read-only buffer 'p'"):
        run_kernel(module, (1,), [frozen])


def test_launch_errors() -> None:
    with pytest.raises(LaunchError, match=r"@k takes 2 arguments \(%x: .*, %y: .*\), got 1"):
        run_kernel(SAFE, (1,), [np.zeros(16, np.float32)])
    with pytest.raises(LaunchError, match="every dimension must be in"):
        run_kernel(SAFE, (0,), [np.zeros(16, np.float32)] * 2)
    with pytest.raises(LaunchError, match=r"argument 0 \(%n: .*\): 5000000000 does not fit"):
        run_kernel(ASSUME, (1,), [5_000_000_000, np.zeros(4, np.float32)])
    with pytest.raises(LaunchError, match="expected a numpy array or an address"):
        run_kernel(ASSUME, (1,), [1, [1.0, 2.0]])


def test_every_error_is_an_interpreter_error() -> None:
    for cls in (AssumptionError, DeviceAssertError, LaunchError, MemoryAccessError, OutOfRangeError, RaceError):
        assert issubclass(cls, InterpreterError)


def test_print_formats_tiles_with_c_conversions() -> None:
    module = kernel(
        "%x: tile<i32>, %f: tile<f32>",
        """
        %i = iota : tile<4xi8>
        %m = reshape %i : tile<4xi8> -> tile<2x2xi8>
        %neg = negi %x : tile<i32>
        %p = print_tko "x=%d u=%u h=%#x f=%.2f e=%e m=%d %%\\0A", %x, %neg, %neg, %f, %f, %m : tile<i32>, tile<i32>, tile<i32>, tile<f32>, tile<f32>, tile<2x2xi8> -> token
        """,
    )
    out = io.StringIO()
    run_kernel(module, (1,), [5, 1.5], stream=out)
    assert out.getvalue() == "x=5 u=4294967291 h=0xfffffffb f=1.50 e=1.500000e+00 m=[[0, 1], [2, 3]] %\n"


def test_a_kernel_object_runs_many_launches() -> None:
    compiled = Program(find_entry(SAFE), DISPATCH)
    for scale in (1.0, 3.0):
        x = np.arange(16, dtype=np.float32) * scale
        y = poisoned(16, np.float32)
        run_kernel(compiled, (4,), [x, y])
        np.testing.assert_array_equal(y, x * x)


def test_unchecked_huge_index_masks_the_tile() -> None:
    module = kernel(
        "%p: tile<ptr<f32>>, %i: tile<i64>",
        f"""
        {_view("%p", "pv", "partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>")}
        %v = constant <f32: 1.0> : tile<4xf32>
        %t = store_view_tko weak %v, %pv[%i] : tile<4xf32>, {PV4}, tile<i64> -> token
        """,
    )
    out = poisoned(16, np.float32)
    run_kernel(module, (1,), [out, -1], check_bounds=False)
    assert np.isnan(out).all()
    with pytest.raises(OutOfRangeError, match=r"index \(18446744073709551615\)"):
        run_kernel(module, (1,), [out, -1])
