"""FP8 matrix multiply: e4m3 inputs, f32 accumulation, per-tensor scales, a 16-bit output.

``z = (x @ w.T) * (scale_x * scale_w)``: ``x`` is ``[M, K]`` and ``w`` is ``[N, K]``, both
K-major (row-major with K last), which is how Hopper's 8-bit ``wgmma`` reads both operands
(an 8-bit B operand cannot be transposed in shared memory), and how ``torch._scaled_mm``
wants its second operand (``w.T``, column-major).  The scales are the two per-tensor
dequantization factors, multiplied once per tile after the K loop; the accumulation stays
in f32.  Blocks take the output tiles in the grouped order (``st.grouped(G)``), as
``gemm.py``'s ``grouped_gemm``.

Shipped config: 128x128 tiles, K tiles of 128 (128 bytes a row), and on sm_90 8 worker warps:
168 registers, no spill (with 4 warps: 255 registers and 40 bytes of spill; 128x256 and
256x128 tiles spill 184-200 bytes even with 8 warps: ``cuobjdump -res-usage``, tileiras
13.4.92).  In clusters of 2 (``num_cta_in_cga = 2``) those tiles compile without spill, but
tileiras gives each block of the pair half the tile (``QGMMA.64x128x32`` from two warpgroups);
on an H100 they ran 0.75-0.78 of cuBLAS FP8 (``torch._scaled_mm``) against this config's 0.83
in the same run, a deeper load pipeline (``latency = 6``) 0.80: ``bench/gemm.py``,
docs/benchmarks.md §4.
"""

import safetile as st
from safetile import f32


def fp8_hints(BM: int, BN: int, **_: object) -> dict[str, dict[str, int]]:
    """8 worker warps on sm_90 for tiles of 128x128 or more; none for smaller tiles."""
    return {"sm_90": {"num_worker_warps_per_cta": 8}} if BM * BN >= 128 * 128 else {}


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
    acc = st.zeros((BM, BN), f32)
    for k in range(st.num_tiles(px, 1)):
        acc = st.mma(px.load((bm, k)), pw.load((bn, k)).T, acc)
    z.store((acc * scale).astype(O), idx)


def scaled_mm(z: st.Tensor, x: st.Tensor, w: st.Tensor, scale_x: float, scale_w: float) -> st.DeviceOp:
    """``z = (x @ w.T) * scale_x * scale_w`` with the shipped tiles (``x``: ``[M, K]``, ``w``:
    ``[N, K]``, both e4m3; ``z``: ``[M, N]`` bf16 or f16)."""
    return fp8_gemm(z.partition((128, 128)), x, w, scale_x * scale_w, BK=128, G=8)


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
        acc = st.zeros((BM, BN), f32)
        for k in range(st.num_tiles(px, 1)):
            acc = st.mma(px.load((bm, k)), pw.load((bn, k)).T, acc)
        z.store((acc * scale).astype(O), idx)
