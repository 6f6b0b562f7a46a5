# Safety errors: unsafe operations outside `with st.unsafe():`, writes to
# read-only tensors, and accesses that could race.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def pointer_arithmetic(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 2]]:12: error: pointer arithmetic is unsafe
    # CHECK: help: wrap it in 'with st.unsafe():' to take responsibility for it
    ptrs = st.offset(p, st.iota((16,)))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def pointer_load(z: st.Mut[f32, (16,)], p: st.Ptr[f32]):
    with st.unsafe():
        ptrs = st.offset(p, st.iota((16,)))
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 1]]:13: error: a load through pointers is unsafe
    z.store(st.load_ptr(ptrs))


@st.kernel(specialize=[dict()])
def atomic(z: st.Mut[f32, (16,)], p: st.Ptr[i32]):
    with st.unsafe():
        ptrs = st.offset(p, st.iota((16,)))
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 1]]:5: error: an atomic through pointers is unsafe
    st.atomic_rmw(ptrs, 1, "add")
    z.store(0.0)


@st.kernel(specialize=[dict()])
def hint(z: st.Mut[f32, (16,)], n: i32):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 1]]:9: error: assume_div_by is unsafe
    m = st.assume_div_by(n, 16)
    z.store(0.0)


@st.kernel(specialize=[dict()])
def mutable_partition(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 1]]:10: error: z.partition_mut is unsafe
    pz = z.partition_mut((16,))
    z.store(0.0)


@st.kernel(specialize=[dict()])
def store_to_input(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 2]]:5: error: x.store: 'x' is read-only (st.Ref)
    # CHECK: help: only st.Mut outputs have a tile at the block's position; read tiles with x.partition(shape).load(index)
    x.store(z.load())


@st.kernel(specialize=[dict()])
def read_other_tiles(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 2]]:9: error: z.partition: 'z' is a mutable output; reading other tiles of it would race with other blocks
    # CHECK: help: read its own tile with z.load(), or use partition_mut inside st.unsafe()
    t = z.partition((16,)).load((1,))
    z.store(t)


@st.kernel(specialize=[dict()])
def chosen_store_index(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 2]]:5: error: z.store() addresses the block's own tile and takes no index but one from 'z.tile_index()', got (1,)
    # CHECK: help: each tile block accesses only the tile the host partition gives it: call z.store() without an index, or pass idx = z.tile_index(order=...)
    z.store(0.0, (1,))


@st.kernel(specialize=[dict()])
def unowned_mapped_index(z: st.MutMapped[f32, (16, 16)]):
    bm, bn, _ = st.tile_block_id()
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 2]]:5: error: z.store: 'z' is st.MutMapped: its tiles are addressed only by indices from 'z.tile_indices()'
    # CHECK: help: write 'for idx in z.tile_indices():' and pass idx
    z.store(0.0, (bm, bn))


@st.kernel(specialize=[dict()])
def other_context(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-unsafe.py:[[# @LINE + 1]]:10: error: only 'with st.unsafe():' is supported in kernels
    with open("f"):
        pass


# CHECK: error: 10 kernel(s) failed to compile
