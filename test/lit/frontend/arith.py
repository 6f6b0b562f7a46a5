# Arithmetic operators and their explicit forms, on float and integer tiles.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32, u32


@st.kernel(specialize=[dict()])
def floats(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], s: f32):
    a = st.load_tile_like(x, z)
    b = a * 2.0 + a - 1.5
    c = b / a
    d = -c // a
    e = d % 3.0
    f = e**2.0 + (a ** st.iota((16,)))
    g = st.add(f, s, rounding="zero", ftz=True)
    h = st.mul(g, g, rounding="positive_inf")
    i = st.sub(h, a, rounding="negative_inf")
    j = st.true_div(i, a, rounding="approx")
    k = st.fma(j, a, s, rounding="zero")
    m = st.maximum(k, a) + st.minimum(k, a, propagate_nan=True) + st.maximum(a, 0.0, ftz=True)
    z.store(abs(m) + st.abs(+m) + st.pow(m, a))


# CHECK-LABEL: entry @floats(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK: %[[TWO:.+]] = constant <f32: 2.000000e+00> : tile<16xf32>
# CHECK-NEXT: %[[B0:.+]] = mulf %[[A]]#0, %[[TWO]] : tile<16xf32>
# CHECK-NEXT: %[[B1:.+]] = addf %[[B0]], %[[A]]#0 : tile<16xf32>
# CHECK-NEXT: %[[C15:.+]] = constant <f32: 1.500000e+00> : tile<16xf32>
# CHECK-NEXT: %[[B:.+]] = subf %[[B1]], %[[C15]] : tile<16xf32>
# CHECK-NEXT: %[[C:.+]] = divf %[[B]], %[[A]]#0 : tile<16xf32>
# CHECK-NEXT: %[[NC:.+]] = negf %[[C]] : tile<16xf32>
# CHECK-NEXT: %[[Q:.+]] = divf %[[NC]], %[[A]]#0 : tile<16xf32>
# CHECK-NEXT: %[[D:.+]] = floor %[[Q]] : tile<16xf32>
# Python's % takes the divisor's sign: remf, then add the divisor where the
# remainder is negative (the divisor 3.0 is positive).
# CHECK-NEXT: %[[THREE:.+]] = constant <f32: 3.000000e+00> : tile<16xf32>
# CHECK-NEXT: %[[R:.+]] = remf %[[D]], %[[THREE]] : tile<16xf32>
# CHECK-NEXT: %[[Z:.+]] = constant <f32: 0.000000e+00> : tile<16xf32>
# CHECK-NEXT: %[[NEG:.+]] = cmpf less_than ordered %[[R]], %[[Z]] : tile<16xf32> -> tile<16xi1>
# CHECK-NEXT: %[[RB:.+]] = addf %[[R]], %[[THREE]] : tile<16xf32>
# CHECK-NEXT: %[[E:.+]] = select %[[NEG]], %[[RB]], %[[R]] : tile<16xi1>, tile<16xf32>
# CHECK: fpowf %[[E]], %{{.+}} : tile<16xf32>
# An integer exponent tile is fpowi.
# CHECK: %[[IOTA:.+]] = iota : tile<16xi32>
# CHECK-NEXT: fpowi %[[A]]#0, %[[IOTA]] : tile<16xf32>, tile<16xi32>
# A scalar operand is broadcast to the tile's shape.
# CHECK: %[[SR:.+]] = reshape %s : tile<f32> -> tile<1xf32>
# CHECK-NEXT: %[[SB:.+]] = broadcast %[[SR]] : tile<1xf32> -> tile<16xf32>
# CHECK-NEXT: %[[G:.+]] = addf %{{.+}}, %[[SB]] rounding<zero> flush_to_zero : tile<16xf32>
# CHECK-NEXT: %[[H:.+]] = mulf %[[G]], %[[G]] rounding<positive_inf> : tile<16xf32>
# CHECK-NEXT: %[[I:.+]] = subf %[[H]], %[[A]]#0 rounding<negative_inf> : tile<16xf32>
# CHECK-NEXT: %[[J:.+]] = divf %[[I]], %[[A]]#0 rounding<approx> : tile<16xf32>
# CHECK: %[[K:.+]] = fma %[[J]], %[[A]]#0, %{{.+}} rounding<zero> : tile<16xf32>
# CHECK-NEXT: maxf %[[K]], %[[A]]#0 : tile<16xf32>
# CHECK-NEXT: minf %[[K]], %[[A]]#0 propagate_nan : tile<16xf32>
# CHECK: maxf %[[A]]#0, %{{.+}} flush_to_zero : tile<16xf32>
# CHECK: absf
# CHECK: absf
# CHECK: fpowf


@st.kernel(specialize=[dict()])
def integers(z: st.Mut[i32, (16,)], x: st.Ref[i32, (-1,)], u: st.Ref[u32, (-1,)], n: i32):
    a = st.load_tile_like(x, z)
    b = (a + n) * 3 - a
    c = b // a + b // 4 + st.ceil_div(b, a)
    d = c % a
    e = -d + st.mulhi(d, a) + st.maximum(d, a) + st.minimum(d, 7) + abs(d)
    p = st.load_tile_like(u, z)
    q = (p // p) % p + st.maximum(p, p)
    z.store(e + q.astype(i32))


# CHECK-LABEL: entry @integers(
# CHECK: %[[X:.+]]:2 = load_view_tko weak {{.+}} -> tile<16xi32>, token
# CHECK: addi %[[X]]#0, %{{.+}} : tile<16xi32>
# CHECK: muli
# CHECK: subi
# // rounds toward negative infinity; ceil_div toward positive infinity.
# CHECK: divi %{{.+}}, %[[X]]#0 signed rounding<negative_inf> : tile<16xi32>
# CHECK: divi %{{.+}}, %{{.+}} signed rounding<negative_inf> : tile<16xi32>
# CHECK: divi %{{.+}}, %[[X]]#0 signed rounding<positive_inf> : tile<16xi32>
# A runtime divisor: the remainder is fixed up where its sign differs.
# CHECK: %[[R:.+]] = remi %{{.+}}, %[[X]]#0 signed : tile<16xi32>
# CHECK: cmpi not_equal %[[R]], %{{.+}}, signed
# CHECK: cmpi less_than %[[R]], %{{.+}}, signed
# CHECK: cmpi less_than %[[X]]#0, %{{.+}}, signed
# CHECK: cmpi not_equal {{.+}}, unsigned : tile<16xi1> -> tile<16xi1>
# CHECK: andi
# CHECK: select
# CHECK: negi
# CHECK: mulhii
# CHECK: maxi {{.+}} signed : tile<16xi32>
# CHECK: mini {{.+}} signed : tile<16xi32>
# CHECK: absi
# Unsigned integers divide, take remainders and compare unsigned.
# CHECK: %[[P:.+]]:2 = load_view_tko
# CHECK: divi %[[P]]#0, %[[P]]#0 unsigned : tile<16xi32>
# CHECK-NEXT: remi %{{.+}}, %[[P]]#0 unsigned : tile<16xi32>
# CHECK-NEXT: maxi %[[P]]#0, %[[P]]#0 unsigned : tile<16xi32>
