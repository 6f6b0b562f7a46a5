# Device functions are inlined at each call, also from other modules; they
# take tiles, tensors, constants and functions, and return tuples.
# RUN: %opt %s | filecheck %s
import safetile as st
from inputs.activations import leaky_relu, relu, square
from safetile import f32

NEGATIVE_SLOPE = 0.5


@st.function
def scale_and_shift(x, scale, shift):
    s = st.broadcast_scalar(scale, x.shape)
    b = st.broadcast_scalar(shift, x.shape)
    return x * s + b


@st.function
def apply(fn, x, times=2):
    for _ in st.static_range(times):
        x = fn(x)
    return x


@st.function
def split(x):
    return x + 1.0, x - 1.0


@st.kernel(specialize=[dict()])
def functions(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], a: f32):
    t = st.load_tile_like(x, z)
    u = relu(t) + square(t) + leaky_relu(t)
    v = scale_and_shift(u, a, 2.0)
    w = apply(square, v) + apply(relu, v, times=1)
    hi, lo = split(w)
    z.store(hi * lo)


# CHECK-LABEL: entry @functions(
# CHECK: %[[T:.+]]:2 = load_view_tko
# relu:
# CHECK-NEXT: %[[Z:.+]] = constant <f32: 0.000000e+00> : tile<16xf32>
# CHECK-NEXT: %[[R:.+]] = maxf %[[T]]#0, %[[Z]] : tile<16xf32>
# square:
# CHECK-NEXT: %[[SQ:.+]] = mulf %[[T]]#0, %[[T]]#0 : tile<16xf32>
# leaky_relu, with its own module's NEGATIVE_SLOPE (0.01, not 0.5):
# CHECK: cmpf greater_than ordered %[[T]]#0
# CHECK-NEXT: %[[SLOPE:.+]] = constant <f32: 0.00999999977> : tile<16xf32>
# CHECK-NEXT: mulf %[[T]]#0, %[[SLOPE]] : tile<16xf32>
# CHECK-NEXT: select
# scale_and_shift: a runtime scalar and a constant, broadcast.
# CHECK: reshape %a : tile<f32> -> tile<1xf32>
# CHECK: constant <f32: 2.000000e+00> : tile<16xf32>
# apply(square, v): two inlined squares; apply(relu, v, times=1): one maxf.
# CHECK: %[[S1:.+]] = mulf %[[V:.+]], %[[V]] : tile<16xf32>
# CHECK-NEXT: %[[S2:.+]] = mulf %[[S1]], %[[S1]] : tile<16xf32>
# CHECK-NEXT: constant <f32: 0.000000e+00> : tile<16xf32>
# CHECK-NEXT: maxf %[[V]],
# CHECK-NOT: maxf
# The tuple result of split:
# CHECK: %[[W:.+]] = addf %[[S2]], %{{.+}} : tile<16xf32>
# CHECK: %[[HI:.+]] = addf %[[W]], %{{.+}} : tile<16xf32>
# CHECK: %[[LO:.+]] = subf %[[W]], %{{.+}} : tile<16xf32>
# CHECK-NEXT: mulf %[[HI]], %[[LO]] : tile<16xf32>
