"""The Triton kernels ``bench/kernels.py`` compares with: the same work as the examples, in Triton's style.

Each is the plain form a Triton user writes (one row per program for the
row kernels, the whole row in one block; a query block per program for
attention, the K/V loop unmasked up to the causal diagonal), with the
``num_warps`` rule of Triton's tutorials and, for attention, a small
``triton.autotune`` over block shapes, stages and warps.  Only imported
on the GPU machine (or under ``TRITON_INTERPRET=1``).
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl


def row_warps(block: int) -> int:
    """Warps per program for a row of ``block`` elements (Triton's softmax tutorial)."""
    return 4 if block < 2048 else 8 if block < 4096 else 16


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(z: Any, x: Any, y: Any) -> None:
    n = x.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, z, n, BLOCK=1024)


@triton.jit
def softmax_kernel(z_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(z_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(z_ptr.dtype.element_ty), mask=cols < n_cols)


def softmax(z: Any, x: Any) -> None:
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    softmax_kernel[(rows,)](z, x, x.stride(0), cols, BLOCK=block, num_warps=row_warps(block))


@triton.jit
def log_softmax_kernel(z_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    """The softmax tutorial's kernel with its last line for log-softmax: ``x - max - log(sum)``."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    shifted = x - tl.max(x, axis=0)
    out = shifted - tl.log(tl.sum(tl.exp(shifted), axis=0))
    tl.store(z_ptr + row * stride + cols, out.to(z_ptr.dtype.element_ty), mask=cols < n_cols)


def log_softmax(z: Any, x: Any) -> None:
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    log_softmax_kernel[(rows,)](z, x, x.stride(0), cols, BLOCK=block, num_warps=row_warps(block))


@triton.jit
def rms_norm_kernel(z_ptr, x_ptr, w_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    inv_rms = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(z_ptr + row * stride + cols, (x * inv_rms * w).to(z_ptr.dtype.element_ty), mask=mask)


def rms_norm(z: Any, x: Any, w: Any, eps: float) -> None:
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    rms_norm_kernel[(rows,)](z, x, w, x.stride(0), cols, eps, BLOCK=block, num_warps=row_warps(block))


@triton.jit
def layer_norm_kernel(z_ptr, x_ptr, w_ptr, b_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    centered = tl.where(mask, x - tl.sum(x, axis=0) / n_cols, 0.0)
    inv_std = 1.0 / tl.sqrt(tl.sum(centered * centered, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(z_ptr + row * stride + cols, (centered * inv_std * w + b).to(z_ptr.dtype.element_ty), mask=mask)


def layer_norm(z: Any, x: Any, w: Any, b: Any, eps: float) -> None:
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    layer_norm_kernel[(rows,)](z, x, w, b, x.stride(0), cols, eps, BLOCK=block, num_warps=row_warps(block))


@triton.jit
def _attend(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_n, offs_d, lo, hi,
            D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    for start in range(lo, hi, BLOCK_N):
        keys = start + offs_n
        k = tl.load(k_base + keys[None, :] * D + offs_d[:, None])
        s = tl.dot(q, k)
        if MASKED:
            s = tl.where(offs_m[:, None] >= keys[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + keys[:, None] * D + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, l_i, m_i


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_stages=4, num_warps=4),
    ],
    key=["seq", "D", "CAUSAL", "GROUP"],
)
@triton.jit
def attention_kernel(o_ptr, q_ptr, k_ptr, v_ptr, qk_scale, seq, D: tl.constexpr, CAUSAL: tl.constexpr,
                     GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    block_m, bh = tl.program_id(0), tl.program_id(1)
    head = bh.to(tl.int64) * seq * D
    kv_head = (bh // GROUP).to(tl.int64) * seq * D
    offs_m = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + head + offs_m[:, None] * D + offs_d[None, :])
    q = (q.to(tl.float32) * qk_scale).to(q_ptr.dtype.element_ty)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    k_base, v_base = k_ptr + kv_head, v_ptr + kv_head
    if CAUSAL:
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_n, offs_d, 0, block_m * BLOCK_M,
                                D, BLOCK_N, False)
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_n, offs_d, block_m * BLOCK_M,
                                (block_m + 1) * BLOCK_M, D, BLOCK_N, True)
    else:
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_n, offs_d, 0, seq, D, BLOCK_N, False)
    tl.store(o_ptr + head + offs_m[:, None] * D + offs_d[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty))


def attention(o: Any, q: Any, k: Any, v: Any, scale: float, causal: bool, group: int) -> None:
    """``q``, ``o``: ``[B*H, S, D]``; ``k``, ``v``: ``[B*H/group, S, D]``; ``S`` a multiple of 128."""
    bh, seq, d = q.shape
    grid = lambda meta: (triton.cdiv(seq, meta["BLOCK_M"]), bh)  # noqa: E731
    attention_kernel[grid](o, q, k, v, scale * 1.4426950408889634, seq, D=d, CAUSAL=int(causal), GROUP=group)


# -- layer norm forward and backward, by Triton's tutorial 05 ---------------------------------
#
# The tutorial's scheme (python/tutorials/05-layer-norm.py): the forward walks a row per program
# in chunks of up to 64 KB, saving each row's mean and 1/std; the backward computes dx per row and
# adds the row's partial dw and db into one of GROUP_SIZE_M row buffers, each guarded by a lock
# taken with an atomic compare-and-swap (rows i, i + G, i + 2G... share buffer i); a second kernel
# sums the G buffers per column block.  Block sizes and warps follow the tutorial's rules.


@triton.jit
def layer_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n_cols, eps,
                          BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        total += tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / n_cols
    squares = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        centred = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32) - mean
        squares += tl.where(cols < n_cols, centred * centred, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_row + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def layer_norm_bwd_dx_kernel(dx_ptr, dy_ptr, partial_dw_ptr, partial_db_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr,
                             locks_ptr, stride, n_cols, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / n_cols
    c2 = tl.sum(wdy, axis=0) / n_cols
    tl.store(dx_ptr + row * stride + cols, ((wdy - (xhat * c1 + c2)) * rstd).to(dx_ptr.dtype.element_ty), mask=mask)
    # this row's share of dw and db, added into buffer row % GROUP under its lock
    slot = row % GROUP
    lock = locks_ptr + slot
    written = locks_ptr + GROUP + slot  # whether the buffer holds a sum yet
    dw = dy * xhat
    db = dy
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(written) == 0:
        tl.atomic_xchg(written, 1)
    else:
        dw += tl.load(partial_dw_ptr + slot * n_cols + cols, mask=mask)
        db += tl.load(partial_db_ptr + slot * n_cols + cols, mask=mask)
    tl.store(partial_dw_ptr + slot * n_cols + cols, dw, mask=mask)
    tl.store(partial_db_ptr + slot * n_cols + cols, db, mask=mask)
    tl.atomic_xchg(lock, 0)


@triton.jit
def layer_norm_bwd_dwdb_kernel(partial_dw_ptr, partial_db_ptr, dw_ptr, db_ptr, groups, n_cols,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, groups, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < groups) & (cols[None, :] < n_cols)
        offsets = rows[:, None] * n_cols + cols[None, :]
        dw += tl.load(partial_dw_ptr + offsets, mask=mask, other=0.0)
        db += tl.load(partial_db_ptr + offsets, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0).to(dw_ptr.dtype.element_ty), mask=cols < n_cols)
    tl.store(db_ptr + cols, tl.sum(db, axis=0).to(db_ptr.dtype.element_ty), mask=cols < n_cols)


def _layer_norm_block(x: Any) -> tuple[int, int]:
    """The tutorial's block (a row in chunks of at most 64 KB) and warps (a warp per 256 elements, 1 to 8)."""
    block = min(65536 // x.element_size(), triton.next_power_of_2(x.shape[-1]))
    return block, min(max(block // 256, 1), 8)


def _layer_norm_groups(n_cols: int) -> int:
    """The tutorial's number of partial dw/db buffers for rows of ``n_cols``."""
    return 256 if n_cols <= 1024 else 128 if n_cols <= 4096 else 96 if n_cols <= 8192 else 64


def layer_norm_tutorial(torch: Any) -> Any:
    """Tutorial 05's layer norm as a ``torch.autograd.Function`` (2-D ``x``; rows must fit one block
    in the backward, as in the tutorial)."""

    class LayerNorm(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, w: Any, b: Any, eps: float) -> Any:
            y = torch.empty_like(x)
            rows, n_cols = x.shape
            mean = torch.empty(rows, dtype=torch.float32, device=x.device)
            rstd = torch.empty(rows, dtype=torch.float32, device=x.device)
            block, warps = _layer_norm_block(x)
            layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), n_cols, eps, BLOCK=block,
                                           num_warps=warps)
            ctx.save_for_backward(x, w, mean, rstd)
            ctx.block, ctx.warps = block, warps
            return y

        @staticmethod
        def backward(ctx: Any, dy: Any) -> Any:
            x, w, mean, rstd = ctx.saved_tensors
            rows, n_cols = x.shape
            groups = _layer_norm_groups(n_cols)
            locks = torch.zeros(2 * groups, dtype=torch.int32, device=x.device)
            partial_dw = torch.zeros((groups, n_cols), dtype=torch.float32, device=x.device)
            partial_db = torch.zeros((groups, n_cols), dtype=torch.float32, device=x.device)
            dx = torch.empty_like(dy)
            layer_norm_bwd_dx_kernel[(rows,)](dx, dy, partial_dw, partial_db, x, w, mean, rstd, locks, x.stride(0),
                                              n_cols, GROUP=groups, BLOCK=ctx.block, num_warps=ctx.warps)
            dw, db = torch.empty_like(w), torch.empty_like(w)
            layer_norm_bwd_dwdb_kernel[(triton.cdiv(n_cols, 128),)](partial_dw, partial_db, dw, db, groups, n_cols,
                                                                    BLOCK_M=32, BLOCK_N=128)
            return dx, dw, db, None

    return LayerNorm.apply


# -- attention backward, by Triton's tutorial 06 -----------------------------------------------
#
# The tutorial's FlashAttention-2 backward (python/tutorials/06-fused-attention.py): a
# preprocess computes delta = rowsum(o * do); one kernel owns a key block (BLOCK_N1 keys) and
# walks the query blocks (BLOCK_M1 queries) accumulating dK and dV; another owns a query block
# (BLOCK_M2) and walks the key blocks (BLOCK_N2) accumulating dQ.  Blocks 32/128 and 128/32,
# 4 warps, as the tutorial; causal blocks masked (the tutorial splits the diagonal blocks finer).


@triton.jit
def attention_bwd_delta_kernel(o_ptr, do_ptr, delta_ptr, seq, D: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    head = tl.program_id(1)
    offs_d = tl.arange(0, D)
    offsets = head * seq * D + rows[:, None] * D + offs_d[None, :]
    o = tl.load(o_ptr + offsets).to(tl.float32)
    do = tl.load(do_ptr + offsets).to(tl.float32)
    tl.store(delta_ptr + head * seq + rows, tl.sum(o * do, axis=1))


@triton.jit
def attention_bwd_dkdv_kernel(dk_ptr, dv_ptr, q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, scale, seq,
                              D: tl.constexpr, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    head = tl.program_id(1)
    base = head * seq * D
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    k = tl.load(k_ptr + base + offs_n[:, None] * D + offs_d[None, :])
    v = tl.load(v_ptr + base + offs_n[:, None] * D + offs_d[None, :])
    dk = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    lo = start_n if CAUSAL else 0
    for start_m in range(lo, seq, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :])
        do = tl.load(do_ptr + base + offs_m[:, None] * D + offs_d[None, :])
        lse = tl.load(lse_ptr + head * seq + offs_m)
        delta = tl.load(delta_ptr + head * seq + offs_m)
        p_t = tl.exp(tl.dot(k, tl.trans(q)) * scale - lse[None, :])
        if CAUSAL:
            p_t = tl.where(offs_m[None, :] >= offs_n[:, None], p_t, 0.0)
        dv += tl.dot(p_t.to(do.dtype), do)
        dp_t = tl.dot(v, tl.trans(do))
        ds_t = p_t * (dp_t - delta[None, :])
        dk += tl.dot(ds_t.to(q.dtype), q)
    tl.store(dk_ptr + base + offs_n[:, None] * D + offs_d[None, :], (dk * scale).to(dk_ptr.dtype.element_ty))
    tl.store(dv_ptr + base + offs_n[:, None] * D + offs_d[None, :], dv.to(dv_ptr.dtype.element_ty))


@triton.jit
def attention_bwd_dq_kernel(dq_ptr, q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, scale, seq,
                            D: tl.constexpr, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    head = tl.program_id(1)
    base = head * seq * D
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :])
    do = tl.load(do_ptr + base + offs_m[:, None] * D + offs_d[None, :])
    lse = tl.load(lse_ptr + head * seq + offs_m)
    delta = tl.load(delta_ptr + head * seq + offs_m)
    dq = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    hi = start_m + BLOCK_M if CAUSAL else seq
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + offs_n[:, None] * D + offs_d[None, :])
        v = tl.load(v_ptr + base + offs_n[:, None] * D + offs_d[None, :])
        p = tl.exp(tl.dot(q, tl.trans(k)) * scale - lse[:, None])
        if CAUSAL:
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        ds = p * (tl.dot(do, tl.trans(v)) - delta[:, None])
        dq += tl.dot(ds.to(k.dtype), k)
    tl.store(dq_ptr + base + offs_m[:, None] * D + offs_d[None, :], (dq * scale).to(dq_ptr.dtype.element_ty))


def attention_backward(dq: Any, dk: Any, dv: Any, q: Any, k: Any, v: Any, o: Any, do: Any, lse: Any, delta: Any,
                       scale: float, causal: bool) -> None:
    """Tutorial 06's backward for ``[B*H, S, D]`` tensors (no grouped-query heads; ``S`` a multiple of 128);
    ``lse`` (f32, natural log) from the forward, ``delta`` an f32 ``[B*H, S]`` buffer it fills."""
    bh, seq, d = q.shape
    attention_bwd_delta_kernel[(seq // 128, bh)](o, do, delta, seq, D=d, BLOCK_M=128)
    attention_bwd_dkdv_kernel[(seq // 128, bh)](dk, dv, q, k, v, do, lse, delta, scale, seq, D=d, CAUSAL=causal,
                                                BLOCK_M=32, BLOCK_N=128, num_warps=4, num_stages=3)
    attention_bwd_dq_kernel[(seq // 128, bh)](dq, q, k, v, do, lse, delta, scale, seq, D=d, CAUSAL=causal,
                                              BLOCK_M=128, BLOCK_N=32, num_warps=4, num_stages=3)
