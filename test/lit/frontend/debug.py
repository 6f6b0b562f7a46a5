# Device print and assert; Python's assert and print map onto them, and an
# assert on compile-time values is checked at compile time.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32, i64, u32


@st.kernel(specialize=[dict(B=16)])
def debug(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], n: i32, m: i64, u: u32, *, B: int):
    assert B % 16 == 0, "B must be a multiple of 16"
    t = st.load_tile_like(x, z)
    bm, _, _ = st.tile_block_id()
    st.print("block %d: %f\n", bm, t)
    print("n =", n, "m =", m, "u =", u, "100%")
    st.device_assert(t >= 0.0, "negative input")
    assert n > 0, "n must be positive"
    z.store(t)


# CHECK-LABEL: entry @debug_16(
# CHECK: %[[T:.+]]:2 = load_view_tko
# CHECK-NEXT: print_tko "block %d: %f\0A", %{{.+}}#0, %[[T]]#0 : tile<i32>, tile<16xf32> -> token
# CHECK-NEXT: print_tko "n = %d m = %lld u = %u 100%%\0A", %n, %m, %u : tile<i32>, tile<i64>, tile<i32> -> token
# CHECK: %[[GE:.+]] = cmpf greater_than_or_equal ordered %[[T]]#0
# CHECK-NEXT: assert %[[GE]], "negative input" : tile<16xi1>
# CHECK: %[[POS:.+]] = cmpi greater_than %n
# CHECK-NEXT: assert %[[POS]], "n must be positive" : tile<i1>
