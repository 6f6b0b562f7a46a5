# The low-level view and token functions outside `with st.unsafe():`, and
# their misuses, are errors at the call with the fix.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def view_outside(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:9: error: make_tensor_view is unsafe
    # CHECK: help: wrap it in 'with st.unsafe():' to take responsibility for it
    v = st.make_tensor_view(p, (16,), (1,))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def load_tensor_outside(z: st.Mut[f32, (16,)], table: st.Ref[st.i64, (-1,)]):
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:9: error: load_tensor is unsafe
    v = st.load_tensor(table, (0,), (16,), (1,), f32)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def get_token_outside(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:9: error: get_tensor_token is unsafe
    t = st.get_tensor_token(z)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def set_token_outside(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:5: error: set_tensor_token is unsafe
    st.set_tensor_token(z, st.make_token())
    z.store(0.0)


@st.kernel(specialize=[dict()])
def partition_token_outside(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:9: error: get_partition_token is unsafe
    t = st.get_partition_token(x.partition((16,)))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def partition_token_mut_outside(z: st.Mut[f32, (16,)]):
    with st.unsafe():
        pz = z.partition_mut((16,))
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:9: error: get_partition_token_mut is unsafe
    t = st.get_partition_token_mut(pz)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def tokened_load_outside(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    with st.unsafe():
        st.set_tensor_token(x, st.make_token())
    px = x.partition((16,))
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:13: error: a load ordered by a hand-written token is unsafe
    z.store(px.load((0,)))


@st.kernel(specialize=[dict()])
def token_set_in_a_branch(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], n: i32):
    with st.unsafe():
        if n > 0:
            st.set_tensor_token(x, st.make_token())
        # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:17: error: the token set on 'x' inside a branch or loop does not reach here
        # CHECK: help: call st.set_tensor_token(x, ...) again here, or use the view inside that block
        z.store(x.partition((16,)).load((0,)))


@st.kernel(specialize=[dict()])
def token_set_in_a_loop(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], n: i32):
    acc = st.zeros((16,), f32)
    with st.unsafe():
        for k in range(n):
            # The next iteration would read the view with the token the last one set:
            # tokens are not carried through loops.
            # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 1]]:25: error: the token set on 'x' inside a branch or loop does not reach here
            acc = acc + x.partition((16,)).load((k,))
            st.set_tensor_token(x, st.make_token())
    z.store(acc)


@st.kernel(specialize=[dict()])
def wrong_partition_kind(z: st.Mut[f32, (16,)]):
    with st.unsafe():
        pz = z.partition_mut((16,))
        # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:13: error: get_partition_token: this partition of 'z' is mutable (partition_mut)
        # CHECK: help: use st.get_partition_token_mut
        t = st.get_partition_token(pz)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def pointer_tile_base(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    with st.unsafe():
        # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:13: error: make_tensor_view needs a scalar pointer, got tile<16xptr<f32>>
        # CHECK: help: pass a st.Ptr parameter, or st.offset(p, k) with a scalar k
        v = st.make_tensor_view(st.offset(p, st.iota((16,))), (16,), (1,))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def strides_of_another_rank(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    with st.unsafe():
        # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:13: error: 2 dimensions but 1 strides
        # CHECK: help: give one stride per dimension
        v = st.make_tensor_view(p, (4, 16), (1,))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def addresses_not_i64(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    with st.unsafe():
        # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:13: error: load_tensor reads addresses from an i64 tensor, 'x' is f32
        # CHECK: help: store the addresses as st.i64
        v = st.load_tensor(x, (0,), (16,), (1,), f32)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def raw_view_own_tile(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    with st.unsafe():
        v = st.make_tensor_view(p, (16,), (1,))
    # CHECK: {{.*}}errors-low-level-views.py:[[# @LINE + 2]]:13: error: make_tensor_view.load: 'make_tensor_view' is a view built in unsafe code and has no tile of its own
    # CHECK: help: read it with v.partition(shape).load(index); write it with v.partition_mut(shape).store(index, tile)
    z.store(v.load())


# CHECK: error: 14 kernel(s) failed to compile
