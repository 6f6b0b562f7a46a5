"""Other languages' names for what the kernel language spells otherwise.

Users porting a cuTile Rust kernel write ``st.reduce_sum(x, 0)`` or
``st.gt_tile(a, b)``; users of Triton write ``st.program_id(0)`` or
``st.cdiv(n, B)``.  The compiler answers with the safetile spelling instead
of a bare "no attribute" (``spelling``).  Names the language shares with
them (``mma``, ``exp``, ``where``, ``load_tile_like``...) are not listed.
"""

from __future__ import annotations

_RUST: dict[str, str] = {
    "get_tile_block_id": "st.tile_block_id()",
    "get_num_tile_blocks": "st.num_tile_blocks()",
    "get_shape_dim": "x.shape[i]",
    "get_tensor_shape": "x.shape",
    "get_index_space_shape": "st.num_tiles(p, axis)",
    "load_tile_like_2d": "st.load_tile_like(src, dst)",
    "make_partition_view": "x.partition(shape)",
    "make_partition_view_mut": "z.partition_mut(shape) inside 'with st.unsafe():'",
    "load_view_tko": "p.load(index)",
    "store_view_tko": "z.store(tile)",
    "store_view_tko_mut": "p.store(index, tile) on a partition_mut inside 'with st.unsafe():'",
    "reduce_sum": "st.sum(tile, axis)",
    "reduce_max": "st.max(tile, axis)",
    "reduce_min": "st.min(tile, axis)",
    "reduce_prod": "st.prod(tile, axis)",
    "scan_sum": "st.cumsum(tile, axis)",
    "scan_prod": "st.cumprod(tile, axis)",
    "absf": "abs(x)",
    "absi": "abs(x)",
    "negf": "-x",
    "negi": "-x",
    "addf_ftz": "st.add(a, b, ftz=True)",
    "subf_ftz": "st.sub(a, b, ftz=True)",
    "mulf_ftz": "st.mul(a, b, ftz=True)",
    "divf_ftz": "st.true_div(a, b, ftz=True)",
    "fma_ftz": "st.fma(a, b, c, ftz=True)",
    "exp2_ftz": "st.exp2(x, ftz=True)",
    "sqrt_ftz": "st.sqrt(x, ftz=True)",
    "rsqrt_ftz": "st.rsqrt(x, ftz=True)",
    "maxf": "st.maximum(a, b)",
    "minf": "st.minimum(a, b)",
    "maxf_ftz": "st.maximum(a, b, ftz=True)",
    "minf_ftz": "st.minimum(a, b, ftz=True)",
    "max_tile": "st.maximum(a, b)",
    "min_tile": "st.minimum(a, b)",
    "mulhii": "st.mulhi(a, b)",
    "eq_tile": "a == b",
    "ne_tile": "a != b",
    "lt_tile": "a < b",
    "le_tile": "a <= b",
    "gt_tile": "a > b",
    "ge_tile": "a >= b",
    "andi": "a & b",
    "ori": "a | b",
    "xori": "a ^ b",
    "shli": "a << b",
    "shri": "a >> b",
    "convert_tile": "tile.astype(dtype)",
    "exti": "tile.astype(dtype)",
    "trunci": "tile.astype(dtype)",
    "ftoi": "tile.astype(dtype)",
    "itof": "tile.astype(dtype)",
    "ftof": "tile.astype(dtype)",
    "convert_scalar": "x.astype(dtype), float(x) or int(x)",
    "scalar_to_tile": "the scalar itself (a scalar is a 0-d tile; .broadcast(shape) widens it)",
    "tile_to_scalar": "tile.reshape(()) (a scalar is a 0-d tile)",
    "pointer_to_tile": "st.offset(ptr, offsets)",
    "broadcast_ptr": "st.offset(ptr, offsets)",
    "addptr": "st.offset(ptrs, offsets)",
    "addptr_tile": "st.offset(ptrs, offsets)",
    "offset_tile": "st.offset(ptrs, offsets)",
    "store_ptr_tko": "st.store_ptr(ptrs, values, token=...)",
    "atomic_rmw_tko": "st.atomic_rmw(ptrs, values, mode, ...)",
    "atomic_cas_tko": "st.atomic_cas(ptrs, cmp, values, ...)",
    "new_token_unordered": "st.make_token()",
    "step_by": "range(start, stop, step)",
}


_TRITON: dict[str, str] = {
    "program_id": "st.tile_block_id()[axis] (the block's index along the output's partition)",
    "num_programs": "st.num_tile_blocks()[axis]",
    "cdiv": "st.ceil_div(a, b)",
    "dot": "a @ b, or st.mma(a, b, acc) to accumulate into acc",
    "arange": "st.iota((n,), st.i32) (st.arange makes a host tensor)",
    "load": "x.partition(shape).load(index), or z.load() for the output's own tile",
    "store": "z.store(tile) (the output's own tile)",
    "trans": "tile.T or st.permute(tile, perm)",
    "view": "tile.reshape(shape)",
    "expand_dims": "tile.reshape(shape) (a reshape adds the dimension of size 1)",
    "jit": "@st.kernel",
}


def spelling(name: str) -> str | None:
    """How to write cuTile Rust's or Triton's ``name`` here, or None if it is neither's own name."""
    if (found := _RUST.get(name)) is not None:
        return f"'{name}' is cuTile Rust's name: write {found}"
    if (found := _TRITON.get(name)) is not None:
        return f"'{name}' is Triton's name: write {found}"
    return None
