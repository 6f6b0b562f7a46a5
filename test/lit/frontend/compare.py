# Comparisons give bool tiles; and/or/not combine them; where selects.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32, u8


@st.kernel(specialize=[dict()])
def compare(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32):
    a = st.load_tile_like(x, z)
    lt, le, gt, ge, eq, ne = a < 0.0, a <= 1.0, a > 2.0, a >= 3.0, a == 4.0, a != 5.0
    both = (lt and le) or not gt
    chained = 0.0 < a < 1.0
    mask = (both | ge) & (eq ^ ne) & chained
    z.store(st.where(mask, a, 0.0) + st.select(n > 3, a, -a))


# Floats compare ordered, except != (true for NaN, as in Python).
# CHECK-LABEL: entry @compare(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK: cmpf less_than ordered %[[A]]#0, %{{.+}} : tile<8xf32> -> tile<8xi1>
# CHECK: cmpf less_than_or_equal ordered
# CHECK: cmpf greater_than ordered
# CHECK: cmpf greater_than_or_equal ordered
# CHECK: cmpf equal ordered
# CHECK: cmpf not_equal unordered
# `and`, `or` and `not` of bool tiles are andi, ori and xori with true.
# CHECK: %[[AND:.+]] = andi %{{.+}}, %{{.+}} : tile<8xi1>
# CHECK: %[[TRUE:.+]] = constant <i1: true> : tile<8xi1>
# CHECK-NEXT: %[[NOT:.+]] = xori %{{.+}}, %[[TRUE]] : tile<8xi1>
# CHECK-NEXT: ori %[[AND]], %[[NOT]] : tile<8xi1>
# A chained comparison is the and of its parts.
# CHECK: cmpf less_than ordered %{{.+}}, %[[A]]#0
# CHECK-NEXT: constant
# CHECK-NEXT: cmpf less_than ordered %[[A]]#0
# CHECK-NEXT: andi
# CHECK: ori
# CHECK: xori
# CHECK: andi
# CHECK: %[[MASK:.+]] = andi
# CHECK: %[[ZERO:.+]] = constant <f32: 0.000000e+00> : tile<8xf32>
# CHECK-NEXT: select %[[MASK]], %[[A]]#0, %[[ZERO]] : tile<8xi1>, tile<8xf32>
# A scalar condition broadcasts to the values' shape.
# CHECK: %[[C:.+]] = cmpi greater_than %n, %{{.+}}, signed : tile<i32> -> tile<i1>
# CHECK: %[[NEG:.+]] = negf %[[A]]#0
# CHECK-NEXT: %[[CR:.+]] = reshape %[[C]] : tile<i1> -> tile<1xi1>
# CHECK-NEXT: %[[CB:.+]] = broadcast %[[CR]] : tile<1xi1> -> tile<8xi1>
# CHECK-NEXT: select %[[CB]], %[[A]]#0, %[[NEG]] : tile<8xi1>, tile<8xf32>


@st.kernel(specialize=[dict()])
def unsigned(z: st.Mut[u8, (8,)], x: st.Ref[u8, (-1,)]):
    a = st.load_tile_like(x, z)
    z.store(st.where(a < 128, a, 255))


# Unsigned element types compare unsigned.
# CHECK-LABEL: entry @unsigned(
# CHECK: cmpi less_than %{{.+}}, %{{.+}}, unsigned : tile<8xi8> -> tile<8xi1>
# CHECK: constant <i8: -1> : tile<8xi8>
