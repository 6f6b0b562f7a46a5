# Compile-time control flow: st.static_range and loops over tuples unroll;
# `if` on generics prunes; break/continue on compile-time conditions.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(STAGES=3)])
def unrolled(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1, -1)], *, STAGES: int):
    bm, _, _ = st.tile_block_id()
    px = x.partition((1, 8))
    acc = st.zeros((1, 8), f32)
    for s in st.static_range(STAGES):
        acc = acc + px.load((bm, s))
    for w in (0.5, 0.25):
        acc = acc * w
    for i in st.static_range(10):
        if i % 2 == 1:
            continue
        if i > 4:
            break
        acc = acc + float(i)
    z.store(acc.reshape((8,)))


# CHECK-LABEL: entry @unrolled_3(
# CHECK-NOT: for
# CHECK: %[[S0:.+]] = constant <i32: 0> : tile<i32>
# CHECK: load_view_tko weak %{{.+}}[%{{.+}}, %[[S0]]]
# CHECK: %[[S1:.+]] = constant <i32: 1> : tile<i32>
# CHECK: load_view_tko weak %{{.+}}[%{{.+}}, %[[S1]]]
# CHECK: %[[S2:.+]] = constant <i32: 2> : tile<i32>
# CHECK: load_view_tko weak %{{.+}}[%{{.+}}, %[[S2]]]
# CHECK: constant <f32: 5.000000e-01> : tile<1x8xf32>
# CHECK: constant <f32: 2.500000e-01> : tile<1x8xf32>
# Only i = 0, 2, 4 are added.
# CHECK: constant <f32: 0.000000e+00> : tile<1x8xf32>
# CHECK: constant <f32: 2.000000e+00> : tile<1x8xf32>
# CHECK: constant <f32: 4.000000e+00> : tile<1x8xf32>
# CHECK-NOT: constant <f32: {{[13567]}}
# CHECK: reshape
