"""FP8 matrix multiply: e4m3 inputs, f32 accumulation, per-tensor scales, a 16-bit output.

``z = (x @ w.T) * (scale_x * scale_w)``: ``x`` is ``[M, K]`` and ``w`` is ``[N, K]``, both
K-major (row-major with K last), which is how Hopper's 8-bit ``wgmma`` reads both operands
(an 8-bit B operand cannot be transposed in shared memory), and how ``torch._scaled_mm``
wants its second operand (``w.T``, column-major).  The scales are the two per-tensor
dequantization factors, multiplied once per tile after the K loop; the accumulation stays
in f32.  Blocks take the output tiles in the grouped order (``st.grouped(G)``), as
``gemm.py``'s ``grouped_gemm``.

Shipped config (``scaled_mm``): ``persistent_fp8_gemm``, one block per SM walking 128x128 tiles in
the grouped order, K tiles of 128 (128 bytes a row), and on sm_90 8 worker warps: 168 registers, no
spill (with 4 warps: 255 registers and 40 bytes of spill; 128x256 and 256x128 tiles spill 184-200
bytes even with 8 warps: ``cuobjdump -res-usage``, tileiras 13.4.92).  On an H100 at 8192^3
(``bench/gemm.py``, docs/benchmarks.md §4, session 18) it ran 0.90 of cuBLAS FP8
(``torch._scaled_mm``) in burst in two runs and 0.87-0.89 steady at the power cap, against
0.84 / 0.82-0.84 for ``fp8_gemm`` on the same tiles (one block a tile, 4096 blocks) in the same
runs; under Nsight Compute its tensor pipe is busy 80% of the SMs' active cycles against 73% one
block a tile and cuBLAS's 94%, at the same L2 and DRAM traffic as cuBLAS.  Tried and slower:
with ``latency = 6`` 0.89 / 0.86, ``latency = 4`` 0.81; one block a tile on K tiles of 256 0.83,
on 256x64 tiles 0.63; in clusters of 2 (``num_cta_in_cga = 2``) the 128x256 and 256x128 tiles
compile without spill, but tileiras gives each block of the pair half the tile
(``QGMMA.64x128x32`` from two warpgroups) and they ran 0.75-0.78 (session 17).
"""

import safetile as st
from safetile import f32


def fp8_hints(BM: int, BN: int, **_: object) -> dict[str, dict[str, int]]:
    """8 worker warps on sm_90 for tiles of 128x128 or more; none for smaller tiles."""
    return {"sm_90": {"num_worker_warps_per_cta": 8}} if BM * BN >= 128 * 128 else {}


@st.function
def scaled_tile(px, pw, scale, bm, bn, BM, BN, O):
    """Output tile ``(bm, bn)`` of ``(x @ w.T) * scale`` in ``O``, accumulated in f32 over the K
    tiles of the partitions ``px`` (``(BM, BK)`` of ``x``) and ``pw`` (``(BN, BK)`` of ``w``)."""
    acc = st.zeros((BM, BN), f32)
    for k in range(st.num_tiles(px, 1)):
        acc = st.mma(px.load((bm, k)), pw.load((bn, k)).T, acc)
    return (acc * scale).astype(O)


@st.kernel(
    specialize=[dict(E=st.f8e4m3fn, O=st.bf16, BM=128, BN=128, BK=128, G=8),
                dict(E=st.f8e4m3fn, O=st.f16, BM=64, BN=64, BK=64, G=4)],
    optimization_hints=fp8_hints,
)
def fp8_gemm(
    z: st.Mut["O", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1, -1)],
    scale: f32,
    *,
    E: st.DType,
    O: st.DType,
    BM: int,
    BN: int,
    BK: int,
    G: int,
):
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    px, pw = x.partition((BM, BK), padding="zero"), w.partition((BN, BK), padding="zero")
    z.store(scaled_tile(px, pw, scale, bm, bn, BM, BN, O), idx)


@st.kernel(
    specialize=[dict(E=st.f8e4m3fn, O=st.bf16, BM=128, BN=128, BK=128, G=8)],
    optimization_hints=fp8_hints,
)
def persistent_fp8_gemm(
    z: st.MutMapped["O", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1, -1)],
    scale: f32,
    *,
    E: st.DType,
    O: st.DType,
    BM: int,
    BN: int,
    BK: int,
    G: int,
):
    """``fp8_gemm`` on a fixed grid (e.g. one block per SM): block ``b`` takes the tiles ``b, b +
    nblocks, ...`` of the grouped order (``z.tile_indices``: each tile has one writer), so its next
    tile's loads can start under the last one's epilogue (``examples/persistent_gemm.py``)."""
    px, pw = x.partition((BM, BK), padding="zero"), w.partition((BN, BK), padding="zero")
    for idx in z.tile_indices(order=st.grouped(G)):
        bm, bn = idx
        z.store(scaled_tile(px, pw, scale, bm, bn, BM, BN, O), idx)


SMS = 132
"""Streaming multiprocessors of an H100 SXM (as ``examples/gemm.py``'s): the persistent grid's blocks."""


def scaled_mm(z: st.Tensor, x: st.Tensor, w: st.Tensor, scale_x: float, scale_w: float) -> st.DeviceOp:
    """``z = (x @ w.T) * scale_x * scale_w`` with the shipped config: ``persistent_fp8_gemm`` on 128x128
    tiles, K tiles of 128, ``min(tiles, SMS)`` blocks (``x``: ``[M, K]``, ``w``: ``[N, K]``, both
    e4m3; ``z``: ``[M, N]`` bf16 or f16).  Its value is ``(z partitioned, x, w)``."""
    m, n = z.shape
    tiles = -(-m // 128) * -(-n // 128)
    return persistent_fp8_gemm(z.partition((128, 128)), x, w, scale_x * scale_w, BK=128, G=8,
                               grid=(min(tiles, SMS),))
