import safetile as st
from safetile import f32


@st.kernel(specialize=[dict()])
def bad(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    t = x.partition((16,)).load((0,), latency=0)
    z.store(t)
