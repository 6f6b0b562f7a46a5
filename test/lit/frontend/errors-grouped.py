# Mistakes with tile orders: each is a located error with the fix.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def zero_group(z: st.Mut[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:37: error: st.grouped(0): the group must be a compile-time int >= 1
    # CHECK: help: pass a constant or an int generic, e.g. st.grouped(8) or st.grouped(G)
    z.store(0.0, z.tile_index(order=st.grouped(0)))


@st.kernel(specialize=[dict()])
def runtime_group(z: st.Mut[f32, (16, 16)], g: i32):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 1]]:37: error: st.grouped(tile<i32>): the group must be a compile-time int >= 1
    z.store(0.0, z.tile_index(order=st.grouped(g)))


@st.kernel(specialize=[dict()])
def not_an_order(z: st.Mut[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:18: error: tile_index: order=8 is not a tile order
    # CHECK: help: pass order=st.grouped(G), or leave order out for the default order
    z.store(0.0, z.tile_index(order=8))


@st.kernel(specialize=[dict()])
def rank_one(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:18: error: tile_index: the grouped order walks a 2-d grid of tiles, 'z' has rank 1
    # CHECK: help: leave order out for this output
    z.store(0.0, z.tile_index(order=st.grouped(2)))


@st.kernel(specialize=[dict()])
def index_of_mapped(z: st.MutMapped[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:11: error: 'z' is not st.Mut: tile_index() is the tile of a host-partitioned output
    # CHECK: help: a mapped output's block owns several tiles: loop over z.tile_indices(order=...)
    idx = z.tile_index()


@st.kernel(specialize=[dict()])
def indices_of_mut(z: st.Mut[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:16: error: 'z' is not st.MutMapped: tile_indices() walks the tiles of a mapped output
    # CHECK: help: a st.Mut output has one tile per block: use z.tile_index(order=...)
    for idx in z.tile_indices(order=st.grouped(2)):
        z.store(0.0, idx)


@st.kernel(specialize=[dict()])
def index_of_another_output(z: st.Mut[f32, (16, 16)], w: st.Mut[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:5: error: z.store() addresses the block's own tile and takes no index but one from 'z.tile_index()', got an index of 'w'
    # CHECK: help: each tile block accesses only the tile the host partition gives it: call z.store() without an index, or pass idx = z.tile_index(order=...)
    z.store(0.0, w.tile_index(order=st.grouped(2)))


@st.kernel(specialize=[dict()])
def reverse_not_a_bool(z: st.Mut[f32, (16, 16)]):
    # CHECK: {{.*}}errors-grouped.py:[[# @LINE + 2]]:37: error: st.grouped(2, reverse=2): reverse must be a compile-time bool
    # CHECK: help: pass True or False, or an int generic that is 0 or 1
    z.store(0.0, z.tile_index(order=st.grouped(2, reverse=2)))
