# Static checking of shapes and element types: each kernel below has one
# mistake, reported at its line and column with a hint, before anything runs.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f16, f32, i32


@st.kernel(specialize=[dict()])
def shape_mismatch(z: st.Mut[f32, (64,)], x: st.Ref[f32, (-1,)]):
    a = st.load_tile_like(x, z)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 4]]:13: error: shapes do not broadcast in +: (64,) and (32,)
    # CHECK-NEXT: {{^}}    z.store(a + st.zeros((32,), f32))
    # CHECK-NEXT: {{^}}            ^
    # CHECK-NEXT: help: dimensions must be equal or 1 (aligned from the right); reshape or broadcast first
    z.store(a + st.zeros((32,), f32))


@st.kernel(specialize=[dict()])
def dtype_mismatch(z: st.Mut[f32, (64,)], x: st.Ref[f16, (-1,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:13: error: element types differ in *: f16 and f32
    # CHECK-NEXT: z.store(st.load_tile_like(x, z) * st.ones((64,), f32))
    z.store(st.load_tile_like(x, z) * st.ones((64,), f32))


@st.kernel(specialize=[dict()])
def store_dtype(z: st.Mut[f32, (64,)], x: st.Ref[f16, (-1,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:5: error: a tile stored into 'z' must be f32, got tile<64xf16>
    # CHECK: help: convert explicitly: .astype(st.f32)
    z.store(st.load_tile_like(x, z))


@st.kernel(specialize=[dict()])
def mma_inner(z: st.Mut[f32, (16, 32)]):
    a = st.zeros((16, 8), f32)
    b = st.zeros((16, 32), f32)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:13: error: mma inner dimensions differ: a is [16, 8] and b is [16, 32] (8 != 16)
    # CHECK: help: a's last dimension must equal b's first (a: [M, K], b: [K, N])
    z.store(st.mma(a, b, st.zeros((16, 32), f32)))


@st.kernel(specialize=[dict()])
def mma_accumulator(z: st.Mut[f32, (16, 32)]):
    a = st.zeros((16, 8), f16)
    b = st.zeros((8, 32), f16)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 1]]:13: error: mma accumulator shape [32, 16] does not match a @ b: [16, 32]
    z.store(st.mma(a, b, st.zeros((32, 16), f32)))


@st.kernel(specialize=[dict()])
def mma_types(z: st.Mut[i32, (16, 32)]):
    a = st.zeros((16, 8), f16)
    b = st.zeros((8, 32), f16)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:13: error: mma of f16 operands cannot accumulate into i32
    # CHECK: help: use an accumulator of f16, f32
    z.store(st.mma(a, b, st.zeros((16, 32), i32)))


@st.kernel(specialize=[dict()])
def not_power_of_two(z: st.Mut[f32, (64,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:13: error: tile dimensions must be powers of two, got (100,)
    # CHECK: help: choose power-of-two tile sizes; edge tiles of a tensor are handled by partitions
    z.store(st.zeros((100,), f32).reshape((64,)))


@st.kernel(specialize=[dict()])
def partition_not_power_of_two(z: st.Mut[f32, (64,)], x: st.Ref[f32, (-1,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 1]]:13: error: tile dimensions must be powers of two, got (48,)
    z.store(x.partition((48,)).load((0,)))


@st.kernel(specialize=[dict()])
def int_true_division(z: st.Mut[i32, (64,)], x: st.Ref[i32, (-1,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:13: error: '/' is true division and needs float tiles, got tile<64xi32>
    # CHECK: help: use '//' for integer division, or convert with .astype(st.f32)
    z.store(st.load_tile_like(x, z) / 2)


@st.kernel(specialize=[dict()])
def float_literal_for_int(z: st.Mut[i32, (64,)], x: st.Ref[i32, (-1,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 1]]:13: error: 0.5 is a float, but the tile is i32
    z.store(st.load_tile_like(x, z) + 0.5)


@st.kernel(specialize=[dict()])
def reshape_count(z: st.Mut[f32, (64,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 1]]:13: error: cannot reshape tile<8x4xf32> (32 elements) to (64,) (64 elements)
    z.store(st.zeros((8, 4), f32).reshape((64,)))


@st.kernel(specialize=[dict()])
def runtime_tile_condition(z: st.Mut[f32, (64,)], x: st.Ref[f32, (-1,)]):
    t = st.load_tile_like(x, z)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:8: error: a condition must be a bool scalar, got tile<64xbool>
    # CHECK: help: compare scalars (a < b), or use st.where for element-wise choices
    if t > 0.0:
        t = -t
    z.store(t)


@st.kernel(specialize=[dict()])
def carried_type_change(z: st.Mut[f32, (64,)], x: st.Ref[f16, (-1,)], n: i32):
    acc = st.zeros((64,), f32)
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 2]]:5: error: 'acc' changes type: tile<64xf32> on one path, tile<64xf16> on another
    # CHECK: help: convert explicitly (e.g. .astype(...)) so that every path gives one type
    for k in range(n):
        acc = st.load_tile_like(x, z)
    z.store(acc)


@st.kernel(specialize=[dict()])
def reduce_axis(z: st.Mut[f32, (64,)]):
    # CHECK: {{.*}}errors-types.py:[[# @LINE + 1]]:13: error: axis 2 is out of range for a tile of rank 1
    z.store(st.sum(st.zeros((64,), f32), 2))


# CHECK: error: 14 kernel(s) failed to compile
