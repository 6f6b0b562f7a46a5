// RUN: %roundtrip %s | filecheck %s

// CHECK: cuda_tile.module @memory {
cuda_tile.module @memory {

  // make_tensor_view: 0-d, static, dynamic shape and/or strides (every index type),
  // get_tensor_shape (every result type), discardable attributes, fully qualified input.
  // CHECK-LABEL: entry @tensor_views(
  entry @tensor_views(%p: tile<ptr<f32>>, %q: tile<ptr<f4E2M1FN>>, %c1: tile<i1>, %c8: tile<i8>, %c16: tile<i16>, %c32: tile<i32>, %c64: tile<i64>) {
    // CHECK-NEXT: %tv0 = make_tensor_view %p, shape = [], strides = [] : tensor_view<f32>
    %tv0 = make_tensor_view %p, shape = [], strides = [] : tensor_view<f32>
    // CHECK-NEXT: %tv1 = make_tensor_view %p, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    %tv1 = make_tensor_view %p, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
    // CHECK-NEXT: %tv2 = make_tensor_view %p, shape = [%c64, 32], strides = [32, 1] : tile<i64> -> tensor_view<?x32xf32, strides=[32,1]>
    %tv2 = make_tensor_view %p, shape = [%c64, 32], strides = [32, 1] : tile<i64> -> tensor_view<?x32xf32, strides=[32,1]>
    // CHECK-NEXT: %tv3 = make_tensor_view %p, shape = [32, 32], strides = [%c32, 1] : tile<i32> -> tensor_view<32x32xf32, strides=[?,1]>
    %tv3 = make_tensor_view %p, shape = [32, 32], strides = [%c32, 1] : tile<i32> -> tensor_view<32x32xf32, strides=[?,1]>
    // CHECK-NEXT: %tv4 = make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, 1] : tile<i16> -> tensor_view<?x?xf32, strides=[?,1]>
    %tv4 = make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, 1] : tile<i16> -> tensor_view<?x?xf32, strides=[?,1]>
    // CHECK-NEXT: %tv5 = make_tensor_view %p, shape = [%c8, 4, %c8], strides = [%c8, %c8, 1] : tile<i8> -> tensor_view<?x4x?xf32, strides=[?,?,1]>
    %tv5 = make_tensor_view %p, shape = [%c8, 4, %c8], strides = [%c8, %c8, 1] : tile<i8> -> tensor_view<?x4x?xf32, strides=[?,?,1]>
    // CHECK-NEXT: %tv6 = make_tensor_view %p, shape = [%c1], strides = [%c1] : tile<i1> -> tensor_view<?xf32, strides=[?]>
    %tv6 = make_tensor_view %p, shape = [%c1], strides = [%c1] : tile<i1> -> tensor_view<?xf32, strides=[?]>
    // CHECK-NEXT: %tv7 = make_tensor_view %q, shape = [32, 32], strides = [1, 32] : tensor_view<32x32xf4E2M1FN, strides=[1,32]>
    %tv7 = make_tensor_view %q, shape = [32, 32], strides = [1, 32] : tensor_view<32x32xf4E2M1FN, strides=[1,32]>
    // CHECK-NEXT: %tv8 = make_tensor_view %p, shape = [8192, 128], strides = [128, 1] {note = "attr"} : tensor_view<8192x128xf32, strides=[128,1]>
    %tv8 = make_tensor_view %p, shape=[8192, 128], strides=[128, 1] {note = "attr"} : tensor_view<8192x128xf32, strides=[128,1]>
    // CHECK-NEXT: %{{.*}} = get_tensor_shape %tv4 : tensor_view<?x?xf32, strides=[?,1]> -> tile<i32>
    %s32:2 = get_tensor_shape %tv4 : tensor_view<?x?xf32, strides=[?,1]> -> tile<i32>
    // CHECK-NEXT: %{{.*}} = get_tensor_shape %tv5 : tensor_view<?x4x?xf32, strides=[?,?,1]> -> tile<i16>
    %s16:3 = get_tensor_shape %tv5 : tensor_view<?x4x?xf32, strides=[?,?,1]> -> tile<i16>
    // CHECK-NEXT: %s64 = get_tensor_shape %tv6 : tensor_view<?xf32, strides=[?]> -> tile<i64>
    %s64 = get_tensor_shape %tv6 : tensor_view<?xf32, strides=[?]> -> tile<i64>
    // CHECK-NEXT: %s1 = get_tensor_shape %tv6 : tensor_view<?xf32, strides=[?]> -> tile<i1>
    %s1 = get_tensor_shape %tv6 : tensor_view<?xf32, strides=[?]> -> tile<i1>
    // CHECK-NEXT: %{{.*}} = get_tensor_shape %tv1 : tensor_view<32x32xf32, strides=[32,1]> -> tile<i8>
    %s0:2 = cuda_tile.get_tensor_shape %tv1 : !cuda_tile.tensor_view<32x32xf32, strides=[32,1]> -> !cuda_tile.tile<i8>
    // A 0-d tensor_view has no dimension: no result, and no result type is printed.
    // CHECK-NEXT: get_tensor_shape %tv0 : tensor_view<f32>{{$}}
    get_tensor_shape %tv0 : tensor_view<f32> -> tile<i32>
    // CHECK-NEXT: %tvq = make_tensor_view %p, shape = [%c32], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tvq = cuda_tile.make_tensor_view %p, shape = [%c32], strides = [1] : !cuda_tile.tile<i32> -> !cuda_tile.tensor_view<?xf32, strides=[1]>
    return
  }

  // make_partition_view / make_strided_view / make_gather_scatter_view: padding values,
  // dim_map, sparse_dim; get_index_space_shape on every view kind.
  // CHECK-LABEL: entry @tile_views(
  entry @tile_views(%tv: tensor_view<?x64xf32, strides=[?,1]>, %tvi: tensor_view<64x64xi32, strides=[64,1]>) {
    // CHECK-NEXT: %pv = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>
    %pv = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %pvd = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, dim_map=[1, 0]>
    %pvd = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, dim_map=[1, 0]>
    // CHECK-NEXT: %pvp = make_partition_view %tv : partition_view<tile=(16x32), padding_value = nan, tensor_view<?x64xf32, strides=[?,1]>>
    %pvp = make_partition_view %tv : partition_view<tile=(16x32), padding_value = nan, tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %pvi = make_partition_view %tvi {note = 1 : i32} : partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xi32, strides=[64,1]>>
    %pvi = make_partition_view %tvi {note = 1 : i32} : partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xi32, strides=[64,1]>>
    // CHECK-NEXT: %sv = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>
    %sv = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %svp = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], padding_value = neg_inf, tensor_view<?x64xf32, strides=[?,1]>, dim_map=[1, 0]>
    %svp = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], padding_value = neg_inf, tensor_view<?x64xf32, strides=[?,1]>, dim_map=[1, 0]>
    // CHECK-NEXT: %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>
    // CHECK-NEXT: %gvp = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), padding_value = pos_inf, tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>
    %gvp = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), padding_value = pos_inf, tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>
    // CHECK-NEXT: %pvq = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>
    %pvq = cuda_tile.make_partition_view %tv : !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %{{.*}} = get_index_space_shape %pv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>> -> tile<i32>
    %n:2 = get_index_space_shape %pv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>> -> tile<i32>
    // CHECK-NEXT: %{{.*}} = get_index_space_shape %sv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>> -> tile<i64>
    %m:2 = get_index_space_shape %sv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>> -> tile<i64>
    // CHECK-NEXT: %{{.*}} = get_index_space_shape %gv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0> -> tile<i16>
    %g:2 = get_index_space_shape %gv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0> -> tile<i16>
    // CHECK-NEXT: %{{.*}} = get_index_space_shape %pv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>> -> tile<i8>
    %h:2 = cuda_tile.get_index_space_shape %pv : !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>> -> !cuda_tile.tile<i8>
    return
  }

  // load_view_tko / store_view_tko: every allowed ordering and scope, input token,
  // optimization hints (printed sorted), inbounds (all-false is not printed), index
  // types written once or one by one (gather/scatter), every view kind.
  // CHECK-LABEL: entry @view_access(
  entry @view_access(%tv: tensor_view<?x64xf32, strides=[?,1]>, %tvi: tensor_view<?xi32, strides=[1]>, %i: tile<i32>, %j: tile<i64>) {
    // CHECK-NEXT: %pv = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>
    %pv = make_partition_view %tv : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %sv = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>
    %sv = make_strided_view %tv : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>
    // CHECK-NEXT: %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>
    // CHECK-NEXT: %gv1 = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>
    %gv1 = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>
    // CHECK-NEXT: %iv = make_partition_view %tvi : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    %iv = make_partition_view %tvi : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    // CHECK-NEXT: %iv32 = make_partition_view %tvi : partition_view<tile=(32), tensor_view<?xi32, strides=[1]>>
    %iv32 = make_partition_view %tvi : partition_view<tile=(32), tensor_view<?xi32, strides=[1]>>
    // CHECK-NEXT: %t0 = make_token : token
    %t0 = make_token : token
    // CHECK-NEXT: %a, %ta = load_view_tko weak %pv[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %a, %ta = load_view_tko weak %pv[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %b, %tb = load_view_tko relaxed tl_blk %pv[%j, %j] token = %t0 : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i64> -> tile<16x32xf32>, token
    %b, %tb = load_view_tko relaxed tl_blk %pv[%j, %j] token = %t0 : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i64> -> tile<16x32xf32>, token
    // CHECK-NEXT: %c, %tc = load_view_tko relaxed device %sv[%i, %i] : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %c, %tc = load_view_tko relaxed device %sv[%i, %i] : strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %d, %td = load_view_tko acquire sys %pv[%i, %i] token = %ta optimization_hints = <default = {latency = 1}, sm_100 = {allow_tma = false, latency = 3}> : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %d, %td = load_view_tko acquire sys %pv[%i, %i] token = %ta optimization_hints = <sm_100 = {latency = 3, allow_tma = false}, default = {latency = 1}> : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %e, %te = load_view_tko weak %pv[%i, %i] inbounds = [true, false] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %e, %te = load_view_tko weak %pv[%i, %i] inbounds = [true, false] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %f, %tf = load_view_tko weak %pv[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %f, %tf = load_view_tko weak %pv[%i, %i] inbounds = [false, false] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %rows, %tr = load_view_tko weak %iv[%i] : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %rows, %tr = load_view_tko weak %iv[%i] : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    // CHECK-NEXT: %cols, %tcl = load_view_tko weak %iv32[%i] : partition_view<tile=(32), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<32xi32>, token
    %cols, %tcl = load_view_tko weak %iv32[%i] : partition_view<tile=(32), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<32xi32>, token
    // CHECK-NEXT: %g, %tg = load_view_tko weak %gv[%rows, %i] optimization_hints = <sm_90 = {latency = 10}> inbounds = [false, true] : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x32xf32>, token
    %g, %tg = load_view_tko weak %gv[%rows, %i] optimization_hints = <sm_90 = {latency = 10}> inbounds = [false, true] : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %h, %th = load_view_tko weak %gv1[%i, %cols] attributes {note} : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>, tile<i32>, tile<32xi32> -> tile<16x32xf32>, token
    %h, %th = load_view_tko weak %gv1[%i, %cols] attributes {note} : gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=1>, tile<i32>, tile<32xi32> -> tile<16x32xf32>, token
    // CHECK-NEXT: %k, %tk = load_view_tko weak %pv[%i, %i] : partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %k, %tk = cuda_tile.load_view_tko weak %pv[%i, %i] : !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<16x32xf32>, !cuda_tile.token
    // CHECK-NEXT: %s0 = store_view_tko weak %a, %pv[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    %s0 = store_view_tko weak %a, %pv[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    // CHECK-NEXT: %s1 = store_view_tko relaxed tl_blk %a, %pv[%j, %j] token = %t0 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i64> -> token
    %s1 = store_view_tko relaxed tl_blk %a, %pv[%j, %j] token = %t0 : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i64> -> token
    // CHECK-NEXT: %s2 = store_view_tko relaxed sys %a, %sv[%i, %i] : tile<16x32xf32>, strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    %s2 = store_view_tko relaxed sys %a, %sv[%i, %i] : tile<16x32xf32>, strided_view<tile=(16x32), traversal_strides=[8,16], tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    // CHECK-NEXT: %s3 = store_view_tko release device %a, %pv[%i, %i] token = %s0 optimization_hints = <sm_120 = {allow_tma = true}> inbounds = [false, true] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    %s3 = store_view_tko release device %a, %pv[%i, %i] token = %s0 optimization_hints = <sm_120 = {allow_tma = true}> inbounds = [false, true] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    // CHECK-NEXT: %s4 = store_view_tko weak %a, %gv[%rows, %i] token = %t0 attributes {note = 2 : i64} : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token
    %s4 = store_view_tko weak %a, %gv[%rows, %i] token = %t0 attributes {note = 2 : i64} : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token
    // CHECK-NEXT: %s5 = store_view_tko weak %a, %pv[%i, %i] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x64xf32, strides=[?,1]>>, tile<i32> -> token
    %s5 = cuda_tile.store_view_tko weak %a, %pv[%i, %i] : !cuda_tile.tile<16x32xf32>, !cuda_tile.partition_view<tile=(16x32), !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token
    return
  }

  // atomic_red_view_tko: every mode it allows, tl_blk and device scopes, i32/i64/f16/bf16/f32/f64.
  // CHECK-LABEL: entry @view_reductions(
  entry @view_reductions(%tv: tensor_view<64x64xi32, strides=[64,1]>, %tv64: tensor_view<64x64xi64, strides=[64,1]>, %tvf: tensor_view<64x64xf32, strides=[64,1]>, %tvh: tensor_view<64x64xf16, strides=[64,1]>, %tvb: tensor_view<64x64xbf16, strides=[64,1]>, %tvd: tensor_view<64x64xf64, strides=[64,1]>, %i: tile<i32>) {
    // CHECK-NEXT: %pv = make_partition_view %tv : partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>
    %pv = make_partition_view %tv : partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>
    // CHECK-NEXT: %v, %tl = load_view_tko weak %pv[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> tile<32x32xi32>, token
    %v, %tl = load_view_tko weak %pv[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> tile<32x32xi32>, token
    // CHECK-NEXT: %r0 = atomic_red_view_tko relaxed device %pv[%i, %i], and, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r0 = atomic_red_view_tko relaxed device %pv[%i, %i], and, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r1 = atomic_red_view_tko relaxed device %pv[%i, %i], or, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r1 = atomic_red_view_tko relaxed device %pv[%i, %i], or, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r2 = atomic_red_view_tko relaxed device %pv[%i, %i], xor, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r2 = atomic_red_view_tko relaxed device %pv[%i, %i], xor, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r3 = atomic_red_view_tko relaxed tl_blk %pv[%i, %i], add, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r3 = atomic_red_view_tko relaxed tl_blk %pv[%i, %i], add, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r4 = atomic_red_view_tko relaxed tl_blk %pv[%i, %i], max, %v token = %r3 : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r4 = atomic_red_view_tko relaxed tl_blk %pv[%i, %i], max, %v token = %r3 : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r5 = atomic_red_view_tko relaxed device %pv[%i, %i], min, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r5 = atomic_red_view_tko relaxed device %pv[%i, %i], min, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r6 = atomic_red_view_tko relaxed device %pv[%i, %i], umax, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r6 = atomic_red_view_tko relaxed device %pv[%i, %i], umax, %v : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %r7 = atomic_red_view_tko relaxed device %pv[%i, %i], umin, %v attributes {note} : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    %r7 = atomic_red_view_tko relaxed device %pv[%i, %i], umin, %v attributes {note} : tile<32x32xi32>, partition_view<tile=(32x32), tensor_view<64x64xi32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %sv64 = make_strided_view %tv64 : strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>
    %sv64 = make_strided_view %tv64 : strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>
    // CHECK-NEXT: %v64, %tl64 = load_view_tko weak %sv64[%i, %i] : strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>, tile<i32> -> tile<32x32xi64>, token
    %v64, %tl64 = load_view_tko weak %sv64[%i, %i] : strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>, tile<i32> -> tile<32x32xi64>, token
    // CHECK-NEXT: %r8 = atomic_red_view_tko relaxed device %sv64[%i, %i], add, %v64 : tile<32x32xi64>, strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>, tile<i32> -> token
    %r8 = atomic_red_view_tko relaxed device %sv64[%i, %i], add, %v64 : tile<32x32xi64>, strided_view<tile=(32x32), traversal_strides=[16,16], tensor_view<64x64xi64, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %pf = make_partition_view %tvf : partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>
    %pf = make_partition_view %tvf : partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>
    // CHECK-NEXT: %vf, %tlf = load_view_tko weak %pf[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x32xf32>, token
    %vf, %tlf = load_view_tko weak %pf[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x32xf32>, token
    // CHECK-NEXT: %r9 = atomic_red_view_tko relaxed device %pf[%i, %i], addf, %vf : tile<32x32xf32>, partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
    %r9 = atomic_red_view_tko relaxed device %pf[%i, %i], addf, %vf : tile<32x32xf32>, partition_view<tile=(32x32), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %ph = make_partition_view %tvh : partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>
    %ph = make_partition_view %tvh : partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>
    // CHECK-NEXT: %vh, %tlh = load_view_tko weak %ph[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>, tile<i32> -> tile<32x32xf16>, token
    %vh, %tlh = load_view_tko weak %ph[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>, tile<i32> -> tile<32x32xf16>, token
    // CHECK-NEXT: %r10 = atomic_red_view_tko relaxed device %ph[%i, %i], addf, %vh : tile<32x32xf16>, partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>, tile<i32> -> token
    %r10 = atomic_red_view_tko relaxed device %ph[%i, %i], addf, %vh : tile<32x32xf16>, partition_view<tile=(32x32), tensor_view<64x64xf16, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %pb = make_partition_view %tvb : partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>
    %pb = make_partition_view %tvb : partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>
    // CHECK-NEXT: %vb, %tlb = load_view_tko weak %pb[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x32xbf16>, token
    %vb, %tlb = load_view_tko weak %pb[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x32xbf16>, token
    // CHECK-NEXT: %r11 = atomic_red_view_tko relaxed device %pb[%i, %i], addf, %vb : tile<32x32xbf16>, partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>, tile<i32> -> token
    %r11 = atomic_red_view_tko relaxed device %pb[%i, %i], addf, %vb : tile<32x32xbf16>, partition_view<tile=(32x32), tensor_view<64x64xbf16, strides=[64,1]>>, tile<i32> -> token
    // CHECK-NEXT: %pd = make_partition_view %tvd : partition_view<tile=(32x32), tensor_view<64x64xf64, strides=[64,1]>>
    %pd = make_partition_view %tvd : partition_view<tile=(32x32), tensor_view<64x64xf64, strides=[64,1]>>
    // CHECK-NEXT: %vd, %tld = load_view_tko weak %pd[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x32xf64>, token
    %vd, %tld = load_view_tko weak %pd[%i, %i] : partition_view<tile=(32x32), tensor_view<64x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x32xf64>, token
    // CHECK-NEXT: %r12 = atomic_red_view_tko relaxed device %pd[%i, %i], addf, %vd : tile<32x32xf64>, partition_view<tile=(32x32), tensor_view<64x64xf64, strides=[64,1]>>, tile<i32> -> token
    %r12 = cuda_tile.atomic_red_view_tko relaxed device %pd[%i, %i], addf, %vd : !cuda_tile.tile<32x32xf64>, !cuda_tile.partition_view<tile=(32x32), !cuda_tile.tensor_view<64x64xf64, strides=[64,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token
    return
  }

  // load_ptr_tko / store_ptr_tko: scalar and shaped pointers, mask, padding, token
  // (written `token=`), scopes, hints.
  // CHECK-LABEL: entry @pointer_access(
  entry @pointer_access(%p: tile<ptr<f32>>, %m: tile<i1>, %x: tile<f32>) {
    // CHECK-NEXT: %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    // CHECK-NEXT: %ps = broadcast %p1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %ps = broadcast %p1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    // CHECK-NEXT: %ms = constant <i1: [true, false, true, false, true, false, true, false]> : tile<8xi1>
    %ms = constant <i1: [1, 0, 1, 0, 1, 0, 1, 0]> : tile<8xi1>
    // CHECK-NEXT: %pad = constant <f32: 0.000000e+00> : tile<8xf32>
    %pad = constant <f32: 0.0> : tile<8xf32>
    // CHECK-NEXT: %t0 = make_token : token
    %t0 = make_token : token
    // CHECK-NEXT: %a, %ta = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
    %a, %ta = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
    // CHECK-NEXT: %b, %tb = load_ptr_tko weak %ps, %ms : tile<8xptr<f32>>, tile<8xi1> -> tile<8xf32>, token
    %b, %tb = load_ptr_tko weak %ps, %ms : tile<8xptr<f32>>, tile<8xi1> -> tile<8xf32>, token
    // CHECK-NEXT: %c, %tc = load_ptr_tko weak %ps, %ms, %pad token=%t0 : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
    %c, %tc = load_ptr_tko weak %ps, %ms, %pad token=%t0 : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
    // CHECK-NEXT: %d, %td = load_ptr_tko relaxed tl_blk %p, %m : tile<ptr<f32>>, tile<i1> -> tile<f32>, token
    %d, %td = load_ptr_tko relaxed tl_blk %p, %m : tile<ptr<f32>>, tile<i1> -> tile<f32>, token
    // CHECK-NEXT: %e, %te = load_ptr_tko relaxed device %p token=%ta : tile<ptr<f32>> -> tile<f32>, token
    %e, %te = load_ptr_tko relaxed device %p token = %ta : tile<ptr<f32>> -> tile<f32>, token
    // CHECK-NEXT: %f, %tf = load_ptr_tko acquire sys %ps optimization_hints = <sm_90 = {latency = 5}> : tile<8xptr<f32>> -> tile<8xf32>, token
    %f, %tf = load_ptr_tko acquire sys %ps optimization_hints = <sm_90 = {latency = 5}> : tile<8xptr<f32>> -> tile<8xf32>, token
    // CHECK-NEXT: %g, %tg = load_ptr_tko weak %p {note} : tile<ptr<f32>> -> tile<f32>, token
    %g, %tg = load_ptr_tko weak %p {note} : tile<ptr<f32>> -> tile<f32>, token
    // CHECK-NEXT: %h, %th = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
    %h, %th = cuda_tile.load_ptr_tko weak %p : !cuda_tile.tile<!cuda_tile.ptr<f32>> -> !cuda_tile.tile<f32>, !cuda_tile.token
    // CHECK-NEXT: %s0 = store_ptr_tko weak %p, %x : tile<ptr<f32>>, tile<f32> -> token
    %s0 = store_ptr_tko weak %p, %x : tile<ptr<f32>>, tile<f32> -> token
    // CHECK-NEXT: %s1 = store_ptr_tko weak %ps, %b, %ms token=%t0 : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token
    %s1 = store_ptr_tko weak %ps, %b, %ms token=%t0 : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token
    // CHECK-NEXT: %s2 = store_ptr_tko relaxed tl_blk %p, %x, %m : tile<ptr<f32>>, tile<f32>, tile<i1> -> token
    %s2 = store_ptr_tko relaxed tl_blk %p, %x, %m : tile<ptr<f32>>, tile<f32>, tile<i1> -> token
    // CHECK-NEXT: %s3 = store_ptr_tko relaxed device %p, %x token=%s0 : tile<ptr<f32>>, tile<f32> -> token
    %s3 = store_ptr_tko relaxed device %p, %x token=%s0 : tile<ptr<f32>>, tile<f32> -> token
    // CHECK-NEXT: %s4 = store_ptr_tko release sys %ps, %c optimization_hints = <default = {latency = 2}> : tile<8xptr<f32>>, tile<8xf32> -> token
    %s4 = store_ptr_tko release sys %ps, %c optimization_hints = <default = {latency = 2}> : tile<8xptr<f32>>, tile<8xf32> -> token
    // CHECK-NEXT: %s5 = store_ptr_tko weak %p, %x : tile<ptr<f32>>, tile<f32> -> token
    %s5 = cuda_tile.store_ptr_tko weak %p, %x : !cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<f32> -> !cuda_tile.token
    return
  }

  // atomic_cas_tko / atomic_rmw_tko: every ordering, scope and mode, masks and tokens.
  // CHECK-LABEL: entry @atomics(
  entry @atomics(%pi: tile<ptr<i32>>, %pl: tile<ptr<i64>>, %pf: tile<ptr<f32>>, %pd: tile<ptr<f64>>, %ph: tile<ptr<f16>>, %pb: tile<ptr<bf16>>, %i: tile<i32>, %l: tile<i64>, %f: tile<f32>, %d: tile<f64>, %h: tile<f16>, %b: tile<bf16>, %m: tile<i1>) {
    // CHECK-NEXT: %t0 = make_token : token
    %t0 = make_token : token
    // CHECK-NEXT: %c0, %tc0 = atomic_cas_tko relaxed device %pi, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %c0, %tc0 = atomic_cas_tko relaxed device %pi, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %c1, %tc1 = atomic_cas_tko acquire tl_blk %pl, %l, %l, %m : tile<ptr<i64>>, tile<i64>, tile<i1> -> tile<i64>, token
    %c1, %tc1 = atomic_cas_tko acquire tl_blk %pl, %l, %l, %m : tile<ptr<i64>>, tile<i64>, tile<i1> -> tile<i64>, token
    // CHECK-NEXT: %c2, %tc2 = atomic_cas_tko release sys %pf, %f, %f token=%t0 : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    %c2, %tc2 = atomic_cas_tko release sys %pf, %f, %f token=%t0 : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    // CHECK-NEXT: %c3, %tc3 = atomic_cas_tko acq_rel device %pd, %d, %d, %m token=%tc2 : tile<ptr<f64>>, tile<f64>, tile<i1> -> tile<f64>, token
    %c3, %tc3 = atomic_cas_tko acq_rel device %pd, %d, %d, %m token=%tc2 : tile<ptr<f64>>, tile<f64>, tile<i1> -> tile<f64>, token
    // CHECK-NEXT: %pi1 = reshape %pi : tile<ptr<i32>> -> tile<1xptr<i32>>
    %pi1 = reshape %pi : tile<ptr<i32>> -> tile<1xptr<i32>>
    // CHECK-NEXT: %pis = broadcast %pi1 : tile<1xptr<i32>> -> tile<8xptr<i32>>
    %pis = broadcast %pi1 : tile<1xptr<i32>> -> tile<8xptr<i32>>
    // CHECK-NEXT: %vals = iota : tile<8xi32>
    %vals = iota : tile<8xi32>
    // CHECK-NEXT: %ms = constant <i1: [true, true, true, true, false, false, false, false]> : tile<8xi1>
    %ms = constant <i1: [1, 1, 1, 1, 0, 0, 0, 0]> : tile<8xi1>
    // CHECK-NEXT: %c4, %tc4 = atomic_cas_tko relaxed device %pis, %vals, %vals, %ms : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
    %c4, %tc4 = atomic_cas_tko relaxed device %pis, %vals, %vals, %ms : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
    // CHECK-NEXT: %r0, %tr0 = atomic_rmw_tko relaxed device %pi, and, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r0, %tr0 = atomic_rmw_tko relaxed device %pi, and, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r1, %tr1 = atomic_rmw_tko relaxed device %pi, or, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r1, %tr1 = atomic_rmw_tko relaxed device %pi, or, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r2, %tr2 = atomic_rmw_tko relaxed device %pi, xor, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r2, %tr2 = atomic_rmw_tko relaxed device %pi, xor, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r3, %tr3 = atomic_rmw_tko acquire device %pl, add, %l : tile<ptr<i64>>, tile<i64> -> tile<i64>, token
    %r3, %tr3 = atomic_rmw_tko acquire device %pl, add, %l : tile<ptr<i64>>, tile<i64> -> tile<i64>, token
    // CHECK-NEXT: %r4, %tr4 = atomic_rmw_tko release device %pf, addf, %f : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    %r4, %tr4 = atomic_rmw_tko release device %pf, addf, %f : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    // CHECK-NEXT: %r5, %tr5 = atomic_rmw_tko acq_rel sys %pi, max, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r5, %tr5 = atomic_rmw_tko acq_rel sys %pi, max, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r6, %tr6 = atomic_rmw_tko relaxed tl_blk %pi, min, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r6, %tr6 = atomic_rmw_tko relaxed tl_blk %pi, min, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r7, %tr7 = atomic_rmw_tko relaxed device %pl, umax, %l, %m : tile<ptr<i64>>, tile<i64>, tile<i1> -> tile<i64>, token
    %r7, %tr7 = atomic_rmw_tko relaxed device %pl, umax, %l, %m : tile<ptr<i64>>, tile<i64>, tile<i1> -> tile<i64>, token
    // CHECK-NEXT: %r8, %tr8 = atomic_rmw_tko relaxed device %pi, umin, %i token=%t0 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r8, %tr8 = atomic_rmw_tko relaxed device %pi, umin, %i token=%t0 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    // CHECK-NEXT: %r9, %tr9 = atomic_rmw_tko relaxed device %pd, xchg, %d, %m token=%tr8 : tile<ptr<f64>>, tile<f64>, tile<i1> -> tile<f64>, token
    %r9, %tr9 = atomic_rmw_tko relaxed device %pd, xchg, %d, %m token=%tr8 : tile<ptr<f64>>, tile<f64>, tile<i1> -> tile<f64>, token
    // CHECK-NEXT: %r10, %tr10 = atomic_rmw_tko relaxed device %pd, addf, %d : tile<ptr<f64>>, tile<f64> -> tile<f64>, token
    %r10, %tr10 = atomic_rmw_tko relaxed device %pd, addf, %d : tile<ptr<f64>>, tile<f64> -> tile<f64>, token
    // CHECK-NEXT: %r11, %tr11 = atomic_rmw_tko relaxed device %ph, addf, %h : tile<ptr<f16>>, tile<f16> -> tile<f16>, token
    %r11, %tr11 = atomic_rmw_tko relaxed device %ph, addf, %h : tile<ptr<f16>>, tile<f16> -> tile<f16>, token
    // CHECK-NEXT: %r12, %tr12 = atomic_rmw_tko relaxed device %pb, addf, %b : tile<ptr<bf16>>, tile<bf16> -> tile<bf16>, token
    %r12, %tr12 = atomic_rmw_tko relaxed device %pb, addf, %b : tile<ptr<bf16>>, tile<bf16> -> tile<bf16>, token
    // CHECK-NEXT: %r13, %tr13 = atomic_rmw_tko relaxed device %pis, add, %vals, %ms {note} : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
    %r13, %tr13 = atomic_rmw_tko relaxed device %pis, add, %vals, %ms {note} : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
    // CHECK-NEXT: %r14, %tr14 = atomic_rmw_tko relaxed device %pi, xchg, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %r14, %tr14 = cuda_tile.atomic_rmw_tko relaxed device %pi, xchg, %i : !cuda_tile.tile<!cuda_tile.ptr<i32>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<i32>, !cuda_tile.token
    // CHECK-NEXT: %c5, %tc5 = atomic_cas_tko relaxed device %pi, %i, %i : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %c5, %tc5 = cuda_tile.atomic_cas_tko relaxed device %pi, %i, %i : !cuda_tile.tile<!cuda_tile.ptr<i32>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<i32>, !cuda_tile.token
    return
  }

  // make_token, join_tokens, memory_fence_alias_tko (13.4), alloca.
  // CHECK-LABEL: entry @tokens_and_allocation(
  entry @tokens_and_allocation() {
    // CHECK-NEXT: %t0 = make_token : token
    %t0 = make_token : token
    // CHECK-NEXT: %t1 = make_token {note} : token
    %t1 = make_token {note} : token
    // CHECK-NEXT: %j2 = join_tokens %t0, %t1 : token
    %j2 = join_tokens %t0, %t1 : token
    // CHECK-NEXT: %j3 = join_tokens %t0, %t1, %j2 : token
    %j3 = join_tokens %t0, %t1, %j2 : token
    // CHECK-NEXT: %f0 = memory_fence_alias_tko %j3
    %f0 = memory_fence_alias_tko %j3
    // CHECK-NEXT: %f1 = memory_fence_alias_tko %f0 {note}
    %f1 = memory_fence_alias_tko %f0 {note}
    // CHECK-NEXT: %q0 = make_token : token
    %q0 = cuda_tile.make_token : !cuda_tile.token
    // CHECK-NEXT: %q1 = join_tokens %q0, %f1 : token
    %q1 = cuda_tile.join_tokens %q0, %f1 : !cuda_tile.token
    // CHECK-NEXT: %q2 = memory_fence_alias_tko %q1
    %q2 = cuda_tile.memory_fence_alias_tko %q1
    // CHECK-NEXT: %a0 = alloca num_elem = 64, alignment = 128 : tile<ptr<f32>>
    %a0 = alloca num_elem = 64, alignment = 128 : tile<ptr<f32>>
    // CHECK-NEXT: %a1 = alloca num_elem = 64, alignment = 128 global : tile<ptr<f32>>
    %a1 = alloca num_elem = 64, alignment = 128 global : tile<ptr<f32>>
    // CHECK-NEXT: %a2 = alloca num_elem = 0, alignment = 1 : tile<ptr<i1>>
    %a2 = alloca num_elem = 0, alignment = 1 : tile<ptr<i1>>
    // CHECK-NEXT: %a3 = alloca num_elem = 16, alignment = 8 global {note} : tile<ptr<i64>>
    %a3 = alloca num_elem = 16, alignment = 8 global {note} : tile<ptr<i64>>
    // CHECK-NEXT: %a4 = alloca num_elem = 32, alignment = 2 : tile<ptr<bf16>>
    %a4 = alloca num_elem = 32, alignment = 2 : tile<ptr<bf16>>
    // CHECK-NEXT: %a5 = alloca num_elem = 1, alignment = 8 : tile<ptr<f64>>
    %a5 = cuda_tile.alloca num_elem = 1, alignment = 8 : !cuda_tile.tile<!cuda_tile.ptr<f64>>
    return
  }
}
