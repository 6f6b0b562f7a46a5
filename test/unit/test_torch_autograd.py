"""safetile.nn: each layer's backward kernels checked by ``torch.autograd.gradcheck`` in f64 on
the interpreter, its forward against torch, every kernel safe (``unsafe_report`` empty)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it

import torch.nn.functional as F  # noqa: E402
from torch.autograd import gradcheck  # noqa: E402

import safetile as st  # noqa: E402
from safetile.backend.interpreter.errors import DeviceAssertError  # noqa: E402
import safetile.nn as nn  # noqa: E402
from safetile.nn import kernels as K  # noqa: E402


def f64(*shape: int, seed: int = 0) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed + sum(shape))
    return torch.randn(*shape, dtype=torch.float64, generator=generator).requires_grad_()


# A row narrower than its tile (10 of 16: padded columns), rows not a multiple of the block's.
ROWS, WIDTH = 5, 10


@pytest.mark.parametrize(("name", "ours", "theirs"), [
    ("softmax", nn.softmax, lambda x: torch.softmax(x, -1)),
    ("log_softmax", nn.log_softmax, lambda x: torch.log_softmax(x, -1)),
])
def test_softmax_gradcheck(name: str, ours, theirs) -> None:
    x = f64(ROWS, WIDTH)
    torch.testing.assert_close(ours(x), theirs(x))
    assert gradcheck(ours, (x,))


def test_softmax_of_a_3d_tensor_with_masked_entries() -> None:
    x = f64(2, 3, 8)
    mask = torch.ones(3, 8, dtype=torch.bool).tril()  # -inf where masked, as causal attention has it
    scores = x.masked_fill(~mask, float("-inf"))
    torch.testing.assert_close(nn.softmax(scores), torch.softmax(scores, -1))
    assert gradcheck(lambda x: nn.softmax(x.masked_fill(~mask, float("-inf"))), (x,))


@pytest.mark.parametrize("vocabulary", [10, 9000])  # one column tile; three (4096 wide, the last partial)
def test_cross_entropy_gradcheck(vocabulary: int) -> None:
    logits = f64(ROWS, vocabulary)
    target = torch.tensor([1, 0, vocabulary - 1, 3, vocabulary // 2])
    torch.testing.assert_close(nn.cross_entropy(logits, target), F.cross_entropy(logits, target))
    if vocabulary == 10:
        assert gradcheck(lambda x: nn.cross_entropy(x, target), (logits,))
    else:  # gradcheck's numerical Jacobian would take 45000 evaluations: check against torch's
        ours, = torch.autograd.grad(nn.cross_entropy(logits, target), logits)
        theirs, = torch.autograd.grad(F.cross_entropy(logits, target), logits)
        torch.testing.assert_close(ours, theirs)


def test_cross_entropy_refuses_a_bad_target_naming_the_shapes() -> None:
    with pytest.raises(ValueError, match=r"int64 targets \(rows,\), got \(5, 10\) and torch.int32 \(5,\)"):
        nn.cross_entropy(f64(ROWS, WIDTH), torch.zeros(ROWS, dtype=torch.int32))


def test_cross_entropy_refuses_a_target_out_of_range_in_the_kernel() -> None:
    """The targets are checked by a device assert in the forward kernel, not read on the host (on a
    GPU a host check waits for the targets every step); a target that wraps to a class when
    narrowed to i32 (2**32 + 1) is refused too."""
    logits = f64(ROWS, WIDTH)
    message = r"element\(s\) \(2,\).*a target is not a class of the logits: targets must lie in \[0, vocabulary\)"
    with pytest.raises(DeviceAssertError, match=message):
        nn.cross_entropy(logits, torch.tensor([1, 0, 10, 3, 4]))
    with pytest.raises(DeviceAssertError, match=message):
        nn.cross_entropy(logits, torch.tensor([1, 0, 2**32 + 1, 3, 4]))
    compiled = torch.compile(nn.cross_entropy, backend="aot_eager", fullgraph=True)
    with pytest.raises(DeviceAssertError, match=message):
        compiled(logits, torch.tensor([1, 0, -1, 3, 4]))


def test_rms_norm_gradcheck() -> None:
    x, w = f64(ROWS, WIDTH), f64(WIDTH)
    torch.testing.assert_close(nn.rms_norm(x, w, 1e-6), F.rms_norm(x, (WIDTH,), w, 1e-6))
    assert gradcheck(lambda x, w: nn.rms_norm(x, w, 1e-6), (x, w))


def test_layer_norm_gradcheck() -> None:
    x, w, b = f64(ROWS, WIDTH), f64(WIDTH), f64(WIDTH, seed=1)
    torch.testing.assert_close(nn.layer_norm(x, w, b, 1e-5), F.layer_norm(x, (WIDTH,), w, b, 1e-5))
    assert gradcheck(lambda x, w, b: nn.layer_norm(x, w, b, 1e-5), (x, w, b))


NORMS = [
    (lambda x, w, b: nn.rms_norm(x, w, 1e-6), lambda x, w, b: F.rms_norm(x, x.shape[-1:], w, 1e-6), 2),
    (lambda x, w, b: nn.layer_norm(x, w, b), lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b), 3),
]
"""(ours, torch's, how many of ``(x, w, b)`` each differentiates)."""


def check_norm_gradients(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> None:
    dy = torch.randn(x.shape, dtype=torch.float64)
    for ours, theirs, count in NORMS:
        params = (x, w, b)[:count]
        got = torch.autograd.grad(ours(x, w, b), params, dy)
        want = torch.autograd.grad(theirs(x, w, b), params, dy)
        for g, h in zip(got, want, strict=True):
            torch.testing.assert_close(g, h)


@pytest.mark.parametrize(("rows", "multiprocessors", "groups"), [(200, 2, 2), (520, 4, 4), (100, 132, 2)])
def test_norm_weight_gradients_over_many_row_tiles(rows: int, multiprocessors: int, groups: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The backward's ``G`` blocks (one a multiprocessor, no more than the row tiles) each walk every
    ``G``-th row tile of 64 rows of ``WIDTH`` (200 rows: 4 tiles over 2 blocks, the last partial;
    520: 9 over 4; 100: 2 tiles, a block each) for dx and their rows of partial sums, then
    ``column_sums`` adds the partials.  (The gradchecks' tiles: their variants, compiled once.)"""
    monkeypatch.setattr(nn, "ASSUMED_MULTIPROCESSORS", multiprocessors)
    x, w, b = f64(rows, WIDTH), f64(WIDTH), f64(WIDTH, seed=1)
    assert nn._norm_backward(x, "rms_norm")[:2] == ((64, 16), groups)
    check_norm_gradients(x, w, b)


@pytest.mark.parametrize("norm", ["rms_norm", "layer_norm"])
def test_a_norm_backward_reads_the_rows_once(norm: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """dx and the weight (and bias) gradients' partial sums come out of one kernel, which reads ``x``
    and ``dy`` once (a kernel of their own read both again: 5 of the 3 rows' traffic); ``column_sums``
    adds the partials."""
    from safetile.runtime.torch import custom_op

    launched: list[tuple[str, int]] = []
    specialize = custom_op._specialize

    def recording(launch: custom_op.KernelLaunch) -> object:
        launched.append((launch.kernel.name, len(launch.outputs)))
        return specialize(launch)

    monkeypatch.setattr(custom_op, "_specialize", recording)
    x, w, b = (torch.empty(s, dtype=torch.bfloat16, device="meta", requires_grad=True)
               for s in ((4096, 1024), (1024,), (1024,)))
    out = nn.rms_norm(x, w) if norm == "rms_norm" else nn.layer_norm(x, w, b)
    launched.clear()
    out.backward(torch.empty_like(out))
    outputs = 2 if norm == "rms_norm" else 3
    assert launched == [(f"{norm}_backward", outputs)] + [("column_sums", 1)] * (outputs - 1)


def test_norm_backward_tiles_and_grids() -> None:
    """Rows of up to 64 rows and 4096 elements a tile, ``G`` one block a multiprocessor (132 assumed
    off CUDA; two ran 0.89-0.90x as fast on an H100), no more than the row tiles; 8192 columns with 8
    worker warps."""
    def launch(rows: int, columns: int) -> tuple[tuple[int, int], int, dict[str, int]]:
        return nn._norm_backward(torch.empty(rows, columns, device="meta"), "rms_norm")

    assert launch(65536, 64) == ((64, 64), 132, {"WARPS": 0, "OCCUPANCY": 0})
    assert launch(4096, 1024) == ((4, 1024), 132, {"WARPS": 0, "OCCUPANCY": 0})
    assert launch(4096, 4096) == ((1, 4096), 132, {"WARPS": 0, "OCCUPANCY": 0})
    assert launch(4096, 8192) == ((1, 8192), 132, {"WARPS": 8, "OCCUPANCY": 0})
    assert launch(100, 1024) == ((4, 1024), 25, {"WARPS": 0, "OCCUPANCY": 0})


@pytest.mark.full  # kernel variants of their own to compile: ~6 CPU-s
def test_narrow_norm_gradients_over_many_row_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over several row tiles of 64 and blocks, the narrow norms' gradients are torch's."""
    monkeypatch.setattr(nn, "ASSUMED_MULTIPROCESSORS", 2)
    x, w, b = f64(150, 20), f64(20), f64(20, seed=1)  # 3 row tiles of 64 over 2 blocks
    assert nn._norm_backward(x, "rms_norm")[:2] == ((64, 32), 2)
    check_norm_gradients(x, w, b)


@pytest.mark.parametrize("kernel", [K.rms_norm_backward, K.layer_norm_backward], ids=lambda kernel: kernel.name)
def test_norm_backwards_leave_no_bounds_check_in_the_kernel(kernel: st.Kernel) -> None:
    """The mapped row tiles' loads of ``x`` and ``dy`` are proved in range (the launch checks that
    ``dx`` has their rows): no check left in the loop."""
    kernel.with_options(deny_in_kernel_checks=True).compile_variant(None, E=st.bf16, A=st.f32, BM=4, BN=1024,
                                                                     N=1024)


@pytest.mark.full  # four sm_90 cubins to build: ~10 CPU-s
def test_row_backwards_spill_no_register(cubin_cache: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The norms' one-pass backward and cross-entropy's backward compile for sm_90 without spilling at
    bench/backward.py's shapes (tileiras's resources: ``NORM_BACKWARD``'s and
    ``CROSS_ENTROPY_BACKWARD``'s claims)."""
    from safetile.backend.resources import kernel_resources
    from safetile.driver import compile_variant
    from safetile.runtime.torch import custom_op

    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
    spills: dict[str, int] = {}
    specialize = custom_op._specialize

    def compile_it(launch: custom_op.KernelLaunch) -> object:
        variant = specialize(launch)
        if launch.kernel in (K.layer_norm_backward, K.rms_norm_backward, K.cross_entropy_backward):
            compiled = compile_variant(launch.kernel, variant, "sm_90")
            spills[compiled.symbol] = kernel_resources(compiled.cubin.cubin, compiled.symbol).spill_bytes
        return variant

    monkeypatch.setattr(custom_op, "_specialize", compile_it)
    for columns in (1024, 8192):
        x, w, b = (torch.empty(s, dtype=torch.float16, device="meta", requires_grad=True)
                   for s in ((4096, columns), (columns,), (columns,)))
        torch.autograd.grad(nn.layer_norm(x, w, b), (x, w, b), torch.empty_like(x))
    x, w = (torch.empty(s, dtype=torch.bfloat16, device="meta", requires_grad=True) for s in ((65536, 64), (64,)))
    torch.autograd.grad(nn.rms_norm(x, w), (x, w), torch.empty_like(x))
    logits = torch.empty(4096, 32768, dtype=torch.bfloat16, device="meta", requires_grad=True)
    torch.autograd.grad(nn.cross_entropy(logits, torch.zeros(4096, dtype=torch.long, device="meta")), logits)
    assert len(spills) == 4 and set(spills.values()) == {0}, spills


@pytest.mark.parametrize(("vocab", "rows"), [(32768, 1), (128256, 1), (4096, 1), (1024, 4), (100, 32)])
def test_cross_entropy_blocks_take_about_a_row_tile_of_elements(vocab: int, rows: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Both kernels' blocks take about ``ROW_ELEMENTS`` elements: one row of 4096 at a vocabulary of
    4096 or more (16 rows a block ran the forward 14x slower than its memory traffic on an H100); the
    backward's at occupancy 8 (tileiras's own choice, 112 registers, ran it 0.72x as fast)."""
    from safetile.runtime.torch import custom_op

    tiles: dict[str, tuple[int, ...]] = {}
    specialize = custom_op._specialize

    def recording(launch: custom_op.KernelLaunch) -> object:
        tiles[launch.kernel.name] = (*launch.outputs[0].tile, launch.options.get("OCCUPANCY", 0))
        return specialize(launch)

    monkeypatch.setattr(custom_op, "_specialize", recording)
    x = torch.empty(64, vocab, dtype=torch.bfloat16, device="meta", requires_grad=True)
    nn.cross_entropy(x, torch.zeros(64, dtype=torch.long, device="meta")).backward()
    assert nn._vocab_rows(x) == rows
    assert tiles == {"cross_entropy_forward": (rows, 0),
                     "cross_entropy_backward": (rows, min(nn._pow2(vocab), 4096), 8)}


def test_f32_layers_match_torch() -> None:
    x = torch.randn(6, 33, requires_grad=True)
    w = torch.randn(33, requires_grad=True)
    y = nn.rms_norm(nn.softmax(x), w)
    reference = F.rms_norm(torch.softmax(x, -1), (33,), w, 1e-6)
    torch.testing.assert_close(y, reference)
    dy = torch.randn_like(y)
    for g, h in zip(torch.autograd.grad(y, (x, w), dy), torch.autograd.grad(reference, (x, w), dy), strict=True):
        torch.testing.assert_close(g, h)


def test_matmul_gradcheck() -> None:
    """Sides that are not multiples of the tiles (the padded parts of the last steps)."""
    a, b = f64(5, 7), f64(7, 6, seed=1)
    torch.testing.assert_close(nn.matmul(a, b), a @ b)
    assert gradcheck(nn.matmul, (a, b))
    for ta, tb in [(0, 0), (0, 1)]:  # the third form, (1, 0), is SAFETY_VARIANTS'
        assert K.matmul.unsafe_report(E=st.f64, A=st.f64, BM=8, BN=8, BK=8, TA=ta, TB=tb) == []


def test_matmul_over_several_tiles_and_steps() -> None:
    a, b = torch.randn(70, 40, requires_grad=True), torch.randn(40, 66, requires_grad=True)
    dc = torch.randn(70, 66)
    torch.testing.assert_close(nn.matmul(a, b), a @ b)
    got = torch.autograd.grad(nn.matmul(a, b), (a, b), dc)
    want = torch.autograd.grad(a @ b, (a, b), dc)
    for g, h in zip(got, want, strict=True):
        torch.testing.assert_close(g, h)


def test_matmul_refuses_mismatched_matrices_naming_them() -> None:
    message = r"shared inner dimension, got torch.float64 \(5, 7\) and torch.float64 \(6, 6\)"
    with pytest.raises(ValueError, match=message):
        nn.matmul(f64(5, 7), f64(6, 6))


def test_matmul_op_refuses_to_differentiate_its_transposed_forms() -> None:
    """The op's transposed forms are matmul's own backward; differentiating one is refused, named."""
    a, b = f64(7, 5).requires_grad_(), f64(7, 6, seed=1)
    c = torch.ops.safetile.matmul(a, b, True, False)  # a^T @ b
    torch.testing.assert_close(c, a.detach().T @ b)
    with pytest.raises(NotImplementedError, match=r"differentiates a @ b \(the transposed forms are its backward\)"):
        c.sum().backward()


def sdpa(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)


# make test: the numerical gradcheck without the mask, the causal loops against torch's gradients
# (the other two combinations: make test-full).
@pytest.mark.parametrize("causal", [False, pytest.param(True, marks=pytest.mark.full)])
def test_attention_gradcheck(causal: bool) -> None:
    """Grouped-query (2 query heads share a key head), 3 queries and keys in a tile of 4."""
    q, k, v = f64(1, 2, 3, 2), f64(1, 1, 3, 2, seed=1), f64(1, 1, 3, 2, seed=2)
    torch.testing.assert_close(nn.attention(q, k, v, causal), sdpa(q, k, v, causal))
    assert gradcheck(lambda q, k, v: nn.attention(q, k, v, causal), (q, k, v))


@pytest.mark.parametrize("causal", [pytest.param(False, marks=pytest.mark.full), True])
def test_attention_over_several_query_and_key_tiles(causal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiles of 4 over 10 queries and keys (3 each, the last partial): the causal loops' bounds
    (the key tiles a query tile sees, the query tiles that see a key tile), GQA over 2 batches."""
    monkeypatch.setattr(nn, "ATTENTION_TILE", 4)
    q, k, v = f64(2, 4, 10, 8), f64(2, 2, 10, 8, seed=1), f64(2, 2, 10, 8, seed=2)
    do = torch.randn(2, 4, 10, 8, dtype=torch.float64)
    torch.testing.assert_close(nn.attention(q, k, v, causal), sdpa(q, k, v, causal))
    got = torch.autograd.grad(nn.attention(q, k, v, causal), (q, k, v), do)
    want = torch.autograd.grad(sdpa(q, k, v, causal), (q, k, v), do)
    for g, h in zip(got, want, strict=True):
        torch.testing.assert_close(g, h)


@pytest.mark.parametrize("causal", [False, True])
def test_attention_backward_tiles_per_head_dimension(causal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The backward kernels take their own tiles for the head dimension and the mask, unlike the
    forward's and each other's: dq 8 queries by 4 keys, dk/dv 4 queries by 8 keys (over 10
    queries and keys: the causal bounds where a query tile and a key tile differ in size); the
    other mask's entry is not read."""
    monkeypatch.setattr(nn, "ATTENTION_TILE", 4)
    tiles = nn.AttentionTiles
    monkeypatch.setitem(nn.ATTENTION_BACKWARD_TILES, (8, causal), (tiles(8, 4), tiles(4, 8, 8, 3)))
    monkeypatch.setitem(nn.ATTENTION_BACKWARD_TILES, (8, not causal), (tiles(2, 2), tiles(2, 2)))
    q, k, v = f64(1, 4, 10, 8), f64(1, 2, 10, 8, seed=1), f64(1, 2, 10, 8, seed=2)
    assert nn._backward_generics(q[0], k[0], v[0], causal, 0.5, 1) | {"SCALE": 0.5} == {
        "A": st.f64, "G": 2, "BQ": 4, "BK": 8, "D": 8, "CAUSAL": int(causal), "SCALE": 0.5, "WARPS": 8,
        "OCCUPANCY": 0, "LATENCY": 3}
    do = torch.randn(1, 4, 10, 8, dtype=torch.float64)
    got = torch.autograd.grad(nn.attention(q, k, v, causal), (q, k, v), do)
    want = torch.autograd.grad(sdpa(q, k, v, causal), (q, k, v), do)
    for g, h in zip(got, want, strict=True):
        torch.testing.assert_close(g, h)


# make test: the causal loops (their bounds where the query and key tiles differ); make test-full: both
@pytest.mark.parametrize("causal", [pytest.param(False, marks=pytest.mark.full), True])
def test_attention_forward_tiles_per_head_dimension(causal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forward takes its own tiles and hints for the head dimension and the mask, unlike the
    backward's: 8 queries by 4 keys over 10 queries and keys (the causal bounds where the tiles
    differ), 8 warps, depth 3, occupancy 2; the other mask's entry is not read."""
    monkeypatch.setattr(nn, "ATTENTION_TILE", 4)
    monkeypatch.setitem(nn.ATTENTION_FORWARD_TILES, (8, causal), nn.AttentionTiles(8, 4, 8, 3, 2))
    monkeypatch.setitem(nn.ATTENTION_FORWARD_TILES, (8, not causal), nn.AttentionTiles(2, 2))
    q, k, v = f64(1, 4, 10, 8), f64(1, 2, 10, 8, seed=1), f64(1, 2, 10, 8, seed=2)
    assert nn._forward_generics(q[0], k[0], v[0], causal, 0.5) == {
        "A": st.f64, "G": 2, "BQ": 8, "BK": 4, "D": 8, "CAUSAL": int(causal), "SCALE": 0.5, "WARPS": 8,
        "OCCUPANCY": 2, "LATENCY": 3}
    torch.testing.assert_close(nn.attention(q, k, v, causal), sdpa(q, k, v, causal))


def test_attention_backward_walks_one_heads_tiles_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """The backward kernels at ``head_major``: dq and delta laid out (T, BH, ...) in (BQ, 1, ...)
    tiles, dk and dv (S, BKV, D) in (BK, 1, D) tiles (the grid's x the tile within a head), the
    gradients torch's (causal, 2 query heads a key head, 2 batches, 10 queries and keys in tiles
    of 4: the last partial).  The forward has no such order: refused, naming it."""
    monkeypatch.setattr(nn, "ATTENTION_TILE", 4)
    tiles = nn.AttentionTiles
    monkeypatch.setitem(nn.ATTENTION_BACKWARD_TILES, (8, True), (tiles(4, 4, head_major=1), tiles(4, 4, head_major=1)))
    q, k, v = f64(2, 4, 10, 8), f64(2, 2, 10, 8, seed=1), f64(2, 2, 10, 8, seed=2)
    do = torch.randn(2, 4, 10, 8, dtype=torch.float64)
    got = torch.autograd.grad(nn.attention(q, k, v, True), (q, k, v), do)
    want = torch.autograd.grad(sdpa(q, k, v, True), (q, k, v), do)
    for g, h in zip(got, want, strict=True):
        torch.testing.assert_close(g, h)
    monkeypatch.setitem(nn.ATTENTION_FORWARD_TILES, (8, True), tiles(4, 4, head_major=1))
    with pytest.raises(ValueError, match="attention's forward kernel has no head-major order"):
        nn._forward_generics(q[0], k[0], v[0], True, 0.5)


def test_the_training_steps_attention_tiles() -> None:
    """The tiles the training step's attention launches (bench/backward.py's ``STEP``: 1024 tokens,
    16 / 8 heads of 64, causal), the fastest timed on an H100 (docs/benchmarks.md section 8, run
    -s7a): the forward 64 queries by 128 keys at two blocks a multiprocessor (session 16's 64 x 64
    square: 0.49 of SDPA, this 0.87), dq 128 queries by 64 keys, dk/dv 128 keys by 64 queries, both
    at 8 worker warps and a load depth of 2."""
    q = torch.empty(64, 1024, 64, dtype=torch.bfloat16, device="meta")
    k = torch.empty(32, 1024, 64, dtype=torch.bfloat16, device="meta")

    def tiles(generics: dict[str, object]) -> tuple[object, ...]:
        return tuple(generics[name] for name in ("BQ", "BK", "WARPS", "OCCUPANCY", "LATENCY"))

    assert tiles(nn._forward_generics(q, k, k, True, 0.125)) == (64, 128, 0, 2, 0)
    assert tiles(nn._backward_generics(q, k, k, True, 0.125, 0)) == (128, 64, 8, 0, 2)
    assert tiles(nn._backward_generics(q, k, k, True, 0.125, 1)) == (64, 128, 8, 0, 2)
    assert nn._head_major(64, True) == (False, False)


def test_the_d128_backward_walks_one_heads_tiles_together() -> None:
    """At d128 both backward kernels run head-major, at d64 neither (docs/benchmarks.md section 8,
    run -s7a2 on an H100: 0.805 of SDPA unmasked and 0.87 causal at d128, against 0.787 and 0.832;
    at d64 head-major ran 0.94 against 0.95 unmasked and 0.98 against 1.15 causal)."""
    assert [nn._head_major(d, c) for d in (64, 128) for c in (False, True)] == [(False, False)] * 2 + [(True, True)] * 2


ATTENTION_KERNELS = [K.attention_forward, K.attention_backward_dq, K.attention_backward_dkdv]


# make test: the causal variants (their loops: the masked tiles' and the others'); make test-full: both
@pytest.mark.parametrize("causal", [pytest.param(0, marks=pytest.mark.full), 1])
@pytest.mark.parametrize("kernel", ATTENTION_KERNELS, ids=lambda kernel: kernel.name)
def test_attention_kernels_leave_no_bounds_check_in_the_kernel(kernel: st.Kernel, causal: int) -> None:
    """Every load's index is proved in range when compiling or by the launch's checks on the host:
    a check left in the kernel costs each step a compare, and its failure path (the message's
    print) a stack frame: 136-264 B a thread at the backward's tiles on sm_90, their only spills."""
    layouts: list[dict[str, int]] = [{}]
    if kernel is K.attention_backward_dq:  # its outputs' tiles laid out (BH, T, D), and head-major (T, BH, D)
        layouts = [{"Q0": 1, "Q1": 64}, {"Q0": 64, "Q1": 1, "HEAD_MAJOR": 1}]
    if kernel is K.attention_backward_dkdv:  # (BKV, S, D), and head-major (S, BKV, D)
        layouts = [{"K0": 1, "K1": 128}, {"K0": 128, "K1": 1, "HEAD_MAJOR": 1}]
    warps = {} if kernel is K.attention_forward else {"WARPS": 8}
    for layout in layouts:
        kernel.with_options(deny_in_kernel_checks=True).compile_variant(
            None, E=st.bf16, A=st.f32, BQ=64, BK=128, D=64, G=2, CAUSAL=causal, SCALE=0.125, **warps, **layout)


@pytest.mark.full
@pytest.mark.parametrize(("head", "causal"), sorted(nn.ATTENTION_BACKWARD_TILES))
def test_attention_backward_tiles_neither_spill_nor_transpose_through_shared_memory(
        head: int, causal: bool, cubin_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped backward tiles compile for sm_90 without spilling (tileiras's resources; the
    table's claim) at bench/backward.py's sizes: bf16, 2048 queries and keys, 2 query heads a key
    head (the group's walk in dk/dv; bench/backward.py's d128 heads are not grouped).  And dk/dv,
    its scores taken keys-first, stores nothing to shared memory but its outputs' tiles (``STSM``):
    no ``STS``, which a register tile transposed for an MMA operand costs (the queries-first form
    at the same tiles: 48, 96 and 32 at d64, d64 causal and d128 causal)."""
    from bytecode_support import cuobjdump

    from safetile.backend.resources import kernel_resources
    from safetile.driver import compile_variant
    from safetile.runtime.torch import custom_op

    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
    spills, shared_stores = {}, {}
    specialize = custom_op._specialize

    def compile_it(launch: custom_op.KernelLaunch) -> object:
        variant = specialize(launch)
        if launch.kernel in (K.attention_backward_dq, K.attention_backward_dkdv):
            compiled = compile_variant(launch.kernel, variant, "sm_90")
            spills[launch.kernel.name] = kernel_resources(compiled.cubin.cubin, compiled.symbol).spill_bytes
            cubin = tmp_path / f"{launch.kernel.name}.cubin"
            cubin.write_bytes(compiled.cubin.cubin)
            shared_stores[launch.kernel.name] = len(re.findall(r"\bSTS\b", cuobjdump(cubin, "-sass", cubin_cache)))
        return variant

    monkeypatch.setattr(custom_op, "_specialize", compile_it)
    q = torch.empty(1, 4, 2048, head, dtype=torch.bfloat16, device="meta", requires_grad=True)
    k, v = (torch.empty(1, 2, 2048, head, dtype=torch.bfloat16, device="meta", requires_grad=True)
            for _ in range(2))
    out = nn.attention(q, k, v, causal)
    torch.autograd.grad(out, (q, k, v), torch.empty_like(out))
    assert spills == {"attention_backward_dq": 0, "attention_backward_dkdv": 0}
    assert shared_stores["attention_backward_dkdv"] == 0


def test_attention_refuses_shapes_naming_them() -> None:
    with pytest.raises(ValueError, match="heads a multiple of kv_heads, got q \\(3, 5, 8\\), k \\(2, 5, 8\\)"):
        nn.attention(f64(1, 3, 5, 8), f64(1, 2, 5, 8), f64(1, 2, 5, 8))
    with pytest.raises(ValueError, match="causal attention needs as many queries as keys"):
        nn.attention(f64(1, 2, 5, 8), f64(1, 2, 6, 8), f64(1, 2, 6, 8), causal=True)
    with pytest.raises(ValueError, match="head dimension must be a power of two, got 6"):
        nn.attention(f64(1, 2, 5, 6), f64(1, 2, 5, 6), f64(1, 2, 5, 6))


@pytest.mark.parametrize("name", ["softmax", "cross_entropy", "rms_norm", "layer_norm", "matmul", "attention"])
def test_torch_validates_each_forward_op(name: str) -> None:
    """``torch.library.opcheck``: the schema, the fake implementation against the real one (static and
    dynamic shapes through AOT autograd) and the autograd registration."""
    args = {
        "softmax": (f64(5, 10), False),
        "cross_entropy": (f64(5, 10), torch.tensor([1, 0, 9, 3, 4])),
        "rms_norm": (f64(5, 10), f64(10), 1e-6),
        "layer_norm": (f64(5, 10), f64(10), f64(10, seed=1), 1e-5),
        "matmul": (f64(5, 7), f64(7, 6), False, False),
        "attention": (f64(2, 3, 4), f64(1, 3, 4), f64(1, 3, 4, seed=1), True, 0.5),
    }[name]
    torch.library.opcheck(getattr(nn, f"_{name}"), args)


SAFETY_VARIANTS = {
    K.softmax_forward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10),
    K.softmax_backward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10),
    K.cross_entropy_forward: dict(E=st.f32, A=st.f32, BM=16, BN=4096),
    K.cross_entropy_backward: dict(E=st.f32, A=st.f32, BM=1, BN=4096),
    K.rms_norm_forward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10, EPS=1e-6),
    K.rms_norm_backward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10),
    K.column_sums: dict(E=st.f32, A=st.f32, BM=64, BN=64),
    K.layer_norm_forward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10, EPS=1e-5),
    K.layer_norm_backward: dict(E=st.f32, A=st.f32, BM=4, BN=16, N=10),
    K.matmul: dict(E=st.f32, A=st.f32, BM=64, BN=64, BK=32, TA=1),
    K.attention_forward: dict(E=st.f16, A=st.f32, BQ=64, BK=64, D=64, G=4, CAUSAL=1, SCALE=0.125),
    K.attention_backward_dq: dict(E=st.f16, A=st.f32, BQ=128, BK=128, D=64, G=4, CAUSAL=1, SCALE=0.125, WARPS=8,
                                  Q0=128, Q1=1, HEAD_MAJOR=1),
    K.attention_backward_dkdv: dict(E=st.f16, A=st.f32, BQ=64, BK=128, D=128, G=4, CAUSAL=1, SCALE=0.125, WARPS=8,
                                    K0=128, K1=1, HEAD_MAJOR=1),
}


def test_every_kernel_of_the_library_is_safe() -> None:
    assert set(SAFETY_VARIANTS) == set(nn.KERNELS)
    for kernel, values in SAFETY_VARIANTS.items():
        assert kernel.unsafe_report(**values) == [], kernel.name
