// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the memory ops.

// make_tensor_view: a shape entry is an integer or an SSA value.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{expected either integer or SSA value}}
    %0 = make_tensor_view %p, shape = [32, abc], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' expected either integer or SSA value

// -----

// The shape written in the op has as many entries as the view type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{expected shape declaration to contain 2 elements due to tensor_view type, but 0 were provided}}
    %0 = make_tensor_view %p, shape = [], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' expected shape declaration to contain 2 elements due to tensor_view type, but 0 were provided

// -----

cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{expected stride declaration to contain 2 elements due to tensor_view type, but 0 were provided}}
    %0 = make_tensor_view %p, shape = [32, 32], strides = [] : tensor_view<32x32xf32, strides=[32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' expected stride declaration to contain 2 elements due to tensor_view type, but 0 were provided

// -----

// Each static entry equals the type's; a dynamic entry is a `?` in the type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{input shape dimension 1 does not match tensor_view type (expected 32, got 64)}}
    %0 = make_tensor_view %p, shape = [32, 64], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' input shape dimension 1 does not match tensor_view type (expected 32, got 64)

// -----

cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %n: tile<i64>) {
    // expected-error@+1 {{input stride dimension 1 does not match tensor_view type (expected 32, got dynamic)}}
    %0 = make_tensor_view %p, shape = [2, %n, 32], strides = [64, %n, 1] : tile<i64> -> tensor_view<2x?x32xf32, strides=[64,32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' input stride dimension 1 does not match tensor_view type (expected 32, got dynamic)

// -----

cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{input shape dimension 1 does not match tensor_view type (expected dynamic, got 32)}}
    %0 = make_tensor_view %p, shape = [2, 32], strides = [32, 1] : tensor_view<2x?xf32, strides=[32,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' input shape dimension 1 does not match tensor_view type (expected dynamic, got 32)

// -----

// The result type is a tensor_view.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{expected 'tensor_view' type, but got '!cuda_tile.tile<32xf32>'}}
    %0 = make_tensor_view %p, shape = [32], strides = [1] : tile<32xf32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_tensor_view' expected 'tensor_view' type, but got '!cuda_tile.tile<32xf32>'

// -----

// The base pointer's pointee is the view's element type (the parser infers the base type).
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%p' expects different type than prior uses: '!cuda_tile.tile<ptr<f64>>' vs '!cuda_tile.tile<ptr<f32>>'}}
    %0 = make_tensor_view %p, shape = [32], strides = [1] : tensor_view<32xf64, strides=[1]>
    return
  }
}
// CHECK: error: use of value '%p' expects different type than prior uses: '!cuda_tile.tile<ptr<f64>>' vs '!cuda_tile.tile<ptr<f32>>'

// -----

// RULE: make_tensor_view.pointee-type
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op expected pointer to 'f64' to build tensor_view of this type, got 'f32'}}
    %0 = "cuda_tile.make_tensor_view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.tensor_view<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op expected pointer to 'f64' to build tensor_view of this type, got 'f32'

// -----

// RULE: make_tensor_view.dynamic-shape-count
// One operand per dynamic dimension and stride.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %n: tile<i64>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op expected 0 dynamic shape operands, got 1}}
    %0 = "cuda_tile.make_tensor_view"(%p, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i64>) -> !cuda_tile.tensor_view<32xf32, strides=[1]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op expected 0 dynamic shape operands, got 1

// -----

// RULE: make_tensor_view.dynamic-stride-count
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op expected 1 dynamic stride operands, got 0}}
    %0 = "cuda_tile.make_tensor_view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.tensor_view<32xf32, strides=[?]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op expected 1 dynamic stride operands, got 0

// -----

// RULE: make_tensor_view.dynamic-shape-types
// All dynamic values have one type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %n: tile<i64>, %m: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op expected dynamic shape index 1 to be of the same type as the other dynamic values ('!cuda_tile.tile<i64>'), got '!cuda_tile.tile<i32>'}}
    %0 = "cuda_tile.make_tensor_view"(%p, %n, %m) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i64>, !cuda_tile.tile<i32>) -> !cuda_tile.tensor_view<?x?xf32, strides=[1,1]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op expected dynamic shape index 1 to be of the same type as the other dynamic values ('!cuda_tile.tile<i64>'), got '!cuda_tile.tile<i32>'

// -----

// RULE: make_tensor_view.dynamic-stride-types
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %n: tile<i64>, %m: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op expected dynamic stride index 0 to be of the same type as the other dynamic values ('!cuda_tile.tile<i64>'), got '!cuda_tile.tile<i32>'}}
    %0 = "cuda_tile.make_tensor_view"(%p, %n, %m) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i64>, !cuda_tile.tile<i32>) -> !cuda_tile.tensor_view<?xf32, strides=[?]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op expected dynamic stride index 0 to be of the same type as the other dynamic values ('!cuda_tile.tile<i64>'), got '!cuda_tile.tile<i32>'

// -----

// RULE: make_tensor_view.type-constraints
// Dynamic values are scalar integers.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.make_tensor_view' op operand #1 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = make_tensor_view %p, shape = [%x], strides = [1] : tile<f32> -> tensor_view<?xf32, strides=[1]>
    return
  }
}
// CHECK: error: 'cuda_tile.make_tensor_view' op operand #1 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// make_partition_view: the result type is a partition_view.
cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x16xf32, strides=[16,1]>) {
    // expected-error@+1 {{expected 'partition_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'}}
    %0 = make_partition_view %tv : tensor_view<16x16xf32, strides=[16,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_partition_view' expected 'partition_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'

// -----

// RULE: make_partition_view.tensor-view-type
// The operand's type is the view's tensor_view type (the parser infers it).
cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x32xf32, strides=[32,1]>) {
    // expected-error@+1 {{'cuda_tile.make_partition_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')}}
    %0 = "cuda_tile.make_partition_view"(%tv) : (!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>) -> !cuda_tile.partition_view<tile=(4x4), !cuda_tile.tensor_view<16x16xf32, strides=[16,1]>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_partition_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')

// -----

cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x16xf32, strides=[16,1]>) {
    // expected-error@+1 {{expected 'strided_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'}}
    %0 = make_strided_view %tv : tensor_view<16x16xf32, strides=[16,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_strided_view' expected 'strided_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'

// -----

// RULE: make_strided_view.tensor-view-type
cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x32xf32, strides=[32,1]>) {
    // expected-error@+1 {{'cuda_tile.make_strided_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')}}
    %0 = "cuda_tile.make_strided_view"(%tv) : (!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>) -> !cuda_tile.strided_view<tile=(4x4), traversal_strides=[4,4], !cuda_tile.tensor_view<16x16xf32, strides=[16,1]>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_strided_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')

// -----

cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x16xf32, strides=[16,1]>) {
    // expected-error@+1 {{expected 'gather_scatter_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'}}
    %0 = make_gather_scatter_view %tv : tensor_view<16x16xf32, strides=[16,1]>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.make_gather_scatter_view' expected 'gather_scatter_view' type, but got '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>'

// -----

// RULE: make_partition_view.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.make_partition_view' op operand #0 must be tensor view type, but got '!cuda_tile.tile<ptr<f32>>'}}
    %0 = "cuda_tile.make_partition_view"(%p) : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.partition_view<tile=(4), !cuda_tile.tensor_view<8xf32, strides=[1]>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_partition_view' op operand #0 must be tensor view type, but got '!cuda_tile.tile<ptr<f32>>'

// -----

// RULE: make_strided_view.type-constraints
cuda_tile.module @m {
  entry @e(%tv: tensor_view<8xf32, strides=[1]>) {
    // expected-error@+1 {{'cuda_tile.make_strided_view' op result #0 must be strided view type, but got '!cuda_tile.partition_view<tile=(4), tensor_view<8xf32, strides=[1]>>'}}
    %0 = "cuda_tile.make_strided_view"(%tv) : (!cuda_tile.tensor_view<8xf32, strides=[1]>) -> !cuda_tile.partition_view<tile=(4), !cuda_tile.tensor_view<8xf32, strides=[1]>>
    return
  }
}
// CHECK: error: 'cuda_tile.make_strided_view' op result #0 must be strided view type, but got '!cuda_tile.partition_view<tile=(4), tensor_view<8xf32, strides=[1]>>'

// -----

// RULE: make_gather_scatter_view.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.make_gather_scatter_view' op operand #0 must be tensor view type, but got '!cuda_tile.tile<ptr<f32>>'}}
    %0 = "cuda_tile.make_gather_scatter_view"(%p) : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.gather_scatter_view<tile=(4x4), !cuda_tile.tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=0>
    return
  }
}
// CHECK: error: 'cuda_tile.make_gather_scatter_view' op operand #0 must be tensor view type, but got '!cuda_tile.tile<ptr<f32>>'

// -----

// RULE: make_gather_scatter_view.tensor-view-type
cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x32xf32, strides=[32,1]>) {
    // expected-error@+1 {{'cuda_tile.make_gather_scatter_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')}}
    %0 = "cuda_tile.make_gather_scatter_view"(%tv) : (!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>) -> !cuda_tile.gather_scatter_view<tile=(4x4), !cuda_tile.tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=0>
    return
  }
}
// CHECK: error: 'cuda_tile.make_gather_scatter_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>')

// -----

cuda_tile.module @m {
  entry @e(%tv: tensor_view<16x32xf32, strides=[32,1]>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%tv' expects different type than prior uses: '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>' vs '!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>'}}
    %0 = make_partition_view %tv : partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>>
    return
  }
}
// CHECK: error: use of value '%tv' expects different type than prior uses: '!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>' vs '!cuda_tile.tensor_view<16x32xf32, strides=[32,1]>'

// -----

// get_tensor_shape: the source is a tensor_view; one result per dimension.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>) {
    // expected-error@+1 {{expected tensor_view, got '!cuda_tile.tile<ptr<i32>>'}}
    %0 = get_tensor_shape %p : tile<ptr<i32>> -> tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.get_tensor_shape' expected tensor_view, got '!cuda_tile.tile<ptr<i32>>'

// -----

// RULE: get_tensor_shape.result-count
cuda_tile.module @m {
  entry @e(%tv: tensor_view<64x64xf16, strides=[1,1]>) {
    // expected-error@+1 {{'cuda_tile.get_tensor_shape' op expected 2 results due to tensor rank, but got 3}}
    %0:3 = "cuda_tile.get_tensor_shape"(%tv) : (!cuda_tile.tensor_view<64x64xf16, strides=[1,1]>) -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>)
    return
  }
}
// CHECK: error: 'cuda_tile.get_tensor_shape' op expected 2 results due to tensor rank, but got 3

// -----

cuda_tile.module @m {
  entry @e(%tv: tensor_view<64x64xf16, strides=[1,1]>) {
    // expected-error@+1 {{operation defines 2 results but was provided 3 to bind}}
    %0:3 = get_tensor_shape %tv : tensor_view<64x64xf16, strides=[1,1]> -> tile<i32>
    return
  }
}
// CHECK: error: operation defines 2 results but was provided 3 to bind

// -----

// RULE: get_tensor_shape.type-constraints
// The results are scalar integers.
cuda_tile.module @m {
  entry @e(%tv: tensor_view<64x64xf16, strides=[1,1]>) {
    // expected-error@+1 {{'cuda_tile.get_tensor_shape' op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0:2 = get_tensor_shape %tv : tensor_view<64x64xf16, strides=[1,1]> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.get_tensor_shape' op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// get_index_space_shape: the source is a tile view; one result per index dimension.
cuda_tile.module @m {
  entry @e(%tv: tensor_view<64x64xf16, strides=[1,1]>) {
    // expected-error@+1 {{expected tile view, got '!cuda_tile.tensor_view<64x64xf16, strides=[1,1]>'}}
    %0 = get_index_space_shape %tv : tensor_view<64x64xf16, strides=[1,1]> -> tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.get_index_space_shape' expected tile view, got '!cuda_tile.tensor_view<64x64xf16, strides=[1,1]>'

// -----

// RULE: get_index_space_shape.result-count
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>) {
    // expected-error@+1 {{'cuda_tile.get_index_space_shape' op expected 2 results due to view index space rank, but got 1}}
    %0 = "cuda_tile.get_index_space_shape"(%v) : (!cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.get_index_space_shape' op expected 2 results due to view index space rank, but got 1

// -----

// load_view_tko: memory ordering and scope keywords.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{invalid memory_ordering_semantics attribute specification. Got "invalid" but expect one of: weak, relaxed, acquire, release, acq_rel}}
    %0, %1 = load_view_tko invalid %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' invalid memory_ordering_semantics attribute specification. Got "invalid" but expect one of: weak, relaxed, acquire, release, acq_rel

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{invalid memory_scope attribute specification. Got "invalid" but expect one of: tl_blk, device, sys}}
    %0, %1 = load_view_tko relaxed invalid %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' invalid memory_scope attribute specification. Got "invalid" but expect one of: tl_blk, device, sys

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{operation specifies weak memory ordering semantics, but then provides "device" scope, expected no memory scope.}}
    %0, %1 = load_view_tko weak device %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' operation specifies weak memory ordering semantics, but then provides "device" scope, expected no memory scope.

// -----

// Index types: one for all indices, or one per index.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{index types must be specified when indices are present}}
    %0, %1 = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' index types must be specified when indices are present

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{expected 2 index types, got 3}}
    %0, %1 = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32>, tile<i32>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' expected 2 index types, got 3

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{expected index type after comma}}
    %0, %1 = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_view_tko' expected index type after comma

// -----

// RULE: load_view_tko.index-count
// One index per dimension of the view's index space.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected 2 index operands (based on view type), got 1}}
    %0, %1 = load_view_tko weak %v[%i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected 2 index operands (based on view type), got 1

// -----

// RULE: load_view_tko.tile-type
// The loaded tile is the view's tile.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected tile type to be '!cuda_tile.tile<16x32xf32>' (based on view type), got '!cuda_tile.tile<8xf32>'}}
    %0, %1 = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<8xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected tile type to be '!cuda_tile.tile<16x32xf32>' (based on view type), got '!cuda_tile.tile<8xf32>'

// -----

// RULE: load_view_tko.inbounds-size
// 13.4: one inbounds flag per index.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op inbounds size (1) must match the number of index dimensions (2)}}
    %0, %1 = load_view_tko weak %v[%i, %i] inbounds = [true] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op inbounds size (1) must match the number of index dimensions (2)

// -----

// RULE: load_view_tko.memory-ordering
// Loads are weak, relaxed or acquire; only weak loads have no scope.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expect one of: weak, relaxed, or acquire, but got: release}}
    %0, %1 = load_view_tko release device %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expect one of: weak, relaxed, or acquire, but got: release

// -----

// RULE: load_view_tko.scope-required
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op memory scope is required for relaxed load}}
    %0, %1 = load_view_tko relaxed %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op memory scope is required for relaxed load

// -----

// RULE: load_view_tko.weak-no-scope
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op weak load must not have memory scope}}
    %0, %1 = "cuda_tile.load_view_tko"(%v, %i, %i) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, memory_scope = #cuda_tile.memory_scope<device>, operandSegmentSizes = array<i32: 1, 2, 0>}> : (!cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<16x32xf32>, !cuda_tile.token)
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op weak load must not have memory scope

// -----

// RULE: load_view_tko.view-type
// The view is a tile view; indices are integer tiles; the token is a token.
cuda_tile.module @m {
  testing$func @e(%x: tile<32xf32>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op operand #0 must be TileView instance, but got '!cuda_tile.tile<32xf32>'}}
    %0, %1 = load_view_tko weak %x[%i] : tile<32xf32>, tile<i32> -> tile<8xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op operand #0 must be TileView instance, but got '!cuda_tile.tile<32xf32>'

// -----

// RULE: load_view_tko.type-constraints
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op operand #1 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0, %1 = load_view_tko weak %v[%x, %x] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<f32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op operand #1 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%i' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'}}
    %0, %1 = load_view_tko weak %v[%i, %i] token = %i : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: use of value '%i' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'

// -----

// RULE: store_view_tko.memory-ordering
// store_view_tko: stores are weak, relaxed or release; only weak stores have no scope.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %x: tile<f32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expect one of: weak, relaxed, or release, but got: acquire}}
    %0 = store_view_tko acquire device %a, %v[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expect one of: weak, relaxed, or release, but got: acquire

// -----

// RULE: store_view_tko.scope-required
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{'cuda_tile.store_view_tko' op memory scope is required for release store}}
    %0 = store_view_tko release %a, %v[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op memory scope is required for release store

// -----

// RULE: store_view_tko.weak-no-scope
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{'cuda_tile.store_view_tko' op weak store must not have memory scope}}
    %0 = "cuda_tile.store_view_tko"(%a, %v, %i, %i) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, memory_scope = #cuda_tile.memory_scope<tl_blk>, operandSegmentSizes = array<i32: 1, 1, 2, 0>}> : (!cuda_tile.tile<16x32xf32>, !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op weak store must not have memory scope

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{operation specifies weak memory ordering semantics, but then provides "tl_blk" scope, expected no memory scope.}}
    %0 = store_view_tko weak tl_blk %a, %v[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.store_view_tko' operation specifies weak memory ordering semantics, but then provides "tl_blk" scope, expected no memory scope.

// -----

// RULE: store_view_tko.tile-type
// The stored tile is the view's tile; one index per dimension; one inbounds flag per index.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected tile type to be '!cuda_tile.tile<16x32xf32>' (based on view type), got '!cuda_tile.tile<f32>'}}
    %0 = store_view_tko weak %x, %v[%i, %i] : tile<f32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected tile type to be '!cuda_tile.tile<16x32xf32>' (based on view type), got '!cuda_tile.tile<f32>'

// -----

// RULE: store_view_tko.index-count
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected 2 index operands (based on view type), got 0}}
    %0 = store_view_tko weak %a, %v[] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected 2 index operands (based on view type), got 0

// -----

// RULE: store_view_tko.inbounds-size
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>) {
    %a, %t = load_view_tko weak %v[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // expected-error@+1 {{'cuda_tile.store_view_tko' op inbounds size (3) must match the number of index dimensions (2)}}
    %0 = store_view_tko weak %a, %v[%i, %i] inbounds = [true, false, true] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op inbounds size (3) must match the number of index dimensions (2)

// -----

// atomic_red_view_tko: its parser's own messages for bad keywords.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{invalid memory_ordering_semantics: 'acquire_release'; expected one of: weak, relaxed, acquire, release, acq_rel}}
    %0 = atomic_red_view_tko acquire_release device %v[%c0, %c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.atomic_red_view_tko' invalid memory_ordering_semantics: 'acquire_release'; expected one of: weak, relaxed, acquire, release, acq_rel

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{invalid memory_scope: 'cluster'; expected one of: tl_blk, device, sys}}
    %0 = atomic_red_view_tko relaxed cluster %v[%c0, %c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.atomic_red_view_tko' invalid memory_scope: 'cluster'; expected one of: tl_blk, device, sys

// -----

cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{unknown atomic RMW mode: 'nand'; expected one of: and, or, xor, add, addf, max, min, umax, umin}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], nand, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.atomic_red_view_tko' unknown atomic RMW mode: 'nand'; expected one of: and, or, xor, add, addf, max, min, umax, umin

// -----

// RULE: atomic_red_view_tko.memory-scope-required
// The scope is required.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op requires attribute 'memory_scope'}}
    %0 = atomic_red_view_tko relaxed %v[%c0, %c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op requires attribute 'memory_scope'

// -----

// RULE: atomic_red_view_tko.no-gather-scatter-view
// Partition and strided views without padding only.
cuda_tile.module @m {
  testing$func @e(%v: gather_scatter_view<tile=(16x16), tensor_view<1024x16xi32, strides=[16,1]>, sparse_dim=0>, %x: tile<16x16xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op gather_scatter_view is not supported; use partition_view instead}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], add, %x : tile<16x16xi32>, gather_scatter_view<tile=(16x16), tensor_view<1024x16xi32, strides=[16,1]>, sparse_dim=0>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op gather_scatter_view is not supported; use partition_view instead

// -----

// RULE: atomic_red_view_tko.no-padding-value
cuda_tile.module @m {
  testing$func @e(%v: strided_view<tile=(2x2), traversal_strides=[2,2], padding_value = zero, tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op views with padding_value are not supported for atomic reductions}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], add, %x : tile<2x2xi32>, strided_view<tile=(2x2), traversal_strides=[2,2], padding_value = zero, tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op views with padding_value are not supported for atomic reductions

// -----

// RULE: atomic_red_view_tko.element-types-match
// The value is a tile of the view.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xf32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op view element type ('i32') must match value element type ('f32')}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], addf, %x : tile<2x2xf32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op view element type ('i32') must match value element type ('f32')

// -----

// RULE: atomic_red_view_tko.shapes-match
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<4x4xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op view tile shape 2, 2 must match value shape 4, 4 for element-wise atomic operations}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], add, %x : tile<4x4xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op view tile shape 2, 2 must match value shape 4, 4 for element-wise atomic operations

// -----

// RULE: atomic_red_view_tko.no-xchg
// Modes: no xchg; integer modes on i32/i64, addf on f16/bf16/f32/f64.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op atomic_red_view_tko op cannot use xchg operation}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], xchg, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op atomic_red_view_tko op cannot use xchg operation

// -----

// RULE: atomic_red_view_tko.mode-integer-types
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xf32, strides=[2,1]>>, %x: tile<2x2xf32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op 'umax' works only with integers i32 and i64}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], umax, %x : tile<2x2xf32>, partition_view<tile=(2x2), tensor_view<2x2xf32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op 'umax' works only with integers i32 and i64

// -----

// RULE: atomic_red_view_tko.addf-float-types
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op 'addf' works only with floats f16, bf16, f32, and f64}}
    %0 = atomic_red_view_tko relaxed device %v[%c0, %c0], addf, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op 'addf' works only with floats f16, bf16, f32, and f64

// -----

// RULE: atomic_red_view_tko.relaxed-only
// Relaxed ordering, tl_blk or device scope.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op only 'relaxed' memory ordering is supported for view-based atomic reductions}}
    %0 = atomic_red_view_tko weak device %v[%c0, %c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op only 'relaxed' memory ordering is supported for view-based atomic reductions

// -----

// RULE: atomic_red_view_tko.no-sys-scope
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op memory scope 'sys' is not supported for view-based atomic reductions; use 'tl_blk' or 'device' for TMA compatibility}}
    %0 = atomic_red_view_tko relaxed sys %v[%c0, %c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op memory scope 'sys' is not supported for view-based atomic reductions; use 'tl_blk' or 'device' for TMA compatibility

// -----

// RULE: atomic_red_view_tko.index-count
// One scalar index per tile dimension.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op expected 2 index operand(s) for view with tile rank 2, got 1}}
    %0 = atomic_red_view_tko relaxed device %v[%c0], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op expected 2 index operand(s) for view with tile rank 2, got 1

// -----

// RULE: atomic_red_view_tko.scalar-index
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %x: tile<2x2xi32>, %tvi: tensor_view<?xi32, strides=[1]>, %c0: tile<i32>) {
    %iv = make_partition_view %tvi : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %r, %t = load_view_tko weak %iv[%c0] : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op index operand 0 must be a scalar tile (rank 0), got shape 1}}
    %0 = atomic_red_view_tko relaxed device %v[%r, %r], add, %x : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<1xi32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op index operand 0 must be a scalar tile (rank 0), got shape 1

// -----

// load_ptr_tko: the ordering keyword is one of the enum's.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'memory_ordering_semantics' [weak, relaxed, acquire, release, acq_rel]}}
    %0, %1 = load_ptr_tko seq_cst %p : tile<ptr<f32>> -> tile<f32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.load_ptr_tko' expected string or keyword containing one of the following enum values for attribute 'memory_ordering_semantics' [weak, relaxed, acquire, release, acq_rel]

// -----

// RULE: load_ptr_tko.source-points-to-result
// The source points to the result's elements, shape for shape.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type}}
    %0, %1 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type

// -----

// RULE: load_ptr_tko.source-points-to-result
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ps = broadcast %p1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type}}
    %0, %1 = load_ptr_tko weak %ps : tile<8xptr<f32>> -> tile<4xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type

// -----

// RULE: load_ptr_tko.mask-shape
// The mask has the source's shape; the padding has the result's type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    %m = constant <i1: [1, 0]> : tile<2xi1>
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op failed to verify that shape of 'mask' must match the shape of 'source'}}
    %0, %1 = load_ptr_tko weak %p, %m : tile<ptr<f32>>, tile<2xi1> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op failed to verify that shape of 'mask' must match the shape of 'source'

// -----

// RULE: load_ptr_tko.padding-type
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %m: tile<i1>, %x: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op failed to verify that type of 'paddingValue' must match the type of 'result'}}
    %0, %1 = load_ptr_tko weak %p, %m, %x : tile<ptr<f32>>, tile<i1>, tile<f16> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op failed to verify that type of 'paddingValue' must match the type of 'result'

// -----

// RULE: load_ptr_tko.memory-ordering
// Loads are weak, relaxed or acquire; only weak loads have no scope.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op expect one of: weak, relaxed, or acquire, but got: release}}
    %0, %1 = load_ptr_tko release device %p : tile<ptr<f32>> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op expect one of: weak, relaxed, or acquire, but got: release

// -----

// RULE: load_ptr_tko.weak-no-scope
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op weak load must not have memory scope}}
    %0, %1 = load_ptr_tko weak device %p : tile<ptr<f32>> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op weak load must not have memory scope

// -----

// RULE: load_ptr_tko.scope-required
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op memory scope is required for acquire load}}
    %0, %1 = load_ptr_tko acquire %p : tile<ptr<f32>> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op memory scope is required for acquire load

// -----

// RULE: load_ptr_tko.type-constraints
// Operand types (the generic form, so that the op's verifier reports them).
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op operand #1 must be tile of i1 values, but got '!cuda_tile.tile<f32>'}}
    %0, %1 = "cuda_tile.load_ptr_tko"(%p, %x) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<f32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op operand #1 must be tile of i1 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: load_ptr_tko.type-constraints
cuda_tile.module @m {
  entry @e(%x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.load_ptr_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<f32>'}}
    %0, %1 = "cuda_tile.load_ptr_tko"(%x) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (!cuda_tile.tile<f32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
    return
  }
}
// CHECK: error: 'cuda_tile.load_ptr_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: store_ptr_tko.destination-points-to-value
// store_ptr_tko: the destination points to the value's elements; the mask has its shape.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op failed to verify that `destination` type is expected a pointer type of `value` type}}
    %0 = store_ptr_tko weak %p, %x : tile<ptr<f32>>, tile<f16> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op failed to verify that `destination` type is expected a pointer type of `value` type

// -----

// RULE: store_ptr_tko.mask-shape
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    %m = constant <i1: [1, 0]> : tile<2xi1>
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op failed to verify that shape of 'destination' must match the shape of 'mask'}}
    %0 = store_ptr_tko weak %p, %x, %m : tile<ptr<f32>>, tile<f32>, tile<2xi1> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op failed to verify that shape of 'destination' must match the shape of 'mask'

// -----

// RULE: store_ptr_tko.memory-ordering
// Stores are weak, relaxed or release; only weak stores have no scope.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op expect one of: weak, relaxed, or release, but got: acquire}}
    %0 = store_ptr_tko acquire device %p, %x : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op expect one of: weak, relaxed, or release, but got: acquire

// -----

// RULE: store_ptr_tko.weak-no-scope
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op weak store must not have memory scope}}
    %0 = store_ptr_tko weak sys %p, %x : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op weak store must not have memory scope

// -----

// RULE: store_ptr_tko.scope-required
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op memory scope is required for relaxed store}}
    %0 = store_ptr_tko relaxed %p, %x : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op memory scope is required for relaxed store

// -----

// atomic_cas_tko: the scope is required.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'memory_scope' [tl_blk, device, sys]}}
    %0, %1 = atomic_cas_tko relaxed %p, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.atomic_cas_tko' expected string or keyword containing one of the following enum values for attribute 'memory_scope' [tl_blk, device, sys]

// -----

// RULE: atomic_cas_tko.all-shapes-match
// Pointers, cmp, val and result have one shape; cmp, val and result one type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    %v = iota : tile<4xi32>
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, cmp, val, result} have same shape}}
    %0, %1 = atomic_cas_tko relaxed device %p, %v, %v : tile<ptr<i32>>, tile<4xi32> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, cmp, val, result} have same shape

// -----

// RULE: atomic_cas_tko.all-types-match
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op failed to verify that all of {cmp, val, result} have same type}}
    %0, %1 = atomic_cas_tko relaxed device %p, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i64>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op failed to verify that all of {cmp, val, result} have same type

// -----

// RULE: atomic_cas_tko.pointee-matches-val
// The pointee is val's element type: a 32- or 64-bit integer or float.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op expected pointee type ('f32') to match element type of 'val' ('i32')}}
    %0, %1 = atomic_cas_tko relaxed device %p, %i, %i : tile<ptr<f32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op expected pointee type ('f32') to match element type of 'val' ('i32')

// -----

// RULE: atomic_cas_tko.32-or-64-bit
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i8>>, %i: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit}}
    %0, %1 = atomic_cas_tko relaxed device %p, %i, %i : tile<ptr<i8>>, tile<i8> -> tile<i8>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit

// -----

// RULE: atomic_cas_tko.all-shapes-match
// The mask has val's shape.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    %m = constant <i1: [1, 0]> : tile<2xi1>
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, val, cmp and mask} have same shape}}
    %0, %1 = atomic_cas_tko relaxed device %p, %i, %i, %m : tile<ptr<i32>>, tile<i32>, tile<2xi1> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, val, cmp and mask} have same shape

// -----

// RULE: atomic_cas_tko.memory-ordering
// Atomics are never weak.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel}}
    %0, %1 = atomic_cas_tko weak device %p, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel

// -----

// atomic_rmw_tko: the mode is one of the enum's.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'mode' [and, or, xor, add, addf, max, min, umax, umin, xchg]}}
    %0, %1 = atomic_rmw_tko relaxed device %p, nand, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: custom op 'cuda_tile.atomic_rmw_tko' expected string or keyword containing one of the following enum values for attribute 'mode' [and, or, xor, add, addf, max, min, umax, umin, xchg]

// -----

// RULE: atomic_rmw_tko.all-shapes-match
// Pointers, arg and result have one shape; arg and result one type.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>) {
    %v = iota : tile<4xi32>
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, result} have same shape}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %v : tile<ptr<i32>>, tile<4xi32> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, result} have same shape

// -----

// RULE: atomic_rmw_tko.all-types-match
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op failed to verify that all of {arg, result} have same type}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %i : tile<ptr<i32>>, tile<i32> -> tile<i64>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {arg, result} have same type

// -----

// RULE: atomic_rmw_tko.pointee-matches-arg
// The pointee is arg's element type; the mask has arg's shape.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op expected pointee type ('f32') to match element type of 'arg' ('i32')}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %i : tile<ptr<f32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op expected pointee type ('f32') to match element type of 'arg' ('i32')

// -----

// RULE: atomic_rmw_tko.all-shapes-match
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    %m = constant <i1: [1, 0, 1, 0]> : tile<4xi1>
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, mask} have same shape}}
    %0, %1 = atomic_rmw_tko relaxed device %p, and, %i, %m : tile<ptr<i32>>, tile<i32>, tile<4xi1> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, mask} have same shape

// -----

// RULE: atomic_rmw_tko.mode-integer-types
// Integer modes on i32/i64, addf on f16/bf16/f32/f64, xchg on 32/64-bit values.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %x: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op 'max' works only with integers i32 and i64}}
    %0, %1 = atomic_rmw_tko relaxed device %p, max, %x : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op 'max' works only with integers i32 and i64

// -----

// RULE: atomic_rmw_tko.mode-integer-types
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i16>>, %x: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op 'add' works only with integers i32 and i64}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %x : tile<ptr<i16>>, tile<i16> -> tile<i16>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op 'add' works only with integers i32 and i64

// -----

// RULE: atomic_rmw_tko.addf-float-types
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op 'addf' works only with floats f16, bf16, f32, and f64}}
    %0, %1 = atomic_rmw_tko relaxed device %p, addf, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op 'addf' works only with floats f16, bf16, f32, and f64

// -----

// RULE: atomic_rmw_tko.xchg-types
cuda_tile.module @m {
  entry @e(%p: tile<ptr<tf32>>, %x: tile<tf32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op 'xchg' works only with integers or float of 32 or 64 bitwidth}}
    %0, %1 = atomic_rmw_tko relaxed device %p, xchg, %x : tile<ptr<tf32>>, tile<tf32> -> tile<tf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op 'xchg' works only with integers or float of 32 or 64 bitwidth

// -----

// RULE: atomic_rmw_tko.memory-ordering
// Atomics are never weak.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i32>>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel}}
    %0, %1 = atomic_rmw_tko weak device %p, add, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel

// -----

// RULE: join_tokens.two-or-more
// join_tokens joins at least two tokens.
cuda_tile.module @m {
  entry @e() {
    %t = make_token : token
    // expected-error@+1 {{'cuda_tile.join_tokens' op expect two or more tokens}}
    %0 = join_tokens %t : token
    return
  }
}
// CHECK: error: 'cuda_tile.join_tokens' op expect two or more tokens

// -----

// memory_fence_alias_tko takes a token.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%i' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'}}
    %0 = memory_fence_alias_tko %i
    return
  }
}
// CHECK: error: use of value '%i' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'

// -----

// RULE: alloca.attribute-constraints
// alloca: num_elem and alignment are non-negative.
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op attribute 'num_elem' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
    %0 = alloca num_elem = -10, alignment = 16 : tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op attribute 'num_elem' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0

// -----

// RULE: alloca.attribute-constraints
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
    %0 = alloca num_elem = 32, alignment = -16 : tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0

// -----

// RULE: alloca.alignment-power-of-two
// The alignment is a power of two, at least the element size.
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op 'alignment' must be power of two}}
    %0 = alloca num_elem = 64, alignment = 3 : tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op 'alignment' must be power of two

// -----

// RULE: alloca.alignment-power-of-two
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op 'alignment' must be power of two}}
    %0 = alloca num_elem = 64, alignment = 0 : tile<ptr<i8>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op 'alignment' must be power of two

// -----

// RULE: alloca.alignment-natural-size
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op 'alignment' (2) must be at least the natural size (4 bytes) for element type 'f32'}}
    %0 = alloca num_elem = 64, alignment = 2 : tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op 'alignment' (2) must be at least the natural size (4 bytes) for element type 'f32'

// -----

// RULE: alloca.type-constraints
// The result is a scalar pointer (generic form, so that the op's verifier reports it).
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.alloca' op result #0 must be 0D tile of Pointer type values, but got '!cuda_tile.tile<4xptr<f32>>'}}
    %0 = "cuda_tile.alloca"() <{num_elem = 64 : i64, alignment = 16 : i64}> : () -> !cuda_tile.tile<4x!cuda_tile.ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.alloca' op result #0 must be 0D tile of Pointer type values, but got '!cuda_tile.tile<4xptr<f32>>'

// -----

// RULE: atomic_rmw_tko.mask-shape
// The mask of an atomic has the pointers' shape.
cuda_tile.module @m {
  testing$func @e(%p: tile<4xptr<i32>>, %v: tile<4xi32>, %k: tile<8xi1>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, mask} have same shape}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %v, %k : tile<4xptr<i32>>, tile<4xi32>, tile<8xi1> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, mask} have same shape

// -----

// RULE: atomic_cas_tko.mask-shape
cuda_tile.module @m {
  testing$func @e(%p: tile<4xptr<i32>>, %v: tile<4xi32>, %k: tile<8xi1>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, val, cmp and mask} have same shape}}
    %0, %1 = atomic_cas_tko relaxed device %p, %v, %v, %k : tile<4xptr<i32>>, tile<4xi32>, tile<8xi1> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, val, cmp and mask} have same shape

// -----

// RULE: atomic_rmw_tko.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<4xi64>, %v: tile<4xi32>) {
    // expected-error@+1 {{'cuda_tile.atomic_rmw_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'}}
    %0, %1 = atomic_rmw_tko relaxed device %p, add, %v : tile<4xi64>, tile<4xi32> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_rmw_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'

// -----

// RULE: atomic_cas_tko.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<4xi64>, %v: tile<4xi32>) {
    // expected-error@+1 {{'cuda_tile.atomic_cas_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'}}
    %0, %1 = atomic_cas_tko relaxed device %p, %v, %v : tile<4xi64>, tile<4xi32> -> tile<4xi32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_cas_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'

// -----

// RULE: store_ptr_tko.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<4xi64>, %v: tile<4xi64>) {
    // expected-error@+1 {{'cuda_tile.store_ptr_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'}}
    %0 = store_ptr_tko weak %p, %v : tile<4xi64>, tile<4xi64> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_ptr_tko' op operand #0 must be tile of Pointer type values, but got '!cuda_tile.tile<4xi64>'

// -----

// RULE: store_view_tko.view-type
// store_view_tko: TileView::verifyIndices and the view operand, as for load_view_tko.
cuda_tile.module @m {
  testing$func @e(%x: tile<32xf32>, %i: tile<i32>, %t: tile<8xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op operand #1 must be TileView instance, but got '!cuda_tile.tile<32xf32>'}}
    %0 = store_view_tko weak %t, %x[%i] : tile<8xf32>, tile<32xf32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op operand #1 must be TileView instance, but got '!cuda_tile.tile<32xf32>'

// -----

// RULE: store_view_tko.index-same-type
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %l: tile<i64>, %t: tile<16x32xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'}}
    %0 = "cuda_tile.store_view_tko"(%t, %v, %i, %l) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, operandSegmentSizes = array<i32: 1, 1, 2, 0>}> : (!cuda_tile.tile<16x32xf32>, !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> !cuda_tile.token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'

// -----

// RULE: store_view_tko.index-scalar
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %r: tile<16xi32>, %t: tile<16x32xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected index type to be a scalar tile, got '!cuda_tile.tile<16xi32>'}}
    %0 = store_view_tko weak %t, %v[%r, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<16xi32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected index type to be a scalar tile, got '!cuda_tile.tile<16xi32>'

// -----

// RULE: store_view_tko.gather-index-1d
cuda_tile.module @m {
  testing$func @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %i: tile<i32>, %t: tile<16x32xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected index at sparse_dim position 0 to be a 1D tensor for GatherScatterView, got rank 0}}
    %0 = store_view_tko weak %t, %v[%i, %i] : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected index at sparse_dim position 0 to be a 1D tensor for GatherScatterView, got rank 0

// -----

// RULE: store_view_tko.gather-index-size
cuda_tile.module @m {
  testing$func @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %i: tile<i32>, %r: tile<8xi32>, %t: tile<16x32xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected gather/scatter index size (8) to match tile shape at gather/scatter dimension 0 (16)}}
    %0 = store_view_tko weak %t, %v[%r, %i] : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected gather/scatter index size (8) to match tile shape at gather/scatter dimension 0 (16)

// -----

// RULE: store_view_tko.gather-other-index-scalar
cuda_tile.module @m {
  testing$func @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %r: tile<16xi32>, %t: tile<16x32xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected index 1 to be a scalar tile for GatherScatterView}}
    %0 = store_view_tko weak %t, %v[%r, %r] : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected index 1 to be a scalar tile for GatherScatterView

// -----

// RULE: store_view_tko.gather-scalar-index-types
cuda_tile.module @m {
  testing$func @e(%v: gather_scatter_view<tile=(16x4x4), tensor_view<64x64x64xf32, strides=[4096,64,1]>, sparse_dim=0>, %r: tile<16xi32>, %i: tile<i32>, %l: tile<i64>, %t: tile<16x4x4xf32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op expected scalar index 2 to have the same type as other scalar indices ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'}}
    %0 = store_view_tko weak %t, %v[%r, %i, %l] : tile<16x4x4xf32>, gather_scatter_view<tile=(16x4x4), tensor_view<64x64x64xf32, strides=[4096,64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32>, tile<i64> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op expected scalar index 2 to have the same type as other scalar indices ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'

// -----

// RULE: get_index_space_shape.type-constraints
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>) {
    // expected-error@+1 {{'cuda_tile.get_index_space_shape' op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = get_index_space_shape %v : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.get_index_space_shape' op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: atomic_red_view_tko.view-is-tile-view
// The operand's type constraint fires before verify()'s own check, as in NVIDIA's.
cuda_tile.module @m {
  testing$func @e(%t: tile<2x2xi32>, %c0: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op operand #0 must be TileView instance, but got '!cuda_tile.tile<2x2xi32>'}}
    %0 = atomic_red_view_tko relaxed device %t[%c0, %c0], add, %t : tile<2x2xi32>, tile<2x2xi32>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op operand #0 must be TileView instance, but got '!cuda_tile.tile<2x2xi32>'

// -----

// RULE: atomic_red_view_tko.integer-index
// The operand's type constraint fires before verify()'s own check, as in NVIDIA's.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %t: tile<2x2xi32>, %f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op operand #1 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = atomic_red_view_tko relaxed device %v[%f, %f], add, %t : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op operand #1 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: atomic_red_view_tko.type-constraints
// The value is a tile.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %c0: tile<i32>, %tok: token) {
    // expected-error@+1 {{'cuda_tile.atomic_red_view_tko' op operand #3 must be Tile type, but got '!cuda_tile.token'}}
    %0 = "cuda_tile.atomic_red_view_tko"(%v, %c0, %c0, %tok, %tok) <{memory_ordering_semantics = 1 : i32, memory_scope = 1 : i32, mode = 0 : i32, operandSegmentSizes = array<i32: 1, 2, 1, 1>}> : (!cuda_tile.partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.token, !cuda_tile.token) -> !cuda_tile.token
    return
  }
}
// CHECK: error: 'cuda_tile.atomic_red_view_tko' op operand #3 must be Tile type, but got '!cuda_tile.token'

// -----

// RULE: store_view_tko.type-constraints
// The stored value is a tile.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %c0: tile<i32>, %tok: token) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op operand #0 must be Tile type, but got '!cuda_tile.token'}}
    %0 = store_view_tko weak %tok, %v[%c0, %c0] : token, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<i32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op operand #0 must be Tile type, but got '!cuda_tile.token'

// -----

// RULE: store_view_tko.type-constraints
// The indices are integer tiles.
cuda_tile.module @m {
  testing$func @e(%v: partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, %t: tile<2x2xi32>, %f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.store_view_tko' op operand #2 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = store_view_tko weak %t, %v[%f, %f] : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>, tile<f32> -> token
    return
  }
}
// CHECK: error: 'cuda_tile.store_view_tko' op operand #2 must be variadic of tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: join_tokens.type-constraints
cuda_tile.module @m {
  entry @e(%t: token, %c: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.join_tokens' op operand #1 must be variadic of cuda tile token type, but got '!cuda_tile.tile<i32>'}}
    %0 = "cuda_tile.join_tokens"(%t, %c) : (!cuda_tile.token, !cuda_tile.tile<i32>) -> !cuda_tile.token
    return
  }
}
// CHECK: error: 'cuda_tile.join_tokens' op operand #1 must be variadic of cuda tile token type, but got '!cuda_tile.tile<i32>'

// -----

// A pointer tile as the dynamic values' type (no comma after it: not a base
// pointer's type) is read as written, for the verifier to name.
// CHECK: error: 'cuda_tile.make_tensor_view' op operand #1 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<ptr<f64>>'
cuda_tile.module @m {
  testing$func @k(%p: tile<ptr<f64>>) {
    // expected-error@below {{op operand #1 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<ptr<f64>>'}}
    %v = make_tensor_view %p, shape = [%p], strides = [1] : tile<ptr<f64>> -> tensor_view<?xf64, strides=[1]>
  }
}
