# The launch ABI: per tensor (ptr, shape..., strides...) as i32, then scalars;
# argument facts from st.TensorSpec become assumes and static unit strides.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f16, f32

# No spec: no facts, every stride dynamic; shapes are still non-negative.
# CHECK-LABEL: entry @add_128(%z: tile<ptr<f32>>, %z_shape0: tile<i32>, %z_stride0: tile<i32>, %x: tile<ptr<f32>>, %x_shape0: tile<i32>, %x_stride0: tile<i32>, %n: tile<i32>, %alpha: tile<f32>)
# CHECK: %[[ZN:.+]] = assume bounded<0, ?>, %z_shape0 : tile<i32>
# CHECK-NEXT: %[[ZV:.+]] = make_tensor_view %z, shape = [%[[ZN]]], strides = [%z_stride0] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 128>} : tile<i32> -> tensor_view<?xf32, strides=[?]>
# CHECK-NEXT: make_partition_view %[[ZV]] : partition_view<tile=(128), tensor_view<?xf32, strides=[?]>>
# CHECK: make_tensor_view %x, shape = [%{{.+}}], strides = [%x_stride0] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[?]>

# A contiguous, aligned 2-d operand of 16-divisible extents: the base and the
# dynamic extents and strides get div_by<16>, the unit stride is static.
# CHECK-LABEL: entry @copy_f16_64(
# CHECK: %[[P:.+]] = assume div_by<16>, %x : tile<ptr<f16>>
# CHECK-NEXT: %[[M0:.+]] = assume bounded<0, ?>, %x_shape0 : tile<i32>
# CHECK-NEXT: %[[M:.+]] = assume div_by<16>, %[[M0]] : tile<i32>
# CHECK-NEXT: %[[N0:.+]] = assume bounded<0, ?>, %x_shape1 : tile<i32>
# CHECK-NEXT: %[[N:.+]] = assume div_by<16>, %[[N0]] : tile<i32>
# CHECK-NEXT: %[[S:.+]] = assume div_by<16>, %x_stride0 : tile<i32>
# CHECK-NEXT: make_tensor_view %[[P]], shape = [%[[M]], %[[N]]], strides = [%[[S]], 1] {{.*}} : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>

# An odd extent is only bounded; a static dimension is a constant of the view.
# CHECK-LABEL: entry @copy_f16_64_2(
# CHECK: %[[Q:.+]] = assume div_by<16>, %x : tile<ptr<f16>>
# CHECK-NEXT: %[[R0:.+]] = assume bounded<0, ?>, %x_shape0 : tile<i32>
# CHECK-NEXT: %[[R:.+]] = assume div_by<16>, %[[R0]] : tile<i32>
# CHECK-NEXT: %[[C:.+]] = assume bounded<0, ?>, %x_shape1 : tile<i32>
# CHECK-NEXT: make_tensor_view %[[Q]], shape = [%[[R]], %[[C]]], strides = [%x_stride0, 1] {{.*}} -> tensor_view<?x?xf16, strides=[?,1]>

# Facts off (arg_facts=False): nothing assumed, nothing static.
# CHECK-LABEL: entry @nofacts_64(
# CHECK-NOT: assume
# CHECK: make_tensor_view %x, shape = [%x_shape0, 64], strides = [%x_stride0, %x_stride1] {{.*}} -> tensor_view<?x64xf32, strides=[?,?]>
# CHECK-NOT: assume
# CHECK: return


@st.kernel(specialize=[dict(S=(128,))])
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], n: st.i32, alpha: f32, *, S: st.Shape):
    z.store(alpha * st.load_tile_like(x, z))


@st.kernel(
    specialize=[
        dict(E=f16, B=64, x=st.TensorSpec(f16, (4096, 1024))),
        dict(E=f16, B=64, x=st.TensorSpec(f16, (4096, 1000))),
    ]
)
def copy(z: st.Mut["E", ("B", "B")], x: st.Ref["E", (-1, -1)], *, E: st.DType, B: int):
    z.store(st.load_tile_like(x, z))


@st.kernel(arg_facts=False, specialize=[dict(N=64, x=st.TensorSpec(f32, (1024, 64)))])
def nofacts(z: st.Mut[f32, (16, "N")], x: st.Ref[f32, (-1, "N")], *, N: int):
    z.store(st.load_tile_like(x, z))
