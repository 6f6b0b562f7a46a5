"""Global memory: views, token-ordered loads, stores and atomics, tokens, fences, alloca.

Memory is reached in two ways.  *Views* describe a tensor in global memory
(``make_tensor_view``) cut into tiles (``make_partition_view``,
``make_strided_view``, ``make_gather_scatter_view``); ``load_view_tko`` /
``store_view_tko`` / ``atomic_red_view_tko`` move one whole tile given its
index in the view.  *Pointer tiles* address elements one by one
(``load_ptr_tko``, ``store_ptr_tko``, ``atomic_cas_tko``, ``atomic_rmw_tko``).

Token ordering.  Memory operations are not ordered by program order: every
``_tko`` op takes an optional input ``token`` and yields a ``result_token``;
an op is ordered after the ops whose tokens it (transitively) consumes.
``make_token`` starts a chain and ``join_tokens`` merges chains.  Every
``TokenOrderedOp`` has the accessors ``token`` (input, ``None`` if absent) and
``result_token``, and ``with_token`` rebuilds it with another input token.

Effects (what xDSL's cse/dce/licm may do).  Weak loads only read: an unused one
is dropped, and two identical ones merge unless a writing op lies between
them.  ``relaxed``/``acquire`` loads synchronize with other tile blocks, so,
like LLVM's ordered atomic loads, they also count as writes: never dropped or
merged.  Stores, atomics and the alias fence read and write.  ``alloca``
allocates its result (dead if unused, never merged).  Making views, tokens and
querying shapes have no memory effects.

The family is one module per sub-family: ``views``, ``view_access``,
``multimem``, ``pointers`` and ``tokens``; ``_common`` holds what they share
(view type constraints, load effects, verifiers, the view-access syntax,
``TokenOrderedOp``).  Import an op from the module that defines it; the two
shared names the passes and ``tile_safety`` use, ``AnyTileView`` and
``TokenOrderedOp``, are also named here.
"""

from . import multimem, pointers, tokens, view_access, views
from ._common import AnyTileView, TokenOrderedOp

__all__ = ["SUB_FAMILIES", "AnyTileView", "TokenOrderedOp"]

SUB_FAMILIES = (views, view_access, multimem, pointers, tokens)
"""The modules that define the family's ops, in the order the dialect lists them."""
