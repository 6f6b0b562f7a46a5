# Element-type conversions: astype picks ftof/ftoi/itof/exti/trunci by the
# types and their signedness; bitcast keeps the bits.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import bf16, bool_, f16, f32, i16, i32, i64, u8, u32


@st.kernel(specialize=[dict()])
def convert(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], n: i32):
    a = st.load_tile_like(x, z)
    h = a.astype(f16)
    b = a.astype(bf16, rounding="zero")
    i = a.astype(i32)
    s = a.astype(u8, saturate=True)
    w = i.astype(i64)
    t = w.astype(i16)
    u = s.astype(u32)
    r = u.astype(i32)
    f = t.astype(f32) + u.astype(f32) + h.astype(f32) + b.astype(f32) + st.convert_tile(r, f32)
    m = (a > 0.0).astype(i32) + (i.astype(bool_)).astype(i32) + a.astype(bool_).astype(i32)
    bits = st.bitcast(a, i32)
    raw = st.unpack(st.pack(h), f32)
    z.store(f + st.bitcast(bits + m, f32) + float(n) + st.cat(raw, raw, 0))


# CHECK-LABEL: entry @convert(
# CHECK: %[[A:.+]]:2 = load_view_tko
# CHECK-NEXT: %[[H:.+]] = ftof %[[A]]#0 : tile<8xf32> -> tile<8xf16>
# CHECK-NEXT: %[[B:.+]] = ftof %[[A]]#0 rounding<zero> : tile<8xf32> -> tile<8xbf16>
# CHECK-NEXT: %[[I:.+]] = ftoi %[[A]]#0 signed : tile<8xf32> -> tile<8xi32>
# CHECK-NEXT: %[[S:.+]] = ftoi %[[A]]#0 unsigned saturating : tile<8xf32> -> tile<8xi8>
# CHECK-NEXT: %[[W:.+]] = exti %[[I]] signed : tile<8xi32> -> tile<8xi64>
# CHECK-NEXT: %[[T:.+]] = trunci %[[W]] : tile<8xi64> -> tile<8xi16>
# CHECK-NEXT: %[[U:.+]] = exti %[[S]] unsigned : tile<8xi8> -> tile<8xi32>
# u32 -> i32 only changes how later ops read the bits: no op.
# CHECK-NEXT: itof %[[T]] signed : tile<8xi16> -> tile<8xf32>
# CHECK-NEXT: itof %[[U]] unsigned : tile<8xi32> -> tile<8xf32>
# CHECK: ftof %[[H]] : tile<8xf16> -> tile<8xf32>
# CHECK: ftof %[[B]] : tile<8xbf16> -> tile<8xf32>
# CHECK: itof %[[U]] signed : tile<8xi32> -> tile<8xf32>
# bool -> int zero-extends; int or float -> bool compares with zero.
# CHECK: %[[GT:.+]] = cmpf greater_than ordered
# CHECK-NEXT: exti %[[GT]] unsigned : tile<8xi1> -> tile<8xi32>
# CHECK: cmpi not_equal %[[I]], %{{.+}}, signed : tile<8xi32> -> tile<8xi1>
# CHECK: cmpf not_equal unordered %[[A]]#0
# CHECK: bitcast %[[A]]#0 : tile<8xf32> -> tile<8xi32>
# pack: the bytes of 8 halves; unpack: read as 4 floats.
# CHECK-NEXT: %[[BYTES:.+]] = pack %[[H]] : tile<8xf16> -> tile<16xi8>
# CHECK-NEXT: unpack %[[BYTES]] : tile<16xi8> -> tile<4xf32>
# CHECK: bitcast %{{.+}} : tile<8xi32> -> tile<8xf32>
# float(n) of a runtime i32 scalar is itof.
# CHECK: itof %n signed : tile<i32> -> tile<f32>
