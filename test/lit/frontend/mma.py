# Matrix multiply-accumulate: mmaf for floats, mmai for 8-bit integers,
# batched 3-d tiles, and `@` into a fresh accumulator.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f16, f32, i8, i32, tf32, u8


@st.kernel(specialize=[dict()])
def mma(z: st.Mut[f32, (64, 32)], x: st.Ref[f16, (-1, -1)], y: st.Ref[f16, (-1, -1)]):
    a = x.partition((64, 16)).load((0, 0))
    b = y.partition((16, 32)).load((0, 0))
    c = st.mma(a, b, st.zeros((64, 32), f32))
    d = a @ b
    e = st.mma(a, b, st.zeros((64, 32), f16)).astype(f32)
    t = st.mma(a.astype(f32).astype(tf32), b.astype(f32).astype(tf32), c)
    z.store(c + d + e + t)


# CHECK-LABEL: entry @mma(
# CHECK: %[[A:.+]]:2 = load_view_tko {{.+}} -> tile<64x16xf16>, token
# CHECK: %[[B:.+]]:2 = load_view_tko {{.+}} -> tile<16x32xf16>, token
# CHECK-NEXT: %[[Z:.+]] = constant <f32: 0.000000e+00> : tile<64x32xf32>
# CHECK-NEXT: %[[C:.+]] = mmaf %[[A]]#0, %[[B]]#0, %[[Z]] : tile<64x16xf16>, tile<16x32xf16>, tile<64x32xf32>
# `@` accumulates f16 into f32.
# CHECK-NEXT: %[[Z2:.+]] = constant <f32: 0.000000e+00> : tile<64x32xf32>
# CHECK-NEXT: mmaf %[[A]]#0, %[[B]]#0, %[[Z2]] : tile<64x16xf16>, tile<16x32xf16>, tile<64x32xf32>
# CHECK: mmaf %[[A]]#0, %[[B]]#0, %{{.+}} : tile<64x16xf16>, tile<16x32xf16>, tile<64x32xf16>
# CHECK: mmaf %{{.+}}, %{{.+}}, %[[C]] : tile<64x16xtf32>, tile<16x32xtf32>, tile<64x32xf32>


@st.kernel(specialize=[dict()])
def imma(z: st.Mut[i32, (2, 16, 16)], x: st.Ref[i8, (-1, -1, -1)], y: st.Ref[u8, (-1, -1, -1)]):
    a = x.partition((2, 16, 32)).load((0, 0, 0))
    b = y.partition((2, 32, 16)).load((0, 0, 0))
    z.store(st.mma(a, b, st.zeros((2, 16, 16), i32)))


# Batched 8-bit integer mma, the signedness from each operand's type.
# CHECK-LABEL: entry @imma(
# CHECK: mmai %{{.+}}, %{{.+}}, %{{.+}} signed unsigned : tile<2x16x32xi8>, tile<2x32x16xi8>, tile<2x16x16xi32>
