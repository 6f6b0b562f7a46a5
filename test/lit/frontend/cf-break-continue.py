# `break` and `continue`: a `for` that breaks becomes a cuda_tile.loop that
# counts its index; `continue` passes the carried values to the next
# iteration from wherever it is.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def search(z: st.Mut[i32, (1,)], x: st.Ref[f32, (-1, -1)], n: i32):
    px = x.partition((1, 16))
    found = -1
    for i in range(0, n, 2):
        if st.max(px.load((0, i)), 1).reshape(()) > 0.0:
            found = i
            break
    z.store(found)


# CHECK-LABEL: entry @search(
# CHECK: %[[LB:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: %[[TWO:.+]] = constant <i32: 2> : tile<i32>
# CHECK-NEXT: %[[F0:.+]] = constant <i32: -1> : tile<i32>
# CHECK-NEXT: %[[L:.+]] = loop iter_values(%[[I:.+]] = %[[LB]], %[[F:.+]] = %[[F0]]) : tile<i32>, tile<i32> -> tile<i32> {
# CHECK-NEXT: %[[DONE:.+]] = cmpi greater_than_or_equal %[[I]], %n, signed : tile<i32> -> tile<i1>
# CHECK-NEXT: if %[[DONE]] {
# CHECK-NEXT: break %[[F]] : tile<i32>
# CHECK-NEXT: }
# CHECK: load_view_tko weak %{{.+}}[%{{.+}}, %[[I]]]
# CHECK: if %{{.+}} {
# CHECK-NEXT: break %[[I]] : tile<i32>
# CHECK-NEXT: }
# CHECK-NEXT: %[[NEXT:.+]] = addi %[[I]], %[[TWO]] : tile<i32>
# CHECK-NEXT: continue %[[NEXT]], %[[F]] : tile<i32>, tile<i32>
# CHECK-NEXT: }
# CHECK: reshape %[[L]] : tile<i32> -> tile<1xi32>


@st.kernel(specialize=[dict()])
def skip(z: st.Mut[f32, (1,)], n: i32):
    total = 0.0
    for i in range(n):
        if i % 3 == 0:
            continue
        total = total + i.astype(f32)
        if total > 100.0:
            total = 0.0
            continue
        total = total * 2.0
    z.store(total)


# `continue` inside if branches of a `for`, with the carried value as it is there.
# CHECK-LABEL: entry @skip(
# CHECK: %[[R:.+]] = for %i in ({{.+}}) : tile<i32> iter_values(%[[T:.+]] = %{{.+}}) -> (tile<f32>) {
# CHECK: if %{{.+}} {
# CHECK-NEXT: continue %[[T]] : tile<f32>
# CHECK-NEXT: }
# CHECK: %[[T1:.+]] = addf %[[T]], %{{.+}} : tile<f32>
# CHECK: if %{{.+}} {
# CHECK-NEXT: %[[ZERO:.+]] = constant <f32: 0.000000e+00> : tile<f32>
# CHECK-NEXT: continue %[[ZERO]] : tile<f32>
# CHECK-NEXT: }
# CHECK: %[[T2:.+]] = mulf %[[T1]], %{{.+}} : tile<f32>
# CHECK-NEXT: continue %[[T2]] : tile<f32>
# CHECK-NEXT: }
