# Early return: in a kernel a `return` inside a runtime `if` is a
# cuda_tile.return there; in a device function the returned values meet
# (the rest of the body moves into the other branch).
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32, i32


@st.function
def sign(x):
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return 0.0


@st.function
def store_if_positive(z, t, n):
    if n <= 0:
        return
    z.store(t)


@st.kernel(specialize=[dict()])
def early(z: st.Mut[f32, (8,)], x: st.Ref[f32, (-1,)], s: f32, n: i32):
    if n == 0:
        return
    t = st.load_tile_like(x, z) * sign(s)
    store_if_positive(z, t, n)


# CHECK-LABEL: entry @early(
# CHECK: %[[Z:.+]] = cmpi equal %n, %{{.+}}, signed : tile<i32> -> tile<i1>
# CHECK-NEXT: if %[[Z]] {
# CHECK-NEXT: return
# CHECK-NEXT: }
# sign(s): nested ifs yielding the value returned on each path.
# CHECK: %[[POS:.+]] = cmpf greater_than ordered %s, %{{.+}} : tile<f32> -> tile<i1>
# CHECK-NEXT: %[[SIGN:.+]] = if %[[POS]] -> (tile<f32>) {
# CHECK-NEXT: %[[P1:.+]] = constant <f32: 1.000000e+00> : tile<f32>
# CHECK-NEXT: yield %[[P1]] : tile<f32>
# CHECK-NEXT: } else {
# CHECK: %[[NEG:.+]] = cmpf less_than ordered %s,
# CHECK-NEXT: %[[INNER:.+]] = if %[[NEG]] -> (tile<f32>) {
# CHECK-NEXT: %[[M1:.+]] = constant <f32: -1.000000e+00> : tile<f32>
# CHECK-NEXT: yield %[[M1]] : tile<f32>
# CHECK-NEXT: } else {
# CHECK-NEXT: %[[Z0:.+]] = constant <f32: 0.000000e+00> : tile<f32>
# CHECK-NEXT: yield %[[Z0]] : tile<f32>
# CHECK-NEXT: }
# CHECK-NEXT: yield %[[INNER]] : tile<f32>
# CHECK-NEXT: }
# The void function's early return: the store runs on the other path.
# CHECK: %[[LE:.+]] = cmpi less_than_or_equal %n,
# CHECK-NEXT: if %[[LE]] {
# CHECK-NEXT: } else {
# CHECK: store_view_tko
# CHECK-NEXT: }
# CHECK-NEXT: return
