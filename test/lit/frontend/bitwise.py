# Bitwise operators and shifts; the right shift follows the signedness.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import i32, u32


@st.kernel(specialize=[dict()])
def bits(z: st.Mut[i32, (8,)], x: st.Ref[i32, (-1,)], u: st.Ref[u32, (-1,)]):
    a = st.load_tile_like(x, z)
    b = (a & 0xFF) | (a ^ 3)
    c = ~b << 2
    d = c >> 1
    p = st.load_tile_like(u, z)
    q = (p >> 4) & ~p
    z.store(d + q.astype(i32))


# CHECK-LABEL: entry @bits(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK-NEXT: %[[M:.+]] = constant <i32: 255> : tile<8xi32>
# CHECK-NEXT: %[[AND:.+]] = andi %[[A]]#0, %[[M]] : tile<8xi32>
# CHECK-NEXT: %[[THREE:.+]] = constant <i32: 3> : tile<8xi32>
# CHECK-NEXT: %[[XOR:.+]] = xori %[[A]]#0, %[[THREE]] : tile<8xi32>
# CHECK-NEXT: %[[B:.+]] = ori %[[AND]], %[[XOR]] : tile<8xi32>
# ~x is x ^ all-ones.
# CHECK-NEXT: %[[ONES:.+]] = constant <i32: -1> : tile<8xi32>
# CHECK-NEXT: %[[NB:.+]] = xori %[[B]], %[[ONES]] : tile<8xi32>
# CHECK-NEXT: %[[TWO:.+]] = constant <i32: 2> : tile<8xi32>
# CHECK-NEXT: %[[C:.+]] = shli %[[NB]], %[[TWO]] : tile<8xi32>
# CHECK-NEXT: %[[ONE:.+]] = constant <i32: 1> : tile<8xi32>
# CHECK-NEXT: shri %[[C]], %[[ONE]] signed : tile<8xi32>
# CHECK: %[[P:.+]]:2 = load_view_tko
# CHECK-NEXT: %[[FOUR:.+]] = constant <i32: 4> : tile<8xi32>
# CHECK-NEXT: shri %[[P]]#0, %[[FOUR]] unsigned : tile<8xi32>
# CHECK-NEXT: constant <i32: -1> : tile<8xi32>
# CHECK-NEXT: xori %[[P]]#0
