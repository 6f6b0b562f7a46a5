"""Source locations are IR data, and every error a kernel raises names its line.

The frontend stamps each op with the ``FileLineColLoc`` of the Python node
that made it; the passes keep it (the asserts lower-tile-safety makes take
the check's) and read it; the interpreter's errors end with the source line
and a caret; the bytecode writer puts it in front of an assert's message for
the device's printf.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from xdsl.dialects.builtin import FileLineColLoc

import safetile as st
from safetile import f32, i32
from safetile.backend.bytecode import read_bytecode, write_bytecode
from safetile.backend.interpreter import DeviceAssertError, OutOfRangeError, RaceError
from safetile.dialects.cuda_tile.debuginfo import DILocAttr
from safetile.dialects.cuda_tile.ops.misc import AssertOp
from safetile.dialects.tile_safety import CheckIndexOp


def _line_of(fn: object, text: str) -> int:
    """The file line of the first source line of kernel ``fn`` containing ``text``."""
    lines, first = inspect.getsourcelines(fn.python)  # type: ignore[attr-defined]
    return first + next(i for i, line in enumerate(lines) if text in line)


# --------------------------------------------------------------------------
# Kernels (their lines are looked up by text, so they may move)
# --------------------------------------------------------------------------


@st.kernel(unchecked_accesses=True)
def racy(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    t = x.partition((16,)).load((0,))
    with st.unsafe():
        z.partition_mut((16,)).store((0,), t)  # every block writes tile 0


@st.kernel
def checked(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], k: i32):
    z.store(x.partition((16,)).load((k,)))


@st.kernel
def asserting(z: st.Mut[f32, (16,)], n: i32):
    assert n < 4, "n must be below 4"
    z.store(st.full((16,), 1.0, f32))


@st.kernel(unchecked_accesses=True)
def unchecked(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], k: i32):
    z.store(x.partition((16,)).load((k,)))


# --------------------------------------------------------------------------
# The IR
# --------------------------------------------------------------------------


def test_every_op_of_a_kernel_is_located_in_its_file() -> None:
    module = checked.compile(stage="frontend")
    for op in module.walk():
        if op.name.startswith(("cuda_tile.", "tile_safety.")) and op.name != "cuda_tile.module":
            assert isinstance(op.location, FileLineColLoc), op.name
            assert op.location.filename.data.endswith("test_located_errors.py")
    check = next(op for op in module.walk() if isinstance(op, CheckIndexOp))
    assert check.location.line.data == _line_of(checked, "z.store(")
    assert check.message.data == "load"  # what, not where


def test_asserts_made_from_checks_keep_the_check_location() -> None:
    module = checked.compile()
    asserts = [op for op in module.walk() if isinstance(op, AssertOp)]
    assert asserts and all(isinstance(a.location, FileLineColLoc) for a in asserts)
    assert {a.location.line.data for a in asserts} == {_line_of(checked, "z.store(")}
    assert all(a.message.data.startswith("load: ") for a in asserts)  # what, not where


def test_the_bytecode_puts_the_location_in_front_of_an_assert_message() -> None:
    module = asserting.compile()
    data = write_bytecode(module, "13.4")
    back = next(op for op in read_bytecode(data).walk() if isinstance(op, AssertOp))
    line = _line_of(asserting, "assert n < 4")
    assert back.message.data.endswith(f"test_located_errors.py:{line}:5: n must be below 4")
    assert isinstance(back.location, DILocAttr) and back.location.source_loc.line.data == line
    assert write_bytecode(read_bytecode(data), "13.4") == data  # stable: the prefix is not doubled


# --------------------------------------------------------------------------
# Run-time errors on the interpreter
# --------------------------------------------------------------------------


def test_a_race_names_the_racing_store_and_shows_its_line() -> None:
    x = st.from_numpy(np.arange(64, dtype=np.float32)).sync()
    z = st.zeros((64,), f32).sync().partition((16,))
    with pytest.raises(RaceError) as info:
        racy(z, x).sync()
    text = str(info.value)
    line = _line_of(racy, "partition_mut")
    assert f"test_located_errors.py:{line}:" in text
    assert text.splitlines()[-2].strip() == 'z.partition_mut((16,)).store((0,), t)  # every block writes tile 0'
    assert text.splitlines()[-1].strip() == "^"


def test_a_failing_index_check_names_its_line_and_shows_the_index(capsys: pytest.CaptureFixture[str]) -> None:
    x = st.from_numpy(np.arange(32, dtype=np.float32)).sync()
    z = st.zeros((16,), f32).sync().partition((16,))
    with pytest.raises(DeviceAssertError) as info:
        checked(z, x, 5).sync()
    text = str(info.value)
    assert f"test_located_errors.py:{_line_of(checked, 'z.store(')}:" in text
    assert "load: tile index out of range in dimension 0" in text
    assert "z.store(x.partition((16,)).load((k,)))" in text
    # The value and the bound, printed by the check before it asserts.
    assert "load: tile index 5 is outside [0, 2) in dimension 0" in capsys.readouterr().out


def test_a_failing_assert_names_its_line() -> None:
    z = st.zeros((16,), f32).sync().partition((16,))
    with pytest.raises(DeviceAssertError) as info:
        asserting(z, 7).sync()
    text = str(info.value)
    assert f"test_located_errors.py:{_line_of(asserting, 'assert n < 4')}:5" in text
    assert "n must be below 4" in text
    assert 'assert n < 4, "n must be below 4"' in text


def test_an_out_of_range_index_names_its_line() -> None:
    x = st.from_numpy(np.arange(32, dtype=np.float32)).sync()
    z = st.zeros((16,), f32).sync().partition((16,))
    with pytest.raises(OutOfRangeError) as info:
        unchecked(z, x, 5).sync()
    text = str(info.value)
    assert f"test_located_errors.py:{_line_of(unchecked, 'z.store(')}:" in text
    assert "index (5)" in text and "index space (2)" in text
    assert "z.store(x.partition((16,)).load((k,)))" in text


# --------------------------------------------------------------------------
# Compile-time errors of the passes
# --------------------------------------------------------------------------


@st.kernel(deny_in_kernel_checks=True)
def denied(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], k: i32):
    z.store(x.partition((16,)).load((k,)))


def test_a_check_a_pass_refuses_is_reported_at_its_line() -> None:
    with pytest.raises(st.CompileError) as info:
        denied.compile()
    err = info.value
    assert (err.line, err.column) == (_line_of(denied, "z.store("), 13)
    assert err.message.startswith("load: this index check needs an in-kernel assert")
    assert err.source_line.strip() == "z.store(x.partition((16,)).load((k,)))"


def test_tileiras_failures_are_placed_at_the_kernel() -> None:
    from safetile.backend.tileiras import kernels_of

    (kernel,) = kernels_of(checked.compile())
    assert kernel.location is not None
    assert (kernel.location.line, kernel.location.column) == (_line_of(checked, "def checked"), 1)
