"""The launch seam (``runtime/launch.py``, ``runtime/backend.py``): the backend notice comes with
the first kernel launch (once a process), and a plan's parameters are laid out as the compiled variant's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import safetile as st
from safetile import f32, i32

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys, safetile as st
z = st.zeros(8).sync()
print(z.numpy().sum(), file=sys.stderr)
print("allocated", file=sys.stderr, flush=True)
@st.kernel
def copy(z: st.Mut[st.f32, "S"], x: st.Ref[st.f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z))
for _ in range(2):
    copy(st.zeros(8).sync().partition((8,)), st.ones(8).sync()).sync()
print("done")
"""


def test_the_backend_notice_comes_with_the_first_launch_not_the_first_allocation_and_once(tmp_path: Path) -> None:
    """A fresh process (the notice is said once a process): allocations and a host read say
    nothing; the first launch says which backend runs kernels; the second says nothing."""
    script = tmp_path / "notice.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "SAFETILE_BACKEND": "cpu"}
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == ["0.0", "allocated", "safetile: running kernels on the CPU interpreter (SAFETILE_BACKEND=cpu)"]


@st.kernel
def mixed(z: st.Mut[f32, (8, 8)], a: i32, x: st.Ref[f32, (-1, -1)], p: st.Ptr[f32], b: f32):
    with st.unsafe():
        v = st.load_ptr(st.offset(p, st.iota((8,))))
    z.store(st.load_tile_like(x, z) + st.broadcast_scalar(b + a.astype(f32), (8, 8)) + v.reshape((1, 8)))


def test_a_plans_parameters_are_the_compiled_variants_in_order() -> None:
    x = st.from_numpy(np.arange(16 * 24, dtype=np.float32).reshape(16, 24)).sync()
    z = st.zeros((16, 24)).sync().partition((8, 8))
    p = st.unsafe_pointer(st.ones((8,)).sync())
    z, a, x, p, b = mixed(z, 3, x, p, 0.5).sync()
    (plan,) = mixed.launch_cache.plans.values()
    compiled = mixed.compile_variant(**{"x": st.TensorSpec(f32, (16, 24), (24, 1))})
    names = [e.name for e in compiled.params]
    template = plan.launcher.params
    assert len(template.values) == len(names)
    fixed = {name: value for name, value in zip(names, template.values) if value is not None}
    assert fixed == {"z.shape[0]": 16, "z.shape[1]": 24, "z.stride[0]": 24, "z.stride[1]": 1,
                     "x.shape[0]": 16, "x.shape[1]": 24, "x.stride[0]": 24, "x.stride[1]": 1}
    assert [names[slot] for slot, _ in template.storage_slots] == ["z", "x", "p"]
    assert [names[slot] for slot, _ in template.scalar_slots] == ["a", "b"]
    expected = np.arange(16 * 24, dtype=np.float32).reshape(16, 24) + 3.5 + 1.0
    np.testing.assert_array_equal(z.unpartition().numpy(), expected)
