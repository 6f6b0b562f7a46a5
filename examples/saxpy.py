"""``z = alpha * x + y`` with a scalar parameter and an element-type generic."""

import safetile as st


@st.kernel(
    specialize=[
        dict(E=st.f32, S=(1024,)),
        dict(E=st.f16, S=(2048,), x=st.TensorSpec(st.f16, (1 << 20,)), y=st.TensorSpec(st.f16, (1 << 20,))),
    ]
)
def saxpy(z: st.Mut["E", "S"], x: st.Ref["E", (-1,)], y: st.Ref["E", (-1,)], alpha: "E", *, E: st.DType, S: st.Shape):
    z.store(alpha * st.load_tile_like(x, z) + st.load_tile_like(y, z))
