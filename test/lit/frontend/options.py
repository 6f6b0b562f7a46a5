# Kernel options are visible in the IR: optimization hints on the entry,
# unchecked_accesses and deny_in_kernel_checks as tile_safety entry marks.
# RUN: %opt %s | filecheck %s
# RUN: not %opt %s -p lower-tile-safety 2>&1 | filecheck %s --check-prefix=LOWERED
import safetile as st
from safetile import f32


@st.kernel(
    optimization_hints={"sm_90": {"num_cta_in_cga": 2}, "sm_100": {"occupancy": 2}},
    specialize=[dict()],
)
def hinted(z: st.Mut[f32, (16,)]):
    z.store(0.0)


# CHECK-LABEL: entry @hinted(%z: tile<ptr<f32>>, %z_shape0: tile<i32>, %z_stride0: tile<i32>) optimization_hints=<sm_100 = {occupancy = 2}, sm_90 = {num_cta_in_cga = 2}> {


@st.kernel(deny_in_kernel_checks=True, specialize=[dict()])
def denied(z: st.Mut[f32, (16,)]):
    z.store(1.0)


# CHECK-LABEL: entry @denied(
# CHECK: tile_safety.check_index
# CHECK: } {tile_safety.deny_in_kernel_checks}
# Lowering the check to an in-kernel assert is refused.
# LOWERED: error: {{.*}}options.py:[[# @LINE - 7]]:5: z.store: this index check needs an in-kernel assert, but @denied is compiled with deny_in_kernel_checks


@st.kernel(unchecked_accesses=True, deny_in_kernel_checks=True, specialize=[dict()])
def trusted(z: st.Mut[f32, (16,)]):
    z.store(2.0)


# CHECK-LABEL: entry @trusted(
# CHECK: check_index
# CHECK: } {tile_safety.unchecked_accesses, tile_safety.deny_in_kernel_checks}
