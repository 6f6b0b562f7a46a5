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
