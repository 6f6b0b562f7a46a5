// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per rule of the 13.5 ops and the ptr_attr, each in the words
// 13.5.37's tileirdisasm reports for the same IR (docs/bytecode.md).

// The view's base pointer must be multicast (found through make_tensor_view).
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <unicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <unicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op expected a multicast pointer, but got unicast}}
    %t = multimem_store_view_tko weak %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op expected a multicast pointer, but got unicast

// -----

// A pointer without ptr_attr is not multicast.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32>> -> tensor_view<128xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op expected a multicast pointer, but got none}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op expected a multicast pointer, but got none

// -----

// A view not made here (a kernel's view type) says it in its tensor_view type.
cuda_tile.module @m {
  entry @e(%tv: tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<none>>, %i: tile<i32>) {
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<none>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op requires multicast ptr_attr, got #cuda_tile.ptr_attr<none>}}
    %t = multimem_store_view_tko weak %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<none>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op requires multicast ptr_attr, got #cuda_tile.ptr_attr<none>

// -----

// Only partition views (checked after the pointer).
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_strided_view %tv : strided_view<tile=(64), traversal_strides=[1], tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_reduce_view_tko' op multimem view operations support only partition_view; got '!cuda_tile.strided_view<tile=(64), traversal_strides=[1], tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>'}}
    %t = multimem_reduce_view_tko relaxed device %pv, %c[%i] : strided_view<tile=(64), traversal_strides=[1], tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_reduce_view_tko' op multimem view operations support only partition_view; got '!cuda_tile.strided_view<tile=(64), traversal_strides=[1], tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>'

// -----

// Integers are 32 or 64 bits wide (checked before the pointer).
cuda_tile.module @m {
  entry @e(%x: tile<ptr<i8, <none>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<i8, <none>>> -> tensor_view<128xi8, strides=[1], #cuda_tile.ptr_attr<none>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xi8, strides=[1], #cuda_tile.ptr_attr<none>>>
    %c = constant <i8: 0> : tile<64xi8>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op multimem requires 32- or 64-bit integer/index element types; got 8 bits}}
    %t = multimem_store_view_tko weak %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xi8, strides=[1], #cuda_tile.ptr_attr<none>>>, tile<64xi8>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op multimem requires 32- or 64-bit integer/index element types; got 8 bits

// -----

// Floats are f16, bf16, f32 or f64.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<tf32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<tf32, <multicast>>> -> tensor_view<128xtf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xtf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <tf32: 0.0> : tile<64xtf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op multimem supports only f16, bf16, f32, and f64 floating-point element types}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] : partition_view<tile=(64), tensor_view<128xtf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xtf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op multimem supports only f16, bf16, f32, and f64 floating-point element types

// -----

// A float tile fills whole 4-byte words.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f16, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f16, <multicast>>> -> tensor_view<128xf16, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<128xf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f16: 0.0> : tile<1xf16>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op multimem op requires tile total size to be a multiple of 4 bytes for float element types; got 1 element(s) of 16 bits (total 16 bits)}}
    %t = multimem_store_view_tko weak %pv, %c[%i] : partition_view<tile=(1), tensor_view<128xf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<1xf16>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op multimem op requires tile total size to be a multiple of 4 bytes for float element types; got 1 element(s) of 16 bits (total 16 bits)

// -----

// An f16/bf16 view has exactly one unit stride.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<bf16, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [64,64], strides = [1,1] : tile<ptr<bf16, <multicast>>> -> tensor_view<64x64xbf16, strides=[1,1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(8x8), tensor_view<64x64xbf16, strides=[1,1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <bf16: 0.0> : tile<8x8xbf16>
    // expected-error@+1 {{'cuda_tile.multimem_reduce_view_tko' op f16/bf16 multimem views must have exactly one element stride statically known to equal 1; got 2}}
    %t = multimem_reduce_view_tko relaxed device %pv, %c[%i, %i] : partition_view<tile=(8x8), tensor_view<64x64xbf16, strides=[1,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xbf16>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_reduce_view_tko' op f16/bf16 multimem views must have exactly one element stride statically known to equal 1; got 2

// -----

// Bitwise and unsigned reductions need integers.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op and/or/xor/umin/umax reductions require integer element types}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] attributes {reduction = #cuda_tile.multimem_reduction_kind<umin>} : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op and/or/xor/umin/umax reductions require integer element types

// -----

// multimem_reduce_view_tko adds floats only.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f64, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f64, <multicast>>> -> tensor_view<128xf64, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf64, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f64: 0.0> : tile<64xf64>
    // expected-error@+1 {{'cuda_tile.multimem_reduce_view_tko' op supports only add for floating-point element types}}
    %t = multimem_reduce_view_tko relaxed device %pv, %c[%i] attributes {reduction = #cuda_tile.multimem_reduction_kind<max>} : partition_view<tile=(64), tensor_view<128xf64, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf64>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_reduce_view_tko' op supports only add for floating-point element types

// -----

// multimem_load_reduce_view_tko takes min/max of f16 and bf16 only.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op min/max supports f16 and bf16 float types only; got 'f32'}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] attributes {reduction = #cuda_tile.multimem_reduction_kind<min>} : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op min/max supports f16 and bf16 float types only; got 'f32'

// -----

// multimem_reduce_view_tko is relaxed or release.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_reduce_view_tko' op memory ordering semantics must be one of: relaxed, release}}
    %t = multimem_reduce_view_tko acquire device %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_reduce_view_tko' op memory ordering semantics must be one of: relaxed, release

// -----

// multimem_reduce_view_tko always has a scope.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_reduce_view_tko' op requires attribute 'memory_scope'}}
    %t = multimem_reduce_view_tko relaxed %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_reduce_view_tko' op requires attribute 'memory_scope'

// -----

// The store's orderings are a store's.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op expect one of: weak, relaxed, or release, but got: acquire}}
    %t = multimem_store_view_tko acquire device %pv, %c[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op expect one of: weak, relaxed, or release, but got: acquire

// -----

// A relaxed load-reduce names a scope.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op memory scope is required for relaxed load}}
    %v, %t = multimem_load_reduce_view_tko relaxed %pv[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op memory scope is required for relaxed load

// -----

// One index per view dimension.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op expected 1 index operands (based on view type), got 2}}
    %t = multimem_store_view_tko weak %pv, %c[%i, %i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op expected 1 index operands (based on view type), got 2

// -----

// The tile is the view's tile.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_load_reduce_view_tko' op expected tile type to be '!cuda_tile.tile<64xf32>' (based on view type), got '!cuda_tile.tile<32xf32>'}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_load_reduce_view_tko' op expected tile type to be '!cuda_tile.tile<64xf32>' (based on view type), got '!cuda_tile.tile<32xf32>'

// -----

// One inbounds flag per index.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.multimem_store_view_tko' op inbounds size (2) must match the number of index dimensions (1)}}
    %t = multimem_store_view_tko weak %pv, %c[%i] inbounds = [true, true] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.multimem_store_view_tko' op inbounds size (2) must match the number of index dimensions (1)

// -----

// The input token's type ends the type list.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    %tok = make_token : token
    // expected-error@+1 {{expected the input token's type, 'token', last}}
    %t = multimem_store_view_tko weak %pv, %c[%i] token = %tok : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.multimem_store_view_tko' expected the input token's type, 'token', last

// -----

// make_tensor_view keeps its base pointer's ptr_attr.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op tensor_view must preserve ptr_attr from base pointer (#cuda_tile.ptr_attr<multicast>)}}
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op tensor_view must preserve ptr_attr from base pointer (#cuda_tile.ptr_attr<multicast>)

// -----

// A pointer without ptr_attr makes a view without.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op pointer base without ptr_attr cannot produce tensor_view with ptr_attr}}
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<none>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op pointer base without ptr_attr cannot produce tensor_view with ptr_attr

// -----

// The two ptr_attrs agree.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <unicast>>>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op ptr_attr mismatch between base pointer (#cuda_tile.ptr_attr<unicast>) and result tensor_view (#cuda_tile.ptr_attr<multicast>)}}
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <unicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op ptr_attr mismatch between base pointer (#cuda_tile.ptr_attr<unicast>) and result tensor_view (#cuda_tile.ptr_attr<multicast>)

// -----

// Plain view accesses refuse a multicast view.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.load_view_tko' op multicast ptr_attr is not allowed}}
    %v, %t = load_view_tko weak %pv[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op multicast ptr_attr is not allowed

// -----

// So does store_view_tko.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.store_view_tko' op multicast ptr_attr is not allowed}}
    %t = store_view_tko weak %c, %pv[%i] : tile<64xf32>, partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op multicast ptr_attr is not allowed

// -----

// And atomic_red_view_tko.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op multicast ptr_attr is not allowed}}
    %t = atomic_red_view_tko relaxed device %pv[%i], addf, %c : tile<64xf32>, partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op multicast ptr_attr is not allowed

// -----

// Pointer loads refuse a multicast pointer.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>) {
    %f = constant <f32: 0.0> : tile<f32>
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op multicast pointer is not allowed}}
    %v, %t = load_ptr_tko weak %x : tile<ptr<f32, <multicast>>> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op multicast pointer is not allowed

// -----

// Pointer stores too.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>) {
    %f = constant <f32: 0.0> : tile<f32>
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op multicast pointer is not allowed}}
    %t = store_ptr_tko weak %x, %f : tile<ptr<f32, <multicast>>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op multicast pointer is not allowed

// -----

// atomic_rmw_tko has its own words.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>) {
    %f = constant <f32: 0.0> : tile<f32>
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op multicast pointer is not supported for atomic_rmw}}
    %v, %t = atomic_rmw_tko relaxed device %x, addf, %f : tile<ptr<f32, <multicast>>>, tile<f32> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op multicast pointer is not supported for atomic_rmw

// -----

// So has atomic_cas_tko.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>) {
    %f = constant <f32: 0.0> : tile<f32>
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op multicast pointer is not supported for atomic_cas}}
    %v, %t = atomic_cas_tko relaxed device %x, %f, %f : tile<ptr<f32, <multicast>>>, tile<f32> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op multicast pointer is not supported for atomic_cas

// -----

// A ptr_attr is one of none, unicast, multicast.
cuda_tile.module @m {
  // expected-error@+1 {{expected `none`, `unicast`, or `multicast`.}}
  entry @e(%x: tile<ptr<f32, <broadcast>>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected `none`, `unicast`, or `multicast`.

// -----

// A reduction kind is one of the eight.
cuda_tile.module @m {
  entry @e(%x: tile<ptr<f32, <multicast>>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %c = constant <f32: 0.0> : tile<64xf32>
    // expected-error@+1 {{expected `add`, `min`, `max`, `and`, `or`, `xor`, `umin`, or `umax`.}}
    %v, %t = multimem_load_reduce_view_tko weak %pv[%i] attributes {reduction = #cuda_tile.multimem_reduction_kind<mul>} : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.multimem_load_reduce_view_tko' expected `add`, `min`, `max`, `and`, `or`, `xor`, `umin`, or `umax`.
