# Creating tiles: zeros, ones, full, constant, broadcast_scalar, iota.
# RUN: %opt %s | filecheck %s
import math

import safetile as st
from safetile import bf16, f32, i32, i64


@st.kernel(specialize=[dict(S=(4, 8))])
def create(z: st.Mut[f32, "S"], s: f32, n: i32, *, S: st.Shape):
    a = st.zeros(S, f32) + st.ones(S, f32) + st.full(S, 2.5, f32)
    b = st.constant(-math.inf, S) + st.broadcast_scalar(s, S) + st.full(S, s)
    c = st.iota((8,)).astype(f32).reshape((1, 8)) + st.iota(8, i64).astype(f32) + n.astype(f32)
    d = st.zeros((4, 8), bf16).astype(f32) + st.constant(7, S).astype(f32)
    z.store(a + b + c + d)


# CHECK-LABEL: entry @create_4x8(
# CHECK: constant <f32: 0.000000e+00> : tile<4x8xf32>
# CHECK-NEXT: constant <f32: 1.000000e+00> : tile<4x8xf32>
# CHECK: constant <f32: 2.500000e+00> : tile<4x8xf32>
# CHECK: constant <f32: 0xFF800000> : tile<4x8xf32>
# A runtime scalar is reshaped to rank 2, then broadcast.
# CHECK: %[[R:.+]] = reshape %s : tile<f32> -> tile<1x1xf32>
# CHECK-NEXT: broadcast %[[R]] : tile<1x1xf32> -> tile<4x8xf32>
# CHECK: %[[R2:.+]] = reshape %s : tile<f32> -> tile<1x1xf32>
# CHECK-NEXT: broadcast %[[R2]] : tile<1x1xf32> -> tile<4x8xf32>
# CHECK: iota : tile<8xi32>
# CHECK: iota : tile<8xi64>
# CHECK: constant <bf16: 0.000000e+00> : tile<4x8xbf16>
# An int constant without dtype is i32.
# CHECK: constant <i32: 7> : tile<4x8xi32>
