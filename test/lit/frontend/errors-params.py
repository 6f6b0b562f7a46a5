# Errors in kernel signatures and specializations: reported at the parameter.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f16, f32


# CHECK: {{.*}}errors-params.py:[[# @LINE + 3]]:15: error: mutable output 'z' has rank 4; host partitions have rank 1 to 3
# CHECK: help: the launch grid is at most 3-d: reshape the output to rank 3 or less
@st.kernel(specialize=[dict(S=(2, 2, 2, 2))])
def rank_four(z: st.Mut[f32, "S"], *, S: st.Shape):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 3]]:45: error: mutable output 'z' must come before the other parameters
# CHECK: help: list st.Mut parameters first, as cuTile does
@st.kernel(specialize=[dict()])
def output_not_first(x: st.Ref[f32, (-1,)], z: st.Mut[f32, (16,)]):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 2]]:40: error: parameter 'n' has no annotation
@st.kernel(specialize=[dict()])
def unannotated(z: st.Mut[f32, (16,)], n):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 3]]:63: error: generic 'BK' has no value
# CHECK: help: pass BK=... to specialize(), or a st.TensorSpec it can be inferred from
@st.kernel(specialize=[dict(BM=16)])
def missing_generic(z: st.Mut[f32, ("BM", "BM")], *, BM: int, BK: int):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 3]]:17: error: generic 'S' is (32,) but the partition of 'z' gives (64,)
# CHECK: help: make the explicit value and the argument agree
@st.kernel(specialize=[dict(S=(32,), z=st.TensorSpec(f32, (1024,), partition=(64,)))])
def conflicting(z: st.Mut[f32, "S"], *, S: st.Shape):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 3]]:40: error: 'x' is f32 but the argument is f16
# CHECK: help: pass a tensor of the declared element type
@st.kernel(specialize=[dict(x=st.TensorSpec(f16, (64,)))])
def wrong_dtype(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z))


# CHECK: {{.*}}errors-params.py:[[# @LINE + 2]]:29: error: the partition shape of 'z' must be powers of two, got (24,)
@st.kernel(specialize=[dict()])
def output_not_power_of_two(z: st.Mut[f32, (24,)]):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 2]]:43: error: unsupported annotation for parameter 'y': 3
@st.kernel(specialize=[dict()])
def bad_annotation(z: st.Mut[f32, (16,)], y: 3):
    z.store(0.0)


# CHECK: {{.*}}errors-params.py:[[# @LINE + 2]]:1: error: 'unknown_name' has no parameter or generic 'no_such'
@st.kernel(specialize=[dict(no_such=1)])
def unknown_name(z: st.Mut[f32, (16,)]):
    z.store(0.0)


# CHECK: error: 9 kernel(s) failed to compile
