"""Every user mistake is answered with its place and the fix, never an internal
error or a bare AttributeError (issue 14, items 6, 7, 8 and 10)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.frontend.errors import CompileError
from safetile.passes import registry
from support import run_tile_opt

# -- tile-opt on kernel files and --load pass files -----------------------------

KERNEL_HEAD = "import safetile as st\nfrom safetile import f32\n\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize(
    "body, line, message, hint",
    [
        (
            "@st.kernel(specialize=[dict()])\ndef k(z: st.Mut[f32, (64,)]):\n    z.store(0.0\n",
            6,
            "Python syntax error: '(' was never closed",
            "must be valid Python",
        ),
        (
            "@st.kernel(specialize=[dict()])\nasync def k(z: st.Mut[f32, (64,)]):\n    z.store(0.0)\n",
            5,
            "'k' is an 'async def'",
            "write 'def'",
        ),
        (
            "@st.kernel(specialize=[dict()])\ndef k(z: st.Mut[f32, (2**40,)]):\n    z.store(0.0)\n",
            5,
            "Tile IR tiles hold at most 16777216",
            "smaller tiles",
        ),
        (
            "SIZE = 1 // 0\n",
            4,
            "importing the file raised ZeroDivisionError",
            "fix the code",
        ),
        (
            "@st.kernel\ndef k(z: st.Mut[f32, 'S'], *, S: st.Shape):\n    z.store(0.0)\n",
            5,
            "no kernel of this file declares a specialization",
            "specialize=[dict(S=...)]",
        ),
    ],
    ids=["syntax-error", "async-def", "huge-shape", "raises-at-import", "no-specialization"],
)
def test_kernel_file_mistakes_are_located(tmp_path: Path, body: str, line: int, message: str, hint: str) -> None:
    path = write(tmp_path, "kernels.py", KERNEL_HEAD + body)
    run = run_tile_opt([str(path)])
    assert run.status == 1, run.err
    assert "internal error" not in run.err
    assert f"{path}:{line}:" in run.err and message in run.err and hint in run.err


@pytest.mark.parametrize(
    "text, line, message, hint",
    [
        ("from xdsl.passes import ModulePass\nvalue = 1 / 0\n", 2, "ZeroDivisionError", "fix the code"),
        ("from xdsl.passes import ModulePass\nclass P(ModulePass:\n    name = 'p'\n", 2, "Python syntax error",
         "must be valid Python"),
        ("from .helpers import thing\n", 1, "attempted relative import", "use an absolute import"),
    ],
    ids=["raises", "syntax-error", "relative-import"],
)
def test_load_file_mistakes_are_located(
    tmp_path: Path, isolated_registry: None, text: str, line: int, message: str, hint: str
) -> None:
    path = write(tmp_path, "my_passes.py", text)
    run = run_tile_opt(["--load", str(path), str(write(tmp_path, "k.mlir", "cuda_tile.module @m {}\n"))])
    assert run.status == 1, run.err
    assert "internal error" not in run.err
    assert f"{path}:{line}:" in run.err and message in run.err and hint in run.err


def test_load_file_imports_modules_beside_it(tmp_path: Path, isolated_registry: None) -> None:
    write(tmp_path, "helpers.py", "NAME = 'beside-pass'\n")
    path = write(
        tmp_path,
        "my_passes.py",
        """\
        from helpers import NAME
        from xdsl.passes import ModulePass

        class Beside(ModulePass):
            name = NAME

            def apply(self, ctx, op):
                pass
        """,
    )
    run = run_tile_opt(["--load", str(path), "-p", "beside-pass", str(write(tmp_path, "k.mlir", "cuda_tile.module @m {}\n"))])
    assert run.status == 0, run.err
    assert "beside-pass" in registry.all_passes()


# -- host side: element types, numpy round trips ---------------------------------


def test_allocations_take_numpy_dtypes() -> None:
    t = st.zeros((8,), np.float32).sync()
    assert t.dtype == st.f32 and t.numpy().dtype == np.float32
    assert st.ones((2,), "int16").sync().dtype == st.i16
    assert st.full((2,), 3, np.uint8).sync().numpy().tolist() == [3, 3]
    assert st.arange(4, dtype=np.int64).sync().numpy().tolist() == [0, 1, 2, 3]


def test_allocations_refuse_what_is_not_an_element_type_at_the_call() -> None:
    with pytest.raises(TypeError, match="is not an element type: pass a safetile type"):
        st.zeros((8,), np.complex64)
    with pytest.raises(TypeError, match="is not an element type"):
        st.zeros((8,), "tile")


def test_from_numpy_takes_lists() -> None:
    t = st.from_numpy([1.0, 2.0]).sync()
    assert t.dtype == st.f64 and t.numpy().tolist() == [1.0, 2.0]
    assert st.from_numpy([[1, 2]], st.f32).sync().numpy().tolist() == [[1.0, 2.0]]


@pytest.mark.parametrize(
    "values, dtype",
    [
        (np.array([0, 1, 0xFF], np.uint8), st.u8),
        (np.array([0, 0xFFFF], np.uint16), st.u16),
        (np.array([0, 0xFFFFFFFF, 0x80000000], np.uint32), st.u32),
        (np.array([0, 2**64 - 1], np.uint64), st.u64),
        (np.array([True, False, True]), st.bool_),
        (np.array([-1, 7], np.int8), st.i8),
    ],
)
def test_element_types_round_trip_exactly(values: np.ndarray, dtype: st.DType) -> None:
    t = st.from_numpy(values).sync()
    assert t.dtype == dtype
    back = t.numpy()
    assert back.dtype == values.dtype
    np.testing.assert_array_equal(back, values)


def test_unsigned_fill_reads_back_unsigned() -> None:
    assert st.full((2,), 0xFFFFFFFF, st.u32).sync().numpy().tolist() == [0xFFFFFFFF] * 2
    assert st.ones((2,), st.bool_).sync().numpy().tolist() == [True, True]


# -- forgotten .sync(), a partition read as a tensor -----------------------------


@st.kernel
def copy(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z))


def test_using_a_launch_as_its_result_says_to_sync() -> None:
    op = copy(st.zeros((8,), f32).sync().partition((4,)), st.zeros((8,), f32).sync())
    with pytest.raises(AttributeError, match=r"a DeviceOp has no attribute 'unpartition'.*\.sync\(\)"):
        op.unpartition()
    with pytest.raises(TypeError, match=r"cannot unpack a DeviceOp.*\.sync\(\)"):
        z, x = op
    z, x = op.sync()  # still usable: nothing ran
    assert z.unpartition().numpy().tolist() == [0.0] * 8


def test_an_allocation_used_as_a_tensor_says_to_sync() -> None:
    with pytest.raises(AttributeError, match=r"a DeviceOp has no attribute 'partition'.*\.sync\(\)"):
        st.zeros((8,), f32).partition((4,))


def test_reading_a_partition_says_to_unpartition() -> None:
    part = st.zeros((8,), f32).sync().partition((4,))
    with pytest.raises(AttributeError, match=r"a Partition has no 'numpy'.*p\.unpartition\(\)\.numpy"):
        part.numpy()
    with pytest.raises(AttributeError, match="'Partition' object has no attribute 'nothing'"):
        part.nothing  # noqa: B018


# -- kernel-language spelling ----------------------------------------------------


@st.kernel
def rust_reduce(z: st.Mut[f32, (4,)], x: st.Ref[f32, (-1, -1)]):
    z.store(st.reduce_sum(x.partition((4, 4)).load((0, 0)), 1))


@st.kernel
def rust_compare(z: st.Mut[f32, (4,)], x: st.Ref[f32, (-1,)]):
    t = st.load_tile_like(x, z)
    z.store(st.where(st.gt_tile(t, t), t, t))


@st.kernel
def rust_block_id(z: st.Mut[f32, (4,)]):
    pid = get_tile_block_id()  # noqa: F821
    z.store(0.0)


@pytest.mark.parametrize(
    "kernel, hint",
    [
        (rust_reduce, "'reduce_sum' is cuTile Rust's name: write st.sum(tile, axis)"),
        (rust_compare, "'gt_tile' is cuTile Rust's name: write a > b"),
        (rust_block_id, "'get_tile_block_id' is cuTile Rust's name: write st.tile_block_id()"),
    ],
)
def test_rust_names_suggest_the_python_spelling(kernel: object, hint: str) -> None:
    with pytest.raises(CompileError) as info:
        kernel.compile()  # type: ignore[attr-defined]
    assert info.value.hint == hint and info.value.line > 0


# -- Triton's spellings ----------------------------------------------------------


@st.kernel
def triton_program_id(z: st.Mut[f32, (4,)]):
    pid = st.program_id(0)  # noqa: F841
    z.store(0.0)


@st.kernel
def triton_cdiv(z: st.Mut[f32, (4,)], x: st.Ref[f32, (-1,)]):
    z.store(st.cdiv(x.shape[0], 4) + 0.0)


@st.kernel
def triton_dot(z: st.Mut[f32, (4, 4)], x: st.Ref[f32, (-1, -1)]):
    t = x.partition((4, 4)).load((0, 0))
    z.store(st.dot(t, t))


@st.kernel
def triton_num_programs(z: st.Mut[f32, (4,)]):
    z.store(st.num_programs(0) + 0.0)


@st.kernel
def triton_arange(z: st.Mut[f32, (16,)]):
    z.store(st.arange(16))


@st.kernel
def triton_none_index(z: st.Mut[f32, (4, 1)], x: st.Ref[f32, (-1,)]):
    z.store(x.partition((4,)).load((0,))[:, None])


@pytest.mark.parametrize(
    "kernel, message, hint",
    [
        (triton_program_id, "module has no attribute 'program_id'",
         "'program_id' is Triton's name: write st.tile_block_id()[axis]"),
        (triton_cdiv, "module has no attribute 'cdiv'", "'cdiv' is Triton's name: write st.ceil_div(a, b)"),
        (triton_dot, "module has no attribute 'dot'", "'dot' is Triton's name: write a @ b"),
        (triton_num_programs, "module has no attribute 'num_programs'",
         "'num_programs' is Triton's name: write st.num_tile_blocks()[axis]"),
        (triton_arange, "'arange' is a plain Python function: it ran at compile time, on the host, and made "
         "deviceop, which a kernel cannot use", "'arange' is Triton's name: write st.iota((n,), st.i32)"),
        (triton_none_index, "cannot index tile<4xf32> with (slice, None)",
         "a None index adds a dimension of size 1 in numpy and Triton: here reshape"),
    ],
)
def test_triton_names_suggest_the_safetile_spelling(kernel: object, message: str, hint: str) -> None:
    with pytest.raises(CompileError) as info:
        kernel.compile()  # type: ignore[attr-defined]
    assert info.value.message == message and info.value.hint.startswith(hint) and info.value.line > 0


def test_a_host_function_called_in_a_kernel_says_it_ran_at_compile_time() -> None:
    @st.kernel
    def host_call(z: st.Mut[f32, (16,)]):
        z.store(st.from_numpy(np.zeros(16, np.float32)))

    with pytest.raises(CompileError, match="'from_numpy' is a plain Python function: it ran at compile time") as info:
        host_call.compile()
    assert "Plain Python calls" in info.value.hint


def test_triton_decorator_and_launch_are_refused_with_the_safetile_way() -> None:
    with pytest.raises(TypeError, match=r"st.jit is Triton's decorator; safetile's is @st.kernel"):
        st.jit(lambda z: None)
    with pytest.raises(TypeError, match=r"triton_program_id\[grid\] is Triton's launch syntax; .*"
                       r"triton_program_id\(z.partition\(tile_shape\), x, \.\.\.\)"):
        triton_program_id[(4,)]
    with pytest.raises(AttributeError, match="'program_id' is Triton's name: write st.tile_block_id"):
        st.program_id  # noqa: B018


# -- an exception inside a lowering is an internal error at the kernel line ----------


@pytest.mark.parametrize("table, key", [("BUILTINS", st.exp), ("OPERATORS", "Add")])
def test_a_lowering_that_raises_is_an_internal_error_at_the_kernel_line(
    monkeypatch: pytest.MonkeyPatch, table: str, key: object
) -> None:
    from safetile.frontend import builtins

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("the bug")

    lowerings = dict(getattr(builtins, table))
    lowerings[key] = builtins._guarded(broken, "the operator Add") if table == "OPERATORS" else broken
    monkeypatch.setattr(builtins, table, lowerings)

    @st.kernel
    def uses_it(z: st.Mut[f32, (4,)], x: st.Ref[f32, (-1,)]):
        t = st.load_tile_like(x, z)
        z.store(st.exp(t) + t)

    with pytest.raises(CompileError) as info:
        uses_it.compile()
    assert info.value.message.startswith("internal error: lowering ")
    assert info.value.message.endswith("raised KeyError: 'the bug'")
    assert info.value.hint == "this is a bug in safetile, not in the kernel: please report it with this message"
    assert "z.store(st.exp(t) + t)" in info.value.source_line
    assert isinstance(info.value.__cause__, KeyError)


# -- conversions take the rounding mode Tile IR has ------------------------------


@st.kernel
def to_int(z: st.Mut[st.i32, (4,)], x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z).astype(st.i32, rounding="zero"))


@st.kernel
def to_float(z: st.Mut[f32, (4,)], x: st.Ref[st.i32, (-1,)]):
    z.store(st.load_tile_like(x, z).astype(f32, rounding="nearest_even"))


@st.kernel
def to_int_nearest(z: st.Mut[st.i32, (4,)], x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z).astype(st.i32, rounding="nearest_even"))


@st.kernel
def int_to_int_rounded(z: st.Mut[st.i32, (4,)], x: st.Ref[st.i16, (-1,)]):
    z.store(st.load_tile_like(x, z).astype(st.i32, rounding="zero"))


def test_ftoi_and_itof_take_their_rounding_mode() -> None:
    x = st.from_numpy(np.array([1.7, -1.7, 2.5, 3.0], np.float32)).sync()
    z, _ = to_int(st.zeros((4,), st.i32).sync().partition((4,)), x).sync()
    assert z.unpartition().numpy().tolist() == [1, -1, 2, 3]
    n = st.from_numpy(np.array([1, 2, 3, 16777217], np.int32)).sync()
    z, _ = to_float(st.zeros((4,), f32).sync().partition((4,)), n).sync()
    assert z.unpartition().numpy().tolist() == [1.0, 2.0, 3.0, 16777216.0]


@pytest.mark.parametrize(
    "kernel, message, hint",
    [
        (to_int_nearest, "a conversion from f32 to i32 rounds with 'zero' only, not 'nearest_even'", "rounding='zero'"),
        (int_to_int_rounded, "a conversion from i16 to i32 does not round", "drop rounding="),
    ],
)
def test_other_rounding_modes_are_refused_with_the_one_that_works(kernel: object, message: str, hint: str) -> None:
    with pytest.raises(CompileError, match=message) as info:
        kernel.compile()  # type: ignore[attr-defined]
    assert hint in info.value.hint


def test_a_zero_dimension_names_the_parameter_and_the_fix() -> None:
    @st.kernel
    def zero_dim(z: st.Mut[f32, (4,)], x: st.Ref[f32, (0,)]):
        z.store(0.0)

    with pytest.raises(CompileError) as info:
        zero_dim.compile()
    assert info.value.message == "dimension sizes of 'x' must be positive or -1 (dynamic), got (0,)"
    assert info.value.hint == "give each dimension its size, or -1 for a size known only at launch"
    assert info.value.source_line[info.value.column - 1:].startswith("x: st.Ref")
