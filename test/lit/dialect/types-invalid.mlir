// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the cuda_tile types (Types.cpp).
// A bad type is written as an entry argument type; the error points at it.

// tile: static, positive, power-of-two dimensions; at most 2^24 elements.
cuda_tile.module @m {
  // expected-error@+1 {{expected static shape}}
  entry @e(%a: tile<?x4xf32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected static shape

// -----

// RULE: tile.positive-dims
cuda_tile.module @m {
  // expected-error@+1 {{all dimensions must be positive constants, got 4, 0}}
  entry @e(%a: tile<4x0xi32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' all dimensions must be positive constants, got 4, 0

// -----

// RULE: tile.power-of-two-dims
cuda_tile.module @m {
  // expected-error@+1 {{all dimensions must be powers of two, got 3, 4}}
  entry @e(%a: tile<3x4xf32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' all dimensions must be powers of two, got 3, 4

// -----

// RULE: tile.max-elements
cuda_tile.module @m {
  // expected-error@+1 {{tile would exceed the maximum of 16777216 elements}}
  entry @e(%a: tile<1024x1024x32xf32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile would exceed the maximum of 16777216 elements

// -----

// RULE: tile.element-type
// tile: elements are numbers (i4 included) or pointers.
cuda_tile.module @m {
  // expected-error@+1 {{failed to verify 'elementType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64 or Pointer type or i4}}
  entry @e(%a: tile<4xi7>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' failed to verify 'elementType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64 or Pointer type or i4

// -----

// RULE: tile.f4e2m1fn-even
// tile: f4E2M1FN values are packed two per byte.
cuda_tile.module @m {
  // expected-error@+1 {{F4E2M1FN tiles must have an even number of elements}}
  entry @e(%a: tile<f4E2M1FN>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' F4E2M1FN tiles must have an even number of elements

// -----

// RULE: ptr.pointee-type
// ptr: the pointee is a number (not i4).
cuda_tile.module @m {
  // expected-error@+1 {{failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64}}
  entry @e(%a: tile<ptr<i4>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64

// -----

// RULE: tile.element-type
// tensor_view: the elements are numbers (not i4).
cuda_tile.module @m {
  // expected-error@+1 {{failed to verify 'elementType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64}}
  entry @e(%a: tensor_view<4xi4, strides=[1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' failed to verify 'elementType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64

// -----

// tensor_view: strides for every dimension and only then; each a positive integer or `?`.
cuda_tile.module @m {
  // expected-error@+1 {{expected 'strides'}}
  entry @e(%a: tensor_view<2xf32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected 'strides'

// -----

cuda_tile.module @m {
  // expected-error@+1 {{strides must not be provided for 0-d tiles}}
  entry @e(%a: tensor_view<f32, strides=[]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' strides must not be provided for 0-d tiles

// -----

cuda_tile.module @m {
  // expected-error@+1 {{unexpected token after element type in 0-d tensor_view}}
  entry @e(%a: tensor_view<f16,>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' unexpected token after element type in 0-d tensor_view

// -----

cuda_tile.module @m {
  // expected-error@+1 {{expected either 64-bit integer or question mark}}
  entry @e(%a: tensor_view<?x32xf32, strides=[, 32]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected either 64-bit integer or question mark

// -----

cuda_tile.module @m {
  // expected-error@+1 {{expected strictly positive integer, got -5}}
  entry @e(%a: tensor_view<?xf32, strides=[-5]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected strictly positive integer, got -5

// -----

cuda_tile.module @m {
  // expected-error@+1 {{expected strictly positive integer, got 0}}
  entry @e(%a: tensor_view<?xf32, strides=[0]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected strictly positive integer, got 0

// -----

// RULE: tensor_view.shape-stride-rank
cuda_tile.module @m {
  // expected-error@+1 {{expected shape and stride to be of same rank but got shape of rank 1 and stride of rank 2}}
  entry @e(%a: tensor_view<?xf32, strides=[4, 1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected shape and stride to be of same rank but got shape of rank 1 and stride of rank 2

// -----

// RULE: tensor_view.positive-sizes
// tensor_view: static sizes are positive.
cuda_tile.module @m {
  // expected-error@+1 {{dimensions must have strictly positive constant sizes but got [4, 0]}}
  entry @e(%a: tensor_view<4x0xi32, strides=[1,1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' dimensions must have strictly positive constant sizes but got [4, 0]

// -----

// RULE: partition_view.tile-rank-nonzero
// partition_view: a tile of the view's rank, power-of-two dimensions that fit in i32.
cuda_tile.module @m {
  // expected-error@+1 {{0-dimension tile shape is not supported}}
  entry @e(%a: partition_view<tile=(), tensor_view<f32>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' 0-dimension tile shape is not supported

// -----

// RULE: partition_view.tile-rank-matches
cuda_tile.module @m {
  // expected-error@+1 {{expected tensor_view rank and tile rank to match, got tensor_view of rank 3 and tiles of rank 2}}
  entry @e(%a: partition_view<tile=(1x1), tensor_view<8192x8192x64xf32, strides=[524288,64,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected tensor_view rank and tile rank to match, got tensor_view of rank 3 and tiles of rank 2

// -----

// RULE: partition_view.power-of-two-tile-dims
cuda_tile.module @m {
  // expected-error@+1 {{tile shape dimensions must have power of two length but got [5, 1024]}}
  entry @e(%a: partition_view<tile=(5x1024), tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile shape dimensions must have power of two length but got [5, 1024]

// -----

// RULE: partition_view.tile-dims-fit-i32
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: partition_view<tile=(1099511627776x1024), tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)

// -----

// RULE: tile.max-elements
cuda_tile.module @m {
  // expected-error@+1 {{tile would exceed the maximum of 16777216 elements}}
  entry @e(%a: partition_view<tile=(8192x4096), tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile would exceed the maximum of 16777216 elements

// -----

// RULE: tile.f4e2m1fn-even
cuda_tile.module @m {
  // expected-error@+1 {{F4E2M1FN tiles must have an even number of elements}}
  entry @e(%a: partition_view<tile=(1x1), tensor_view<64x64xf4E2M1FN, strides=[64,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' F4E2M1FN tiles must have an even number of elements

// -----

// partition_view: the viewed type is a tensor_view.
cuda_tile.module @m {
  // expected-error@+1 {{expected 'tensor_view' type, but got '!cuda_tile.tile<4x4xf32>'}}
  entry @e(%a: partition_view<tile=(4x4), tile<4x4xf32>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected 'tensor_view' type, but got '!cuda_tile.tile<4x4xf32>'

// -----

// RULE: partition_view.dim-map-size
// partition_view: dim_map maps each tile dimension to a distinct tensor dimension.
cuda_tile.module @m {
  // expected-error@+1 {{expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings}}
  entry @e(%a: partition_view<tile=(1024x1024), tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[0]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings

// -----

// RULE: partition_view.dim-map-non-negative
cuda_tile.module @m {
  // expected-error@+1 {{target dimension must not be negative, got -1}}
  entry @e(%a: partition_view<tile=(1024x1024), tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[-1, 1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension must not be negative, got -1

// -----

// RULE: partition_view.dim-map-in-range
cuda_tile.module @m {
  // expected-error@+1 {{target dimension is outside of tensor view dimensions, expected strictly less than 2, got 2}}
  entry @e(%a: partition_view<tile=(1024x1024), tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[2, 1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension is outside of tensor view dimensions, expected strictly less than 2, got 2

// -----

// RULE: partition_view.dim-map-unique
cuda_tile.module @m {
  // expected-error@+1 {{target dimension 0 mapped at least twice (for tile dimensions 0 and 1)}}
  entry @e(%a: partition_view<tile=(1024x1024), tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[0, 0]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension 0 mapped at least twice (for tile dimensions 0 and 1)

// -----

// RULE: partition_view.padding-float-only
// partition_view: padding values other than zero need floats.
cuda_tile.module @m {
  // expected-error@+1 {{padding_value nan can only be used with floating point element types, got 'i32'}}
  entry @e(%a: partition_view<tile=(4x4), padding_value = nan, tensor_view<64x64xi32, strides=[64,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' padding_value nan can only be used with floating point element types, got 'i32'

// -----

cuda_tile.module @m {
  // expected-error@+1 {{invalid padding_value attribute specification. Got "max" but expect one of: zero, neg_zero, nan, pos_inf, neg_inf}}
  entry @e(%a: partition_view<tile=(4x4), padding_value = max, tensor_view<64x64xf32, strides=[64,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' invalid padding_value attribute specification. Got "max" but expect one of: zero, neg_zero, nan, pos_inf, neg_inf

// -----

// RULE: strided_view.dim-map-unique
// strided_view: the partition_view rules, plus one positive traversal stride per dimension.
cuda_tile.module @m {
  // expected-error@+1 {{target dimension 0 mapped at least twice (for tile dimensions 0 and 1)}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[0, 0]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension 0 mapped at least twice (for tile dimensions 0 and 1)

// -----

// RULE: strided_view.traversal-stride-count
cuda_tile.module @m {
  // expected-error@+1 {{expected 2 traversal strides, got 1}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected 2 traversal strides, got 1

// -----

// RULE: strided_view.positive-traversal-strides
cuda_tile.module @m {
  // expected-error@+1 {{traversal strides must be strictly positive but got [1, 0]}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1,0], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' traversal strides must be strictly positive but got [1, 0]

// -----

// RULE: strided_view.positive-traversal-strides
cuda_tile.module @m {
  // expected-error@+1 {{traversal strides must be strictly positive but got [1, -1]}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1,-1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' traversal strides must be strictly positive but got [1, -1]

// -----

// RULE: gather_scatter_view.tile-rank-matches
// gather_scatter_view: the tile rules, and sparse_dim is a dimension of the tensor view.
cuda_tile.module @m {
  // expected-error@+1 {{expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of rank 1}}
  entry @e(%a: gather_scatter_view<tile=(4), tensor_view<64x64xf32, strides=[64,1]>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of rank 1

// -----

// RULE: gather_scatter_view.power-of-two-tile-dims
cuda_tile.module @m {
  // expected-error@+1 {{tile shape dimensions must have power of two length but got [3, 4]}}
  entry @e(%a: gather_scatter_view<tile=(3x4), tensor_view<64x64xf32, strides=[64,1]>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile shape dimensions must have power of two length but got [3, 4]

// -----

// RULE: gather_scatter_view.gather-dim-in-range
cuda_tile.module @m {
  // expected-error@+1 {{gather dimension is outside of tensor view dimensions, expected strictly less than 2, got 2}}
  entry @e(%a: gather_scatter_view<tile=(4x4), tensor_view<64x64xf32, strides=[64,1]>, sparse_dim=2>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' gather dimension is outside of tensor view dimensions, expected strictly less than 2, got 2

// -----

// RULE: gather_scatter_view.padding-float-only
cuda_tile.module @m {
  // expected-error@+1 {{padding_value pos_inf can only be used with floating point element types, got 'i32'}}
  entry @e(%a: gather_scatter_view<tile=(4x4), padding_value = pos_inf, tensor_view<64x64xi32, strides=[64,1]>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' padding_value pos_inf can only be used with floating point element types, got 'i32'

// -----

// RULE: load_view_tko.index-same-type
// TileView::verifyIndices, through load_view_tko: the indices of a partition or
// strided view are scalars of one type.
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %l: tile<i64>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'}}
    %0, %1 = "cuda_tile.load_view_tko"(%v, %i, %l) <{memory_ordering_semantics = #cuda_tile.memory_ordering<weak>, operandSegmentSizes = array<i32: 1, 2, 0>}> : (!cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> (!cuda_tile.tile<16x32xf32>, !cuda_tile.token)
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'

// -----

// RULE: load_view_tko.index-scalar
cuda_tile.module @m {
  entry @e(%v: partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, %i: tile<i32>, %tvi: tensor_view<?xi32, strides=[1]>) {
    %iv = make_partition_view %tvi : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    %r, %t = load_view_tko weak %iv[%i] : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected index type to be a scalar tile, got '!cuda_tile.tile<16xi32>'}}
    %0, %1 = load_view_tko weak %v[%r, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<16xi32>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected index type to be a scalar tile, got '!cuda_tile.tile<16xi32>'

// -----

// RULE: load_view_tko.gather-index-1d
// A gather/scatter view takes a 1-d tile of row indices at sparse_dim.
cuda_tile.module @m {
  entry @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected index at sparse_dim position 0 to be a 1D tensor for GatherScatterView, got rank 0}}
    %0, %1 = load_view_tko weak %v[%i, %i] : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected index at sparse_dim position 0 to be a 1D tensor for GatherScatterView, got rank 0

// -----

// RULE: load_view_tko.gather-index-size
cuda_tile.module @m {
  entry @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %i: tile<i32>, %tvi: tensor_view<?xi32, strides=[1]>) {
    %iv = make_partition_view %tvi : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>
    %r, %t = load_view_tko weak %iv[%i] : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected gather/scatter index size (8) to match tile shape at gather/scatter dimension 0 (16)}}
    %0, %1 = load_view_tko weak %v[%r, %i] : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected gather/scatter index size (8) to match tile shape at gather/scatter dimension 0 (16)

// -----

// RULE: load_view_tko.gather-other-index-scalar
// The other indices of a gather/scatter view are scalars of one type.
cuda_tile.module @m {
  entry @e(%v: gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, %i: tile<i32>, %tvi: tensor_view<?xi32, strides=[1]>) {
    %iv = make_partition_view %tvi : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    %r, %t = load_view_tko weak %iv[%i] : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected index 1 to be a scalar tile for GatherScatterView}}
    %0, %1 = load_view_tko weak %v[%r, %r] : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32> -> tile<16x32xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected index 1 to be a scalar tile for GatherScatterView

// -----

// RULE: load_view_tko.gather-scalar-index-types
cuda_tile.module @m {
  entry @e(%v: gather_scatter_view<tile=(16x4x4), tensor_view<64x64x64xf32, strides=[4096,64,1]>, sparse_dim=0>, %i: tile<i32>, %l: tile<i64>, %tvi: tensor_view<?xi32, strides=[1]>) {
    %iv = make_partition_view %tvi : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    %r, %t = load_view_tko weak %iv[%i] : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    // expected-error@+1 {{'cuda_tile.load_view_tko' op expected scalar index 2 to have the same type as other scalar indices ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'}}
    %0, %1 = load_view_tko weak %v[%r, %i, %l] : gather_scatter_view<tile=(16x4x4), tensor_view<64x64x64xf32, strides=[4096,64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32>, tile<i64> -> tile<16x4x4xf32>, token
    return
  }
}
// CHECK: error: 'cuda_tile.load_view_tko' op expected scalar index 2 to have the same type as other scalar indices ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'

// -----

// RULE: tensor_view.positive-strides
// NVIDIA's parser rejects a stride below 1 before the type verifier sees it.
cuda_tile.module @m {
  // expected-error@+1 {{expected strictly positive integer, got 0}}
  entry @e(%a: tensor_view<4x4xi32, strides=[0,1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected strictly positive integer, got 0

// -----

// RULE: partition_view.positive-tile-dims
// NVIDIA's parser rejects a tile dimension below 1 before the type verifier sees it.
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: partition_view<tile=(1024x0), tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)

// -----

// RULE: strided_view.tile-rank-nonzero
// The checks strided views share with partition views (verifyPartitionViewLike).
cuda_tile.module @m {
  // expected-error@+1 {{0-dimension tile shape is not supported}}
  entry @e(%a: strided_view<tile=(), traversal_strides=[], tensor_view<f32>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' 0-dimension tile shape is not supported

// -----

// RULE: strided_view.tile-rank-matches
cuda_tile.module @m {
  // expected-error@+1 {{expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of rank 1}}
  entry @e(%a: strided_view<tile=(1024), traversal_strides=[1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of rank 1

// -----

// RULE: strided_view.dim-map-size
cuda_tile.module @m {
  // expected-error@+1 {{expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[0]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings

// -----

// RULE: strided_view.positive-tile-dims
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: strided_view<tile=(1024x0), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)

// -----

// RULE: strided_view.power-of-two-tile-dims
cuda_tile.module @m {
  // expected-error@+1 {{tile shape dimensions must have power of two length but got [5, 1024]}}
  entry @e(%a: strided_view<tile=(5x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile shape dimensions must have power of two length but got [5, 1024]

// -----

// RULE: strided_view.dim-map-non-negative
cuda_tile.module @m {
  // expected-error@+1 {{target dimension must not be negative, got -1}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[-1, 1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension must not be negative, got -1

// -----

// RULE: strided_view.dim-map-in-range
cuda_tile.module @m {
  // expected-error@+1 {{target dimension is outside of tensor view dimensions, expected strictly less than 2, got 2}}
  entry @e(%a: strided_view<tile=(1024x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>, dim_map=[2, 1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' target dimension is outside of tensor view dimensions, expected strictly less than 2, got 2

// -----

// RULE: strided_view.padding-float-only
cuda_tile.module @m {
  // expected-error@+1 {{padding_value nan can only be used with floating point element types, got 'i32'}}
  entry @e(%a: strided_view<tile=(4x4), traversal_strides=[4,4], padding_value = nan, tensor_view<64x64xi32, strides=[64,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' padding_value nan can only be used with floating point element types, got 'i32'

// -----

// RULE: strided_view.tile-dims-fit-i32
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: strided_view<tile=(1099511627776x1024), traversal_strides=[1024,1], tensor_view<4096x4096xf32, strides=[4096,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)

// -----

// RULE: gather_scatter_view.tile-rank-nonzero
cuda_tile.module @m {
  // expected-error@+1 {{0-dimension tile shape is not supported}}
  entry @e(%a: gather_scatter_view<tile=(), tensor_view<f32>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' 0-dimension tile shape is not supported

// -----

// RULE: gather_scatter_view.positive-tile-dims
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: gather_scatter_view<tile=(4x0), tensor_view<4096x4096xf32, strides=[4096,1]>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 1 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)

// -----

// RULE: gather_scatter_view.tile-dims-fit-i32
cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: gather_scatter_view<tile=(1099511627776x4), tensor_view<4096x4096xf32, strides=[4096,1]>, sparse_dim=0>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly positive and less than or equal to 2147483647)

// -----

// In a shape, `0x10` is the dimension 0, then `x10` (as MLIR reads it), never
// the hex number 16: reading it as one would silently change the shape.
cuda_tile.module @m {
  // expected-error@+1 {{all dimensions must be positive constants, got 4, 0, 10}}
  entry @e(%a: tile<4x0x10xf32>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' all dimensions must be positive constants, got 4, 0, 10

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{all dimensions must be positive constants, got 1, 0, 2}}
    %0 = constant <i32: 1> : tile<1x0x2xi32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' all dimensions must be positive constants, got 1, 0, 2

// -----

// Only an integer literal is a dimension (MLIR's parseDimensionList): `-4`
// ends the shape, and the element type is expected where it stands.
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{custom op 'cuda_tile.constant' expected valid keyword}}
    %0 = constant <f32: 1.0> : tile<4x-4xf32>
    return
  }
}
// CHECK: types-invalid.mlir:[[# @LINE - 4]]:39: error: custom op 'cuda_tile.constant' expected valid keyword

// -----

// In a view's `tile=(...)` too: `(-4)` is not a shape, and `)` is expected.
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
    // expected-error@+1 {{expected ')'}}
    %pv = make_partition_view %tv : partition_view<tile=(-4), tensor_view<4xf32, strides=[1]>>
    return
  }
}

// -----

cuda_tile.module @m {
  // expected-error@+1 {{dimensions must have strictly positive constant sizes but got [0, 16]}}
  entry @e(%a: tensor_view<0x16xf32, strides=[16,1]>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' dimensions must have strictly positive constant sizes but got [0, 16]

// -----

cuda_tile.module @m {
  // expected-error@+1 {{tile dimension 0 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)}}
  entry @e(%a: partition_view<tile=(0x10), tensor_view<16x16xf32, strides=[16,1]>>) {
    return
  }
}
// CHECK: error: custom op 'cuda_tile.entry' tile dimension 0 exceeds i32 limitations (got 0, expected strictly positive and less than or equal to 2147483647)
