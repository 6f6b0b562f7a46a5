# `if` on a runtime bool scalar is cuda_tile.if yielding every name a branch
# assigns; on a compile-time value only the branch taken is lowered.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict(MODE=0), dict(MODE=1)])
def branches(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32, *, MODE: int):
    t = st.load_tile_like(x, z)
    scale = 1.0
    if n > 0:
        t = t * 2.0
        scale = 3.0
    elif n == 0:
        t = -t
    else:
        count = n + 1
        t = t + count.astype(f32)
    if MODE == 1:
        t = t + 100.0
    else:
        t = t - 100.0
    bias = 5.0 if MODE == 1 else 6.0
    z.store(t * scale + bias)


# A scalar assigned numbers on both paths becomes an f32 result; `count`
# (one branch only) is not yielded.
# CHECK-LABEL: entry @branches_0(
# CHECK: %[[T:.+]]:2 = load_view_tko
# CHECK: %[[C:.+]] = cmpi greater_than %n, %{{.+}}, signed : tile<i32> -> tile<i1>
# CHECK-NEXT: %[[R:.+]]:2 = if %[[C]] -> (tile<8xf32>, tile<f32>) {
# CHECK-NEXT: %[[TWO:.+]] = constant <f32: 2.000000e+00> : tile<8xf32>
# CHECK-NEXT: %[[T2:.+]] = mulf %[[T]]#0, %[[TWO]] : tile<8xf32>
# CHECK-NEXT: %[[S3:.+]] = constant <f32: 3.000000e+00> : tile<f32>
# CHECK-NEXT: yield %[[T2]], %[[S3]] : tile<8xf32>, tile<f32>
# CHECK-NEXT: } else {
# CHECK-NEXT: %[[Z:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: %[[EQ:.+]] = cmpi equal %n, %[[Z]], signed : tile<i32> -> tile<i1>
# CHECK-NEXT: %[[E:.+]] = if %[[EQ]] -> (tile<8xf32>) {
# CHECK-NEXT: %[[NEG:.+]] = negf %[[T]]#0 : tile<8xf32>
# CHECK-NEXT: yield %[[NEG]] : tile<8xf32>
# CHECK-NEXT: } else {
# CHECK: addi %n, %{{.+}} : tile<i32>
# CHECK: itof
# CHECK: %[[TC:.+]] = addf %[[T]]#0, %{{.+}} : tile<8xf32>
# CHECK-NEXT: yield %[[TC]] : tile<8xf32>
# CHECK-NEXT: }
# CHECK-NEXT: %[[S1:.+]] = constant <f32: 1.000000e+00> : tile<f32>
# CHECK-NEXT: yield %[[E]], %[[S1]] : tile<8xf32>, tile<f32>
# CHECK-NEXT: }
# MODE is a generic: only the else branch, and the IfExp's 6.0.
# CHECK-NEXT: %[[H:.+]] = constant <f32: 1.000000e+02> : tile<8xf32>
# CHECK-NEXT: %[[T4:.+]] = subf %[[R]]#0, %[[H]] : tile<8xf32>
# CHECK: %[[SC:.+]] = broadcast %{{.+}} : tile<1xf32> -> tile<8xf32>
# CHECK-NEXT: %[[M:.+]] = mulf %[[T4]], %[[SC]] : tile<8xf32>
# CHECK-NEXT: constant <f32: 6.000000e+00> : tile<8xf32>
# CHECK-LABEL: entry @branches_1(
# CHECK: constant <f32: 1.000000e+02> : tile<8xf32>
# CHECK-NEXT: addf
# CHECK: constant <f32: 5.000000e+00> : tile<8xf32>


@st.kernel(specialize=[dict()])
def no_else(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32):
    t = st.load_tile_like(x, z)
    if n > 0:
        st.print("positive\n")
    if n < 0:
        t = t * 0.0
    z.store(t)


# Without results and without else, the else region is absent.
# CHECK-LABEL: entry @no_else(
# CHECK: if %{{.+}} {
# CHECK-NEXT: print_tko "positive\0A" -> token
# CHECK-NEXT: }
# A name assigned in one branch only: the other yields its old value.
# CHECK: %[[V:.+]] = if %{{.+}} -> (tile<8xf32>) {
# CHECK: yield
# CHECK-NEXT: } else {
# CHECK-NEXT: yield %{{.+}}#0 : tile<8xf32>
# CHECK-NEXT: }
# CHECK: store_view_tko weak %[[V]],
