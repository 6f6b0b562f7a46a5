# Shape manipulation: reshape, broadcast (NumPy rules), permute, transpose,
# cat, extract.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32


@st.kernel(specialize=[dict()])
def shapes(z: st.Mut[f32, (8, 16)], x: st.Ref[f32, (-1, -1)]):
    a = st.load_tile_like(x, z)
    row = st.sum(a, 0).reshape((1, 16))
    b = a + row.broadcast((8, 16)) + st.broadcast(st.sum(a, 1), (16, 8)).T
    c = st.permute(b.reshape((2, 4, 16)), (1, 0, 2)).reshape((8, 16))
    d = st.transpose(st.cat(c.T, c.T, 1)).permute((0, 1))
    e = st.extract(d, (1, 0), (8, 16)) + st.reshape(st.iota((128,)).astype(f32), (8, 16))
    z.store(e)


# CHECK-LABEL: entry @shapes(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK: %[[ROW:.+]] = reshape %{{.+}} : tile<16xf32> -> tile<1x16xf32>
# CHECK-NEXT: %[[RB:.+]] = broadcast %[[ROW]] : tile<1x16xf32> -> tile<8x16xf32>
# A 1-d tile broadcasts to 2-d by prepending a dimension.
# CHECK: %[[COL:.+]] = reshape %{{.+}} : tile<8xf32> -> tile<1x8xf32>
# CHECK-NEXT: %[[CB:.+]] = broadcast %[[COL]] : tile<1x8xf32> -> tile<16x8xf32>
# CHECK-NEXT: permute %[[CB]] [1, 0] : tile<16x8xf32> -> tile<8x16xf32>
# CHECK: %[[B3:.+]] = reshape %{{.+}} : tile<8x16xf32> -> tile<2x4x16xf32>
# CHECK-NEXT: %[[P:.+]] = permute %[[B3]] [1, 0, 2] : tile<2x4x16xf32> -> tile<4x2x16xf32>
# CHECK-NEXT: reshape %[[P]] : tile<4x2x16xf32> -> tile<8x16xf32>
# CHECK: %[[T1:.+]] = permute %{{.+}} [1, 0] : tile<8x16xf32> -> tile<16x8xf32>
# CHECK: cat %[[T1]], %{{.+}} dim = 1 : tile<16x8xf32>, tile<16x8xf32> -> tile<16x16xf32>
# CHECK: permute %{{.+}} [1, 0] : tile<16x16xf32> -> tile<16x16xf32>
# CHECK: permute %{{.+}} [0, 1] : tile<16x16xf32> -> tile<16x16xf32>
# CHECK: %[[I1:.+]] = constant <i32: 1> : tile<i32>
# CHECK-NEXT: %[[I0:.+]] = constant <i32: 0> : tile<i32>
# CHECK-NEXT: extract %{{.+}}[%[[I1]], %[[I0]]] : tile<16x16xf32> -> tile<8x16xf32>
# CHECK: reshape %{{.+}} : tile<128xf32> -> tile<8x16xf32>
