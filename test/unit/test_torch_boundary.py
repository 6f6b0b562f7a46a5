"""torch tensors at the launch boundary, without wrappers (CPU tensors on the interpreter).

A torch tensor passes where a safetile tensor does: an ``st.Ref`` input as it
is, an output partitioned by its tile's generics given at the call; the
launch checks them as any other (overlaps refused, nothing changed by a
refusal) and gives the torch tensors back (torch in, torch out).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it

import safetile as st  # noqa: E402
from safetile import f32  # noqa: E402


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel
def scale(z: st.Mut["E", ("B",)], x: st.Ref["E", (-1,)], k: f32, *, E: st.DType, B: int):
    b = st.tile_block_id()[0]
    z.store(x.partition((B,), padding="zero").load((b,)) * k.astype(E))


def test_torch_in_torch_out() -> None:
    x, y, z = torch.arange(10.0), torch.ones(10), torch.zeros(10)
    for _ in range(2):  # the second launch: the kernel has a plan for safetile handles of these shapes
        back = add(z, x, y, S=(4,)).sync()
        assert back[0] is z and back[1] is x and back[2] is y
        torch.testing.assert_close(z, x + 1)
        x += 1


def test_torch_and_safetile_arguments_mix() -> None:
    x, z = torch.arange(8.0), torch.zeros(8)
    y = st.ones((8,), f32).sync()
    z_back, x_back, y_back = add(z, x, y, S=(8,)).sync()
    assert z_back is z and x_back is x and isinstance(y_back, st.Tensor)
    torch.testing.assert_close(z, x + 1)


def test_named_tile_generics_and_scalars() -> None:
    x, z = torch.randn(13, dtype=torch.float64), torch.empty(13, dtype=torch.float64)
    scale(z, x, 3.0, B=4).sync()
    torch.testing.assert_close(z, 3 * x)


def test_tensors_that_require_grad_pass_detached() -> None:
    x = torch.randn(6, requires_grad=True)
    z = torch.zeros(6)
    add(z, x, x.detach(), S=(2,)).sync()
    torch.testing.assert_close(z, 2 * x.detach())


def test_a_lazy_negative_view_is_refused_naming_the_fix() -> None:
    # its memory holds x, not the -x it shows: shared as it is, the kernel would read the wrong sign
    x = torch._neg_view(torch.arange(4.0))
    with pytest.raises(TypeError, match=r"negative or conjugate bit set .* pass x\.resolve_neg\(\)"):
        add(torch.zeros(4), x, torch.ones(4), S=(4,))
    z = torch.zeros(4)
    add(z, x.resolve_neg(), torch.ones(4), S=(4,)).sync()
    torch.testing.assert_close(z, 1 - torch.arange(4.0))


def test_a_torch_dtype_safetile_has_not_is_refused_naming_the_supported_ones() -> None:
    with pytest.raises(TypeError, match="no safetile element type for complex64 .supported: f16, bf16"):
        add(torch.zeros(4), torch.ones(4, dtype=torch.complex64), torch.ones(4), S=(4,))


@pytest.mark.parametrize("view", ["same", "overlapping"])
def test_an_output_overlapping_an_input_is_refused_and_nothing_changes(view: str) -> None:
    base = torch.arange(12.0)
    before = base.clone()
    z, x = (base, base) if view == "same" else (base[:8], base[4:])
    with pytest.raises(st.LaunchRefused, match="mutable output 'z' .* overlaps the memory of argument 'x'"):
        add(z, x, torch.ones(8 if view != "same" else 12), S=(4,))
    torch.testing.assert_close(base, before)


def test_an_output_without_its_tile_is_refused_naming_the_fix() -> None:
    with pytest.raises(st.LaunchRefused, match=r"'z' is a torch tensor for an output of tile 'S': pass S=\.\.\."):
        add(torch.zeros(4), torch.ones(4), torch.ones(4))


def test_a_torch_tensor_for_a_scalar_is_refused() -> None:
    with pytest.raises(st.LaunchRefused, match="'k' is a scalar parameter: a torch tensor passes only for"):
        scale(torch.zeros(4), torch.ones(4), torch.tensor(2.0), B=4)
