# Math functions on float tiles, with their rounding and flush-to-zero options.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f16, f32


@st.kernel(specialize=[dict()])
def math_ops(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)]):
    a = st.load_tile_like(x, z)
    b = st.exp(a) + st.exp(a, approx=True) + st.exp2(a) + st.exp2(a, ftz=True)
    c = st.log(b) + st.log2(b) + st.sqrt(b) + st.sqrt(b, rounding="approx") + st.sqrt(b, ftz=True)
    d = st.rsqrt(c) + st.rsqrt(c, ftz=True) + st.sin(c) + st.cos(c) + st.tan(c)
    e = st.sinh(d) + st.cosh(d) + st.tanh(d) + st.tanh(d, approx=True)
    f = st.ceil(e) + st.floor(e) + st.atan2(e, d)
    z.store(f)


# CHECK-LABEL: entry @math_ops(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK-NEXT: exp %[[A]]#0 : tile<8xf32>
# CHECK-NEXT: exp %[[A]]#0 rounding<approx> : tile<8xf32>
# CHECK: exp2 %[[A]]#0 : tile<8xf32>
# CHECK: exp2 %[[A]]#0 flush_to_zero : tile<8xf32>
# CHECK: %[[B:.+]] = addf
# CHECK-NEXT: log %[[B]] : tile<8xf32>
# CHECK-NEXT: log2 %[[B]] : tile<8xf32>
# CHECK: sqrt %[[B]] : tile<8xf32>
# CHECK: sqrt %[[B]] rounding<approx> : tile<8xf32>
# CHECK: sqrt %[[B]] flush_to_zero : tile<8xf32>
# CHECK: %[[C:.+]] = addf
# CHECK-NEXT: rsqrt %[[C]] : tile<8xf32>
# CHECK-NEXT: rsqrt %[[C]] flush_to_zero : tile<8xf32>
# CHECK: sin %[[C]] : tile<8xf32>
# CHECK: cos %[[C]] : tile<8xf32>
# CHECK: tan %[[C]] : tile<8xf32>
# CHECK: %[[D:.+]] = addf
# CHECK-NEXT: sinh %[[D]] : tile<8xf32>
# CHECK-NEXT: cosh %[[D]] : tile<8xf32>
# CHECK: tanh %[[D]] : tile<8xf32>
# CHECK: tanh %[[D]] rounding<approx> : tile<8xf32>
# CHECK: %[[E:.+]] = addf
# CHECK-NEXT: ceil %[[E]] : tile<8xf32>
# CHECK-NEXT: floor %[[E]] : tile<8xf32>
# CHECK: atan2 %[[E]], %[[D]] : tile<8xf32>


@st.kernel(specialize=[dict()])
def half(z: st.Mut[f16, (8,)], x: st.Ref[f16, (-1,)]):
    z.store(st.exp(st.load_tile_like(x, z)))


# The same ops on f16 tiles (approx and flush-to-zero are f32 only).
# CHECK-LABEL: entry @half(
# CHECK: exp %{{.+}} : tile<8xf16>
