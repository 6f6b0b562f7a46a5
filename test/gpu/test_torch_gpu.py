"""torch on the GPU: CUDA torch tensors at the launch boundary, kernel ops and safetile.nn (marked ``gpu``).

What holds at the torch edge on a GPU (docs/torch.md): a launch of CUDA torch
tensors runs on torch's current stream (ordered with torch's work there), the
caching allocator does not hand out memory a pending launch uses, the kernel
ops run eagerly, under ``torch.compile(fullgraph=True)`` and inside
``torch.cuda.graph`` capture, and every safetile.nn gradient matches torch's
in f32 and bf16.

Needs a GPU, torch with CUDA, and the cubins of ``warm_up_specs()`` and of
``layer_cases`` (test/gpu/build_torch_cache.py compiles them ahead of time on a
machine with the toolchain).

    python -m pytest test/gpu/test_torch_gpu.py -m gpu -v
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import current_backend

torch = pytest.importorskip("torch")
F = torch.nn.functional

import safetile.nn as snn  # noqa: E402

pytestmark = pytest.mark.gpu

N, TILE = 1 << 20, 1024
SPIN = 50_000_000
"""Cycles of ``torch.cuda._sleep`` that keep a stream busy (tens of milliseconds) while the host goes on."""


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


def warm_up_specs() -> list[tuple[st.Kernel, dict[str, Any]]]:
    """The variants of the launch-boundary tests (what a launch derives from its tensors)."""
    vector = st.TensorSpec(f32, (N,), (1,), None, True)
    return [(add, dict(z=st.TensorSpec(f32, (N,), (1,), (TILE,), True), x=vector, y=vector))]


# -- every safetile.nn layer, forward and backward ---------------------------------------------

ROWS, COLS, VOCAB = 256, 1000, 10000
BATCH, HEADS, KV_HEADS, SEQ, HEAD = 2, 4, 2, 256, 64
M, K, NN = 192, 160, 96


def layer_cases(device: str, dtype: Any) -> dict[str, tuple[Callable[..., Any], Callable[..., Any], list[Any]]]:
    """name -> (safetile's layer, torch's, its inputs): the sizes the tests run (on ``meta`` tensors
    the cache build traces them: every kernel variant they launch)."""
    g = torch.Generator(device="cpu").manual_seed(0)

    def randn(*shape: int, scale: float = 1.0) -> Any:
        return (torch.randn(*shape, generator=g) * scale).to(device=device, dtype=dtype)

    rows, w, b = randn(ROWS, COLS), randn(COLS, scale=0.5) + 1, randn(COLS, scale=0.1)
    logits = randn(64, VOCAB)
    target = torch.randint(0, VOCAB, (64,), generator=g).to(device)
    q, k, v = randn(BATCH, HEADS, SEQ, HEAD), randn(BATCH, KV_HEADS, SEQ, HEAD), randn(BATCH, KV_HEADS, SEQ, HEAD)
    return {
        "softmax": (snn.softmax, lambda x: torch.softmax(x, -1), [rows]),
        "log_softmax": (snn.log_softmax, lambda x: torch.log_softmax(x, -1), [rows]),
        "cross_entropy": (lambda x: snn.cross_entropy(x, target), lambda x: F.cross_entropy(x, target), [logits]),
        "rms_norm": (lambda x, w: snn.rms_norm(x, w, 1e-6), lambda x, w: F.rms_norm(x, (COLS,), w, 1e-6), [rows, w]),
        "layer_norm": (snn.layer_norm, lambda x, w, b: F.layer_norm(x, (COLS,), w, b, 1e-5), [rows, w, b]),
        "matmul": (snn.matmul, torch.matmul, [randn(M, K, scale=0.3), randn(K, NN, scale=0.3)]),
        "attention": (lambda q, k, v: snn.attention(q, k, v, causal=False),
                      lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True), [q, k, v]),
        "attention_causal": (lambda q, k, v: snn.attention(q, k, v, causal=True),
                             lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
                             [q, k, v]),
    }


def forward_backward(layer: Callable[..., Any], inputs: list[Any], dy: Any | None = None) -> tuple[Any, list[Any]]:
    """The layer's output and the gradients of ``(output * dy).sum()`` (of the output, for a scalar)."""
    leaves = [x.detach().requires_grad_(x.is_floating_point()) for x in inputs]
    out = layer(*leaves)
    out.backward(torch.ones_like(out) if dy is None else dy)
    return out.detach(), [x.grad for x in leaves if x.requires_grad]


WIDE_HEAD = 128
"""The head dimension whose attention backward runs head-major (``safetile.nn.ATTENTION_BACKWARD_TILES``)."""


def wide_attention_inputs(device: str) -> list[Any]:
    """bf16 q, k, v of ``WIDE_HEAD`` (``HEADS`` heads each, as bench/backward.py's d128 cases)."""
    g = torch.Generator(device="cpu").manual_seed(1)
    return [torch.randn(BATCH, HEADS, SEQ, WIDE_HEAD, generator=g).to(device=device, dtype=torch.bfloat16)
            for _ in range(3)]


def trace_every_layer(device: str = "meta") -> None:
    """Forward and backward of every case on ``device`` tensors (the cache build: meta tensors run the
    kernel ops' fake implementations, which specialize each kernel as its real launch will)."""
    for dtype in (torch.float32, torch.bfloat16):
        for ours, _, inputs in layer_cases(device, dtype).values():
            forward_backward(ours, inputs)
    for causal in (False, True):
        forward_backward(lambda q, k, v: snn.attention(q, k, v, causal=causal), wide_attention_inputs(device))


@pytest.fixture(autouse=True)
def cuda_backend() -> None:
    # conftest.py runs gpu tests on the CPU interpreter while a cache is built; these need
    # CUDA torch tensors, so they run on the cuda backend only.
    if current_backend().name != "cuda" or not torch.cuda.is_available():
        pytest.skip("needs safetile's cuda backend and torch with CUDA")


@pytest.mark.parametrize("causal", [False, True])
def test_head_major_attention_gradients_match_torch(causal: bool) -> None:
    """At ``WIDE_HEAD`` both backward kernels walk one head's tiles together (their outputs laid out
    sequence-first, returned transposed): the bf16 gradients against torch's in f32."""
    inputs = wide_attention_inputs("cuda")
    assert snn._head_major(WIDE_HEAD, causal) == (True, True)
    out, grads = forward_backward(lambda q, k, v: snn.attention(q, k, v, causal=causal), inputs)
    dy = torch.randn_like(out)
    out, grads = forward_backward(lambda q, k, v: snn.attention(q, k, v, causal=causal), inputs, dy)
    want, want_grads = forward_backward(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                                        [x.float() for x in inputs], dy.float())
    limit = 3 * LIMITS[torch.bfloat16]
    assert relative_error(out, want) < limit
    for k, (got, expected) in enumerate(zip(grads, want_grads, strict=True)):
        assert relative_error(got, expected) < limit, f"gradient {k}"


def relative_error(got: Any, want: Any) -> float:
    return ((got.float() - want.float()).abs().max() / want.float().abs().max().clamp_min(1e-6)).item()


# -- the launch boundary ------------------------------------------------------------------------


def test_a_launch_runs_after_torchs_work_on_the_current_stream() -> None:
    x, y, z = torch.zeros(N, device="cuda"), torch.ones(N, device="cuda"), torch.empty(N, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(SPIN)  # the stream is busy: a launch on another stream would run first
        x.fill_(3.0)  # torch's write, after the spin, on torch's current stream
        z_back, _, _ = add(z, x, y, S=(TILE,)).sync()
    assert z_back is z
    assert torch.equal(z, torch.full_like(z, 4.0))


def test_memory_freed_by_torch_is_not_recycled_while_a_launch_uses_it() -> None:
    x, y, z = torch.full((N,), 5.0, device="cuda"), torch.ones(N, device="cuda"), torch.zeros(N, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(SPIN)
        op = add(z, x, y, S=(TILE,))
        op.enqueue(op.home_stream())  # pending behind the spin; the host goes on
    del x, op  # x was allocated on the default stream: freed, its block goes back to that stream's pool
    again = torch.full((N,), -100.0, device="cuda")  # the default stream's next block of that size
    torch.cuda.synchronize()
    assert torch.equal(z, torch.full_like(z, 6.0)), "the launch read memory torch had handed out again"
    del again


def test_a_kernel_op_keeps_its_freed_input_alive_until_it_has_run() -> None:
    x = torch.randn(ROWS, COLS, device="cuda")
    want = torch.softmax(x, -1)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(SPIN)
        got = snn.softmax(x)  # enqueued on `side`, not waited for
    del x
    again = torch.full((ROWS, COLS), 1e4, device="cuda")
    torch.cuda.synchronize()
    torch.testing.assert_close(got, want)
    del again


def test_overlapping_views_of_one_cuda_tensor_are_refused() -> None:
    base = torch.arange(2 * N, dtype=torch.float32, device="cuda")
    with pytest.raises(st.LaunchRefused, match="overlaps the memory of argument 'x'"):
        add(base[:N], base[N // 2:N // 2 + N], base[N:], S=(TILE,))
    torch.testing.assert_close(base, torch.arange(2 * N, dtype=torch.float32, device="cuda"))


# -- kernel ops: eager, compiled, captured ------------------------------------------------------


def test_kernel_ops_under_torch_compile_fullgraph() -> None:
    from torch._dynamo.utils import counters

    ours, theirs, inputs = layer_cases("cuda", torch.float32)["rms_norm"]
    counters.clear()
    compiled = torch.compile(lambda x, w: ours(x, w).square().sum(), backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(*inputs), theirs(*inputs).square().sum(), rtol=1e-4, atol=1e-2)
    assert dict(counters["graph_break"]) == {}


def test_kernel_ops_inside_cuda_graph_capture() -> None:
    ours, theirs, inputs = layer_cases("cuda", torch.float32)["layer_norm"]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up outside the capture, as torch asks
        for _ in range(2):
            ours(*inputs)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = ours(*inputs)
    for _ in range(2):
        fresh = torch.randn_like(inputs[0])
        inputs[0].copy_(fresh)
        graph.replay()
        torch.cuda.synchronize()
        torch.testing.assert_close(out, theirs(fresh, *inputs[1:]), rtol=1e-4, atol=1e-4)


# -- gradients against torch ----------------------------------------------------------------------

def test_cross_entropy_never_waits_on_the_host() -> None:
    """The targets are checked in the kernel (a device assert), so neither the loss nor its
    gradient makes torch synchronize: a training step runs ahead of the GPU."""
    logits = torch.randn(64, VOCAB, device="cuda", requires_grad=True)
    target = torch.randint(0, VOCAB, (64,), device="cuda")
    snn.cross_entropy(logits, target).backward()  # the first launch loads the cubins
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        snn.cross_entropy(logits, target).backward()
    finally:
        torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()
    assert logits.grad is not None


LIMITS = {torch.float32: 2e-3, torch.bfloat16: 3e-2}
"""Relative error (max over the tensor, to its largest value) of each output and gradient."""


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["f32", "bf16"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax", "cross_entropy", "rms_norm", "layer_norm", "matmul",
                                  "attention", "attention_causal"])
def test_gradients_match_torch(name: str, dtype: Any) -> None:
    ours, theirs, inputs = layer_cases("cuda", dtype)[name]
    out, grads = forward_backward(ours, inputs)
    dy = torch.randn_like(out) if out.dim() else None
    out, grads = forward_backward(ours, inputs, dy)
    # torch's reference in f32 from the same (rounded) inputs
    want, want_grads = forward_backward(theirs, [x.float() if x.is_floating_point() else x for x in inputs],
                                        None if dy is None else dy.float())
    limit = LIMITS[dtype] * (3 if name.startswith("attention") or name == "matmul" else 1)
    assert relative_error(out, want) < limit, f"{name} output"
    for k, (got, expected) in enumerate(zip(grads, want_grads, strict=True)):
        assert got.dtype == dtype
        assert relative_error(got, expected) < limit, f"{name} gradient {k}"
