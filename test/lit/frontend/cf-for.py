# `for ... in range(...)` is cuda_tile.for; the names the body reassigns are
# found by a dry visit and carried, whatever their type (tiles, scalars that
# start as Python numbers, tuples).
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def loops(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32):
    t = st.load_tile_like(x, z)
    acc = st.zeros((8,), f32)
    count = 0
    pair = (t, 1.0)
    unchanged = t
    for k in range(n):
        acc = acc + t
        count += 1
        pair = (pair[0] * 2.0, pair[1] + 1.0)
        temporary = acc * 3.0
    for j in range(2, n, 3):
        acc = acc + j.astype(f32)
    z.store(acc + count.astype(f32) + pair[0] * pair[1] + unchanged)


# CHECK-LABEL: entry @loops(
# CHECK: %[[T:.+]]:2 = load_view_tko
# CHECK-NEXT: %[[ACC0:.+]] = constant <f32: 0.000000e+00> : tile<8xf32>
# CHECK-NEXT: %[[LB:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: %[[STEP:.+]] = constant <i32: 1> : tile<i32>
# `count` and the second half of `pair` start as Python numbers: i32 and f32.
# CHECK-NEXT: %[[COUNT0:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: %[[P10:.+]] = constant <f32: 1.000000e+00> : tile<f32>
# CHECK-NEXT: %[[L:.+]]:4 = for %k in (%[[LB]] to %n, step %[[STEP]]) : tile<i32> iter_values(%[[ACC:.+]] = %[[ACC0]], %[[C:.+]] = %[[COUNT0]], %[[P0:.+]] = %[[T]]#0, %[[P1:.+]] = %[[P10]]) -> (tile<8xf32>, tile<i32>, tile<8xf32>, tile<f32>) {
# CHECK-NEXT: %[[A1:.+]] = addf %[[ACC]], %[[T]]#0 : tile<8xf32>
# CHECK-NEXT: %[[ONE:.+]] = constant <i32: 1> : tile<i32>
# CHECK-NEXT: %[[C1:.+]] = addi %[[C]], %[[ONE]] : tile<i32>
# CHECK-NEXT: %[[TWO:.+]] = constant <f32: 2.000000e+00> : tile<8xf32>
# CHECK-NEXT: %[[Q0:.+]] = mulf %[[P0]], %[[TWO]] : tile<8xf32>
# CHECK-NEXT: %[[F1:.+]] = constant <f32: 1.000000e+00> : tile<f32>
# CHECK-NEXT: %[[Q1:.+]] = addf %[[P1]], %[[F1]] : tile<f32>
# CHECK-NEXT: %[[THREE:.+]] = constant <f32: 3.000000e+00> : tile<8xf32>
# CHECK-NEXT: mulf %[[A1]], %[[THREE]] : tile<8xf32>
# CHECK-NEXT: continue %[[A1]], %[[C1]], %[[Q0]], %[[Q1]] : tile<8xf32>, tile<i32>, tile<8xf32>, tile<f32>
# CHECK-NEXT: }
# A range with start and step, its index used as a value.
# CHECK-NEXT: %[[TWO2:.+]] = constant <i32: 2> : tile<i32>
# CHECK-NEXT: %[[THREE2:.+]] = constant <i32: 3> : tile<i32>
# CHECK-NEXT: %[[L2:.+]] = for %j in (%[[TWO2]] to %n, step %[[THREE2]]) : tile<i32> iter_values(%[[A2:.+]] = %[[L]]#0) -> (tile<8xf32>) {
# CHECK-NEXT: %[[JF:.+]] = itof %j signed : tile<i32> -> tile<f32>
# CHECK: continue
# CHECK-NEXT: }
# CHECK-NEXT: itof %[[L]]#1 signed : tile<i32> -> tile<f32>
# CHECK: mulf %[[L]]#2, %{{.+}} : tile<8xf32>
# CHECK: addf %{{.+}}, %[[T]]#0 : tile<8xf32>


@st.kernel(specialize=[dict()])
def nested(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1, -1)], n: i32):
    bm, _, _ = st.tile_block_id()
    px = x.partition((1, 8))
    acc = st.zeros((1, 8), f32)
    for i in range(n):
        for j in range(st.num_tiles(px, 1)):
            acc = acc + px.load((i, j))
    z.store(acc.reshape((8,)))


# Nested loops carry the accumulator through both levels.
# CHECK-LABEL: entry @nested(
# CHECK: %[[OUT:.+]] = for %i in ({{.+}}) : tile<i32> iter_values(%[[X:.+]] = %{{.+}}) -> (tile<1x8xf32>) {
# CHECK: %[[IN:.+]] = for %j in ({{.+}}) : tile<i32> iter_values(%[[Y:.+]] = %[[X]]) -> (tile<1x8xf32>) {
# CHECK: load_view_tko weak %{{.+}}[%i, %j]
# CHECK: continue %{{.+}} : tile<1x8xf32>
# CHECK-NEXT: }
# CHECK-NEXT: continue %[[IN]] : tile<1x8xf32>
# CHECK-NEXT: }
# CHECK-NEXT: reshape %[[OUT]] : tile<1x8xf32> -> tile<8xf32>
