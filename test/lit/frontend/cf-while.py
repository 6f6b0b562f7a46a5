# `while` is cuda_tile.loop: the condition is tested at the top of each
# iteration, and a false one breaks out with the carried values.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def collatz(z: st.Mut[i32, (1,)], n: i32):
    steps = 0
    while n != 1:
        n = st.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    z.store(steps)


# CHECK-LABEL: entry @collatz(
# CHECK: %[[S0:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: %[[L:.+]]:2 = loop iter_values(%[[N:.+]] = %n, %[[S:.+]] = %[[S0]]) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
# CHECK-NEXT: %[[ONE:.+]] = constant <i32: 1> : tile<i32>
# CHECK-NEXT: %[[C:.+]] = cmpi not_equal %[[N]], %[[ONE]], signed : tile<i32> -> tile<i1>
# CHECK-NEXT: if %[[C]] {
# CHECK-NEXT: } else {
# CHECK-NEXT: break %[[N]], %[[S]] : tile<i32>, tile<i32>
# CHECK-NEXT: }
# CHECK: select
# CHECK: %[[S1:.+]] = addi %[[S]], %{{.+}} : tile<i32>
# CHECK-NEXT: continue %{{.+}}, %[[S1]] : tile<i32>, tile<i32>
# CHECK-NEXT: }
# CHECK: reshape %[[L]]#1 : tile<i32> -> tile<1xi32>


@st.kernel(specialize=[dict()])
def forever(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32):
    t = st.load_tile_like(x, z)
    while True:
        t = t * 0.5
        if st.max(t, 0) < 1.0:
            break
    while False:
        t = t + 1.0
    z.store(t)


# `while True` has no test; `while False` disappears.
# CHECK-LABEL: entry @forever(
# CHECK: %[[W:.+]] = loop iter_values(%[[T:.+]] = %{{.+}}#0) : tile<8xf32> -> tile<8xf32> {
# CHECK-NEXT: %[[HALF:.+]] = constant <f32: 5.000000e-01> : tile<8xf32>
# CHECK-NEXT: %[[T2:.+]] = mulf %[[T]], %[[HALF]] : tile<8xf32>
# CHECK-NEXT: reduce %[[T2]] dim=0
# CHECK: if %{{.+}} {
# CHECK-NEXT: break %[[T2]] : tile<8xf32>
# CHECK-NEXT: }
# CHECK-NEXT: continue %[[T2]] : tile<8xf32>
# CHECK-NEXT: }
# CHECK-NOT: loop
# CHECK: store_view_tko weak %[[W]],
