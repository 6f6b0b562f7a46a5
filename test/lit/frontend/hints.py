# Memory hints: a kernel's load_hints/store_hints go on every load and store,
# a call's latency=/allow_tma= over them (and under `default` for the archs
# the kernel does not name); a bad value is a located error.
# RUN: %opt %s | filecheck %s
# RUN: not %opt %S/inputs/bad_latency.py 2>&1 | filecheck %s --check-prefix=BAD
import safetile as st
from safetile import f16, f32


@st.kernel(load_hints={"sm_90": {"latency": 6}}, store_hints={"default": {"allow_tma": False}},
           specialize=[dict()])
def hinted(z: st.Mut[f32, (64, 64)], x: st.Ref[f16, (-1, -1)], y: st.Ref[f16, (-1, -1)]):
    bm, bn, _ = st.tile_block_id()
    a = x.partition((64, 64)).load((bm, bn))
    b = st.load_tile_like(y, z, latency=3)
    z.store((a + b).astype(f32))


# CHECK-LABEL: entry @hinted(
# CHECK: load_view_tko weak {{.*}} optimization_hints = <sm_90 = {latency = 6}> :
# CHECK: load_view_tko weak {{.*}} optimization_hints = <default = {latency = 3}, sm_90 = {latency = 3}> :
# CHECK: store_view_tko weak {{.*}} optimization_hints = <default = {allow_tma = false}> :

# BAD: bad_latency.py:7:9: error: latency=0: expected an int from 1 to 10
