# Reductions and scans: built-in combiners, and custom ones written as a
# lambda or a @st.function, inlined into the reduce/scan body.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.function
def larger(x, acc):
    return st.maximum(x, acc)


@st.kernel(specialize=[dict()])
def reductions(z: st.Mut[f32, (8, 16)], x: st.Ref[f32, (-1, -1)], y: st.Ref[i32, (-1, -1)]):
    a = st.load_tile_like(x, z)
    s = st.sum(a, 1, keepdims=True) + st.max(a, -1, keepdims=True) + st.min(a, 1).reshape((8, 1))
    p = st.prod(a, 0)
    r = st.reduce(a, 0, lambda v, acc: v + acc * 2.0, 0.0)
    m = st.reduce(a, 1, larger, float("-inf"), keepdims=True)
    c = st.cumsum(a, 1) + st.cumprod(a, 0, reverse=True) + st.scan(a, 1, larger, -1e30)
    i = st.load_tile_like(y, z)
    imax = st.max(i, 1, keepdims=True).astype(f32) + st.sum(i, 0).astype(f32)
    z.store(s + p + r + m + c + imax)


# CHECK-LABEL: entry @reductions(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK-NEXT: %[[S:.+]] = reduce %[[A]]#0 dim=1 identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<8xf32>
# CHECK-NEXT: (%[[E:.+]]: tile<f32>, %[[ACC:.+]]: tile<f32>) {
# CHECK-NEXT: %[[SUM:.+]] = addf %[[E]], %[[ACC]] : tile<f32>
# CHECK-NEXT: yield %[[SUM]] : tile<f32>
# CHECK-NEXT: }
# keepdims reshapes the result back to rank 2.
# CHECK-NEXT: reshape %[[S]] : tile<8xf32> -> tile<8x1xf32>
# CHECK-NEXT: reduce %[[A]]#0 dim=1 identities=[{{0xff800000|0xFF800000}} : f32]
# CHECK: maxf
# CHECK: reduce %[[A]]#0 dim=1 identities=[{{0x7f800000|0x7F800000}} : f32]
# CHECK: minf
# CHECK: reduce %[[A]]#0 dim=0 identities=[1.000000e+00 : f32] : tile<8x16xf32> -> tile<16xf32>
# CHECK: mulf
# The lambda is inlined into the combiner body.
# CHECK: reduce %[[A]]#0 dim=0 identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<16xf32>
# CHECK-NEXT: (%[[V:.+]]: tile<f32>, %[[W:.+]]: tile<f32>) {
# CHECK-NEXT: %[[TWO:.+]] = constant <f32: 2.000000e+00> : tile<f32>
# CHECK-NEXT: %[[M2:.+]] = mulf %[[W]], %[[TWO]] : tile<f32>
# CHECK-NEXT: %[[VA:.+]] = addf %[[V]], %[[M2]] : tile<f32>
# CHECK-NEXT: yield %[[VA]] : tile<f32>
# So is the device function.
# CHECK: reduce %[[A]]#0 dim=1 identities=[{{0xff800000|0xFF800000}} : f32]
# CHECK-NEXT: (%[[X1:.+]]: tile<f32>, %[[X2:.+]]: tile<f32>) {
# CHECK-NEXT: %[[MX:.+]] = maxf %[[X1]], %[[X2]] : tile<f32>
# CHECK-NEXT: yield %[[MX]] : tile<f32>
# CHECK: scan %[[A]]#0 dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<8x16xf32>
# CHECK: addf
# CHECK: scan %[[A]]#0 dim=0 reverse=true identities=[1.000000e+00 : f32] : tile<8x16xf32> -> tile<8x16xf32>
# CHECK: mulf
# CHECK: scan %[[A]]#0 dim=1 reverse=false identities=[-1.000000e+30 : f32]
# CHECK: maxf
# Integer max starts from the smallest i32; maxi reads the sign.
# CHECK: reduce %{{.+}} dim=1 identities=[-2147483648 : i32] : tile<8x16xi32> -> tile<8xi32>
# CHECK: maxi %{{.+}}, %{{.+}} signed : tile<i32>
# CHECK: reduce %{{.+}} dim=0 identities=[0 : i32] : tile<8x16xi32> -> tile<16xi32>
# CHECK: addi
