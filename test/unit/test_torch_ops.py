"""The torch edge's custom ops (``safetile.runtime.torch.kernel_op``) on CPU tensors.

A kernel registered with its recipe runs eagerly and under
``torch.compile(fullgraph=True)`` as one op of the graph (no graph break,
counted by ``torch._dynamo``), its fake implementation giving the output
spec; a kernel that cannot compile for the traced facts fails while tracing,
naming the kernel's line; a recipe that breaks the contract is named.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it


import safetile as st  # noqa: E402
from safetile.nn import kernels as K  # noqa: E402
from safetile.runtime.torch import KernelLaunch, OutputSpec, accumulator, kernel_op  # noqa: E402


@kernel_op("safetile_test::scaled_softmax")
def scaled_softmax(x: torch.Tensor, rows: int) -> KernelLaunch:
    """softmax_forward with ``rows`` rows a block and a 16-wide tile (rows up to 16 wide)."""
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(x.shape), x.dtype, (rows, 16))], [x],
                        {"A": accumulator(x.dtype)})


@kernel_op("safetile_test::narrow_softmax")
def narrow_softmax(x: torch.Tensor) -> KernelLaunch:
    """A recipe whose tile is narrower than the rows: the kernel's assert refuses the variant."""
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(x.shape), x.dtype, (1, 4))], [x],
                        {"A": accumulator(x.dtype)})


@kernel_op("safetile_test::bad_recipe")
def bad_recipe(x: torch.Tensor) -> KernelLaunch:
    return x  # type: ignore[return-value]


class GraphRecorder:
    """A torch.compile backend that keeps the traced graphs and runs them as traced."""

    def __init__(self) -> None:
        self.graphs: list[torch.fx.GraphModule] = []

    def __call__(self, gm: torch.fx.GraphModule, _inputs: list[torch.Tensor]) -> torch.fx.GraphModule:
        self.graphs.append(gm)
        return gm


def test_the_op_runs_eagerly_torch_in_torch_out() -> None:
    x = torch.randn(6, 10, dtype=torch.float64)
    y = scaled_softmax(x, 4)
    assert isinstance(y, torch.Tensor) and y.shape == x.shape and y.dtype == x.dtype
    torch.testing.assert_close(y, torch.softmax(x, 1))


def test_the_op_is_one_node_of_a_fullgraph_compile() -> None:
    from torch._dynamo.utils import counters  # here, not at collection: dynamo's import is 1.2 CPU-s a worker

    counters.clear()
    recorder = GraphRecorder()
    model = torch.compile(lambda x: scaled_softmax(x * 2, 2) + 1, backend=recorder, fullgraph=True)
    x = torch.randn(5, 12)
    torch.testing.assert_close(model(x), torch.softmax(x * 2, 1) + 1)
    assert dict(counters["graph_break"]) == {}
    assert len(recorder.graphs) == 1
    targets = [node.target for node in recorder.graphs[0].graph.nodes if node.op == "call_function"]
    assert torch.ops.safetile_test.scaled_softmax.default in targets


def test_the_fake_implementation_gives_the_output_spec() -> None:
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(7, 9, dtype=torch.float32)
        y = scaled_softmax(x, 4)
    assert tuple(y.shape) == (7, 9) and y.dtype == torch.float32
    torch.library.opcheck(scaled_softmax, (torch.randn(3, 5, dtype=torch.float64), 2))


def test_a_kernel_that_cannot_compile_fails_while_tracing_naming_its_line() -> None:
    model = torch.compile(narrow_softmax, backend="eager", fullgraph=True)
    with pytest.raises(Exception) as caught:
        model(torch.randn(2, 10))
    message = str(caught.value)
    assert "kernels.py:" in message and "softmax_forward holds a whole row in one tile" in message


def test_the_same_kernel_error_eagerly() -> None:
    with pytest.raises(st.CompileError, match="softmax_forward holds a whole row in one tile"):
        narrow_softmax(torch.randn(2, 10))


def test_a_recipe_returning_no_launch_is_named() -> None:
    with pytest.raises(TypeError, match="recipe of custom op 'safetile_test::bad_recipe' must return a KernelLaunch"):
        bad_recipe(torch.randn(2, 3))


def test_an_unsupported_dtype_is_named() -> None:
    with pytest.raises(ValueError, match="safetile kernels take no torch.complex64 tensors"):
        scaled_softmax(torch.randn(2, 3, dtype=torch.complex64), 2)


def test_dynamic_shapes_trace_and_run() -> None:
    import safetile.nn as nn

    from torch._dynamo.utils import counters  # here, not at collection: dynamo's import is 1.2 CPU-s a worker

    counters.clear()
    model = torch.compile(nn.softmax, backend="aot_eager", dynamic=True, fullgraph=True)
    for rows, width in [(3, 10), (5, 12), (4, 20)]:
        x = torch.randn(rows, width)
        torch.testing.assert_close(model(x), torch.softmax(x, -1))
    assert dict(counters["graph_break"]) == {}


def test_the_facade_names_the_torch_edge_lazily() -> None:
    import safetile.nn
    import safetile.runtime.torch as edge

    assert (st.kernel_op, st.KernelLaunch, st.OutputSpec) == (edge.kernel_op, edge.KernelLaunch, edge.OutputSpec)
    assert st.nn is safetile.nn
    assert not {"kernel_op", "KernelLaunch", "OutputSpec", "nn"} & set(st.__all__)  # import * needs no torch


def test_tracing_on_meta_tensors_specializes_each_kernel_as_its_real_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The GPU cache build (test/gpu/build_torch_cache.py) compiles what forward and backward on meta tensors
    specialize; that must be every variant the real launches compile, or the GPU run misses cubins."""
    import sys

    import safetile.nn as snn
    from safetile.runtime.torch import custom_op

    launch_module = sys.modules["safetile.runtime.launch"]  # ``safetile.runtime.launch`` is the function
    traced: set[str] = set()
    specialize = custom_op._specialize

    def recording(launch: KernelLaunch) -> object:
        variant = specialize(launch)
        traced.add(launch.kernel.symbol(variant))
        return variant

    launched: set[str] = set()
    compile_variant = launch_module.compile_variant

    def compiling(kernel: object, variant: object, *args: object, **kwargs: object) -> object:
        launched.add(kernel.symbol(variant))  # type: ignore[attr-defined]
        return compile_variant(kernel, variant, *args, **kwargs)

    monkeypatch.setattr(custom_op, "_specialize", recording)
    monkeypatch.setattr(launch_module, "compile_variant", compiling)

    def step(device: str) -> None:
        # sizes no other test uses: the real launches make new plans (and so compile)
        x = torch.randn(7, 19, dtype=torch.float64).to(device).requires_grad_()
        w = torch.rand(19, dtype=torch.float64).to(device).requires_grad_()
        target = torch.tensor([0, 3, 18, 5, 5, 1, 2]).to(device)
        loss = snn.cross_entropy(snn.rms_norm(snn.softmax(x), w), target)
        loss.backward()

    step("meta")
    assert traced, "the fake implementations ran"
    step("cpu")
    assert launched == traced


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls = [0]
    original = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@kernel_op("safetile_test::warm_softmax")
def warm_softmax(x: torch.Tensor) -> KernelLaunch:
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(x.shape), x.dtype, (2, 16))], [x],
                        {"A": accumulator(x.dtype)})


def test_a_signature_seen_before_takes_the_warm_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first call of a signature launches through ``launch`` (handles, every check) and
    # remembers the plan; a later one hands storages to the plan's launcher: no handles made,
    # no launch.  The host cost of a kernel op in a training step is this path's.
    from safetile.runtime.torch import custom_op

    shares = _count_calls(monkeypatch, custom_op, "share_torch")
    x = torch.randn(6, 10, dtype=torch.float64)
    torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    assert shares[0] == 2  # the output and x
    for _ in range(3):
        x = torch.randn(6, 10, dtype=torch.float64)  # other memory, the same signature
        torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    assert shares[0] == 2
    # another shape is another signature: through launch again (its checks, its plan)
    torch.testing.assert_close(warm_softmax(x[:5]), torch.softmax(x[:5], 1))
    assert shares[0] == 4


def test_the_warm_path_still_refuses_an_output_over_an_input(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the addresses decide is checked every call, warm or not.
    from safetile.runtime.torch import custom_op

    x = torch.randn(4, 16)
    warm_softmax(x)
    fresh = torch.empty

    def over_the_input(*args: object, **kwargs: object) -> torch.Tensor:
        return x if args == (tuple(x.shape),) else fresh(*args, **kwargs)

    monkeypatch.setattr(custom_op.torch, "empty", over_the_input)
    with pytest.raises(st.LaunchRefused, match="mutable output 'y' .* overlaps the memory of argument 'x'"):
        warm_softmax(x)


def test_a_warm_signature_lets_no_other_shape_or_dtype_through() -> None:
    # A call whose shape or element type differs from a warm signature's is another signature: it
    # runs the first call's path, every check, and is refused with the error a cold call gets.
    x = torch.randn(4, 16)
    for _ in range(2):  # the signature's first call, then a warm one
        torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    with pytest.raises(ValueError, match="custom op 'safetile_test::warm_softmax': safetile kernels take no "
                                         "torch.complex64 tensors"):
        warm_softmax(torch.randn(4, 16, dtype=torch.complex64))
    with pytest.raises(st.CompileError, match="softmax_forward holds a whole row in one tile"):
        warm_softmax(torch.randn(4, 20))  # rows wider than the recipe's 16-wide tile
    torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))  # the warm signature is unharmed


def test_the_op_dispatches_to_its_own_cpu_and_cuda_kernels() -> None:
    # custom_op's CompositeExplicitAutograd kernel (``backend_impl``) wraps each call in Python that
    # checks no output aliases an input; kernel_op registers the real implementation for the CPU and
    # CUDA keys, which the dispatcher takes first (its outputs are new tensors: never an alias).
    for key in ("CPU", "CUDA"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key("safetile_test::warm_softmax", key), key
    x = torch.randn(6, 10, dtype=torch.float64)
    torch.testing.assert_close(torch.ops.safetile_test.warm_softmax.default(x), torch.softmax(x, 1))


recipe_calls = [0]


@kernel_op("safetile_test::counted_softmax")
def counted_softmax(x: torch.Tensor, log: bool) -> KernelLaunch:
    recipe_calls[0] += 1
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(x.shape), x.dtype, (2, 16))], [x],
                        {"A": accumulator(x.dtype), "LOG": int(log)})


def test_a_signature_runs_its_recipe_once() -> None:
    # The recipe's launch is a function of the arguments' facts: a later call of a signature takes
    # it from the first (the tensor from the call's arguments), another signature runs the recipe.
    x = torch.randn(5, 12, dtype=torch.float64)
    before = recipe_calls[0]
    torch.testing.assert_close(counted_softmax(x, False), torch.softmax(x, 1))
    assert recipe_calls[0] == before + 1
    for _ in range(3):
        x = torch.randn(5, 12, dtype=torch.float64)
        torch.testing.assert_close(counted_softmax(x, False), torch.softmax(x, 1))
    assert recipe_calls[0] == before + 1
    torch.testing.assert_close(counted_softmax(x, True), torch.log_softmax(x, 1))  # another scalar
    torch.testing.assert_close(counted_softmax(x.t().contiguous().t(), False), torch.softmax(x, 1))  # strides
    assert recipe_calls[0] == before + 3


ROWS_A_BLOCK = {"rows": 2}
"""A module-level table ``tabled_softmax``'s recipe reads (as ``safetile.nn``'s read their tiles)."""


@kernel_op("safetile_test::tabled_softmax")
def tabled_softmax(x: torch.Tensor) -> KernelLaunch:
    recipe_calls[0] += 1
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(x.shape), x.dtype, (ROWS_A_BLOCK["rows"], 16))], [x],
                        {"A": accumulator(x.dtype)})


def test_forgetting_the_signatures_runs_each_recipe_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A table the recipe reads besides its arguments changed: a signature seen before keeps the
    # old table's launch until ``forget_signatures`` (what a benchmark trying other tiles calls).
    from safetile.runtime.torch import forget_signatures

    x = torch.randn(5, 12, dtype=torch.float64)
    tabled_softmax(x)
    before = recipe_calls[0]
    monkeypatch.setitem(ROWS_A_BLOCK, "rows", 4)
    torch.testing.assert_close(tabled_softmax(x), torch.softmax(x, 1))
    assert recipe_calls[0] == before  # warm: the old tile
    forget_signatures()
    torch.testing.assert_close(tabled_softmax(x), torch.softmax(x, 1))
    assert recipe_calls[0] == before + 1


@kernel_op("safetile_test::view_softmax")
def view_softmax(x: torch.Tensor, copy: bool) -> KernelLaunch:
    """A recipe passing the kernel a view of its argument (a tensor it made, where ``copy``)."""
    recipe_calls[0] += 1
    flat = x.reshape(-1, x.shape[-1])[1:]  # rows after the first: a view at an offset
    flat = flat.clone() if copy else flat
    return KernelLaunch(K.softmax_forward, [OutputSpec(tuple(flat.shape), x.dtype, (2, 16))], [flat],
                        {"A": accumulator(x.dtype)})


@pytest.mark.parametrize(("copy", "recipes"), [(False, 1), (True, 3)])
def test_a_recipe_passing_a_view_of_an_argument_runs_once(copy: bool, recipes: int) -> None:
    # A view inside an argument's memory is taken from the call's argument at the first call's offset
    # and layout; a tensor the recipe made is the recipe's to make again, every call.
    before = recipe_calls[0]
    for _ in range(3):
        x = torch.randn(2, 3, 10, dtype=torch.float64)
        torch.testing.assert_close(view_softmax(x, copy), torch.softmax(x, -1).reshape(6, 10)[1:])
    assert recipe_calls[0] == before + recipes


def test_a_view_reaching_past_its_argument_is_not_remembered() -> None:
    from safetile.runtime.torch import custom_op

    base = torch.randn(4, 10, dtype=torch.float64)
    x = base[:2]
    inside, past = x[1:], x.as_strided((3, 10), (10, 1))  # past: a row of base beyond x
    assert custom_op._source(inside, False, (x,)) == (0, 80)
    assert custom_op._source(past, False, (x,)) is None
    assert custom_op._source(inside.clone(), False, (x,)) is None
    # an argument off 16-byte alignment: a view's alignment would vary within its signature
    odd = base.flatten()[1:21].view(2, 10)
    assert custom_op._source(odd[1:], False, (odd,)) is None


def test_a_call_wanting_no_gradient_skips_custom_ops_python_autograd(monkeypatch: pytest.MonkeyPatch) -> None:
    # A compiled graph calls the op with grad mode off: the op's own autograd kernel calls the real
    # implementation, where custom_op's redispatched below autograd through Python (a guard entered
    # a call); a call wanting a gradient still takes custom_op's, with the registered formula.
    import safetile.nn as snn

    entered = [0]
    guard = torch._C._AutoDispatchBelowAutograd

    def counting() -> object:
        entered[0] += 1
        return guard()

    monkeypatch.setattr(torch._C, "_AutoDispatchBelowAutograd", counting)
    for key in ("AutogradCPU", "AutogradCUDA"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key("safetile_test::warm_softmax", key), key
    x = torch.randn(6, 10, dtype=torch.float64)
    with torch.no_grad():
        torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))  # grad mode on, nothing requires grad
    assert entered[0] == 0
    x.requires_grad_()
    snn.softmax(x).pow(2).sum().backward()
    assert entered[0] > 0
    torch.testing.assert_close(x.grad, torch.func.grad(lambda x: torch.softmax(x, -1).pow(2).sum())(x.detach()))


def test_a_python_mode_still_sees_the_op() -> None:
    # The direct call is taken only where the keys below autograd are a plain backend's: under a
    # Python dispatch mode (as tracing's) the op is redispatched to it.
    from torch.utils._python_dispatch import TorchDispatchMode

    class Log(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[object] = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            self.ops.append(func)
            return func(*args, **(kwargs or {}))

    x = torch.randn(6, 10, dtype=torch.float64)
    with torch.no_grad(), Log() as log:
        torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    assert torch.ops.safetile_test.warm_softmax.default in log.ops


def test_a_signature_checks_its_element_types_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The element types are part of the signature: a later call of it has the types its first call
    # checked, and checks them no more (an unsupported one is still refused: test_an_unsupported_dtype).
    from safetile.runtime.torch import custom_op

    checks = _count_calls(monkeypatch, custom_op, "safetile_dtype")
    x = torch.randn(3, 12, dtype=torch.float64)  # a signature no other test calls warm_softmax with
    torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    assert checks[0] == 2  # the output and x
    for _ in range(3):
        x = torch.randn(3, 12, dtype=torch.float64)
        torch.testing.assert_close(warm_softmax(x), torch.softmax(x, 1))
    assert checks[0] == 2


def test_a_batch_of_no_rows_launches_nothing_and_gives_torchs_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # A grid of no blocks is a LaunchError for a kernel, but an op on empty tensors is a torch op's
    # everyday case: outputs that are all empty are allocated and returned with no launch.
    import safetile.nn as nn
    from safetile.runtime.torch import custom_op

    shares = _count_calls(monkeypatch, custom_op, "share_torch")
    x = torch.randn(0, 16, dtype=torch.float64, requires_grad=True)
    w = torch.ones(16, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(16, dtype=torch.float64, requires_grad=True)
    for ours, theirs in ((nn.softmax(x), torch.softmax(x, 1)),
                         (nn.rms_norm(x, w), torch.nn.functional.rms_norm(x, (16,), w, 1e-6)),
                         (nn.layer_norm(x, w, b), torch.nn.functional.layer_norm(x, (16,), w, b))):
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    assert torch.isnan(nn.cross_entropy(x, torch.zeros(0, dtype=torch.long)))  # torch's mean of nothing
    assert shares[0] == 0


@pytest.mark.full
def test_the_norms_backward_of_no_rows_gives_zero_weight_gradients() -> None:
    # The backward has outputs to write (the weight gradients): it launches, and writes zeros.
    import safetile.nn as nn

    x = torch.randn(0, 16, dtype=torch.float64, requires_grad=True)
    w = torch.ones(16, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(16, dtype=torch.float64, requires_grad=True)
    nn.layer_norm(x, w, b).sum().backward()
    assert x.grad is not None and x.grad.shape == (0, 16)
    assert w.grad is not None and b.grad is not None and not w.grad.any() and not b.grad.any()
