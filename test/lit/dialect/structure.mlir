// RUN: %roundtrip %s | filecheck %s

// CHECK: cuda_tile.module @structure attributes {producer = "safetile test"} {
cuda_tile.module @structure attributes {producer = "safetile test"} {
  // Globals: visibility (public is the default and not printed), constant,
  // alignment (0 is the default and not printed), values as `constant` prints them.
  // CHECK: global constant @g1 <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
  global constant @g1 <f32 : [1.0, 2.0]> : !cuda_tile.tile<2xf32>
  // CHECK: global @g2 alignment = 256 <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
  global @g2 alignment = 256 <f32: [1.0, 2.0]> : tile<2xf32>
  // CHECK: global @g3 <i32: 42> : tile<1xi32>
  global @g3 <i32: [42]> : tile<1xi32>
  // CHECK: global @g4 <i32: 42> : tile<1xi32>
  global public @g4 <i32: [42]> : tile<1xi32>
  // CHECK: global private @g5 <i32: [1, 2, 3, 4]> : tile<4xi32>
  global private @g5 <i32: [1, 2, 3, 4]> : tile<4xi32>
  // CHECK: global private @g6 alignment = 128 <i64: 100> : tile<1xi64>
  global private @g6 alignment = 128 <i64: [100]> : tile<1xi64>
  // CHECK: global private constant @g7 <i8: [-1, 0]> : tile<2xi8>
  global private constant @g7 <i8: [-1, 0]> : tile<2xi8>
  // CHECK: global constant @g8 alignment = 128 <f64: 2.718000e+00> : tile<1xf64>
  global constant @g8 alignment = 128 <f64: [2.718]> : tile<1xf64>
  // CHECK: global @g9 <f16: [1.000000e+00, 2.000000e+00]> : tile<2xf16>
  global @g9 alignment = 0 <f16: [1.0, 2.0]> : tile<2xf16>
  // CHECK: global @g10 {tag = 1 : i32} <i1: [true, false]> : tile<2xi1>
  global @g10 {tag = 1 : i32} <i1: [true, false]> : tile<2xi1>
  // CHECK: global @g11 <bf16: [1.000000e+00, 2.000000e+00]> : tile<2xbf16>
  cuda_tile.global @g11 <bf16: [1.0, 2.0]> : !cuda_tile.tile<2xbf16>

  // CHECK: entry @globals() {
  // CHECK-NEXT: %p1 = get_global @g1 : tile<ptr<f32>>
  // CHECK-NEXT: %p5 = get_global @g5 : tile<ptr<i32>>
  // CHECK-NEXT: %p10 = get_global @g10 : tile<ptr<i1>>
  // CHECK-NEXT: %p11 = get_global @g11 : tile<ptr<bf16>>
  // CHECK-NEXT: return
  entry @globals() {
    %p1 = get_global @g1 : tile<ptr<f32>>
    %p5 = get_global @g5 : tile<ptr<i32>>
    %p10 = get_global @g10 : tile<ptr<i1>>
    %p11 = cuda_tile.get_global @g11 : !cuda_tile.tile<!cuda_tile.ptr<bf16>>
  }

  // An omitted `return` is implicit, and always printed.
  // CHECK: entry @empty() {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  entry @empty() {}

  // CHECK: entry @scalars(%a: tile<i1>, %b: tile<i8>, %c: tile<i16>, %d: tile<i32>, %e: tile<i64>, %f: tile<f16>, %g: tile<bf16>, %h: tile<f32>, %i: tile<f64>, %p: tile<ptr<f32>>) {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  entry @scalars(%a: tile<i1>, %b: tile<i8>, %c: tile<i16>, %d: tile<i32>, %e: tile<i64>,
                 %f: tile<f16>, %g: tile<bf16>, %h: tile<f32>, %i: tile<f64>, %p: tile<ptr<f32>>) {
    return
  }

  // Views are allowed as kernel arguments.
  // CHECK: entry @views(%v: tensor_view<16x?xf32, strides=[?,1]>, %n: tile<i32>) {
  entry @views(%v: tensor_view<16x?xf32, strides=[?,1]>, %n: tile<i32>) {
    return
  }

  // CHECK: entry @hints(%a: tile<ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
  entry @hints(%a: tile<ptr<f32>>) optimization_hints=<sm_100={num_cta_in_cga=2}> {
    return
  }

  // Architectures and hints print sorted by name, as MLIR dictionaries do.
  // CHECK: entry @more_hints() optimization_hints=<default = {occupancy = 1}, sm_120 = {num_cta_in_cga = 1}, sm_90 = {num_worker_warps_per_cta = 4, occupancy = 2}> {
  entry @more_hints() optimization_hints=<sm_90 = {num_worker_warps_per_cta = 4, occupancy = 2}, sm_120 = {num_cta_in_cga = 1}, default = {occupancy = 1}> {
  }

  // As in NVIDIA's tools, hints they do not know are kept without complaint.
  // CHECK: entry @unknown_hints() optimization_hints=<sm_100a = {num_qqq = 1}> {
  entry @unknown_hints() optimization_hints=<sm_100a = {num_qqq = 1}> {
  }

  // CHECK: entry @empty_arch_hints() optimization_hints=<default = {}> {
  entry @empty_arch_hints() optimization_hints=<default = {}> {
  }

  // Discardable attributes follow the body.
  // CHECK: entry @attrs() {
  // CHECK-NEXT: return
  // CHECK-NEXT: } {tag = 1 : i32}
  entry @attrs() {
  } {tag = 1 : i32}

  // Fully qualified spelling prints canonically.
  // CHECK: entry @qualified(%x: tile<f32>) {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  cuda_tile.entry @qualified(%x: !cuda_tile.tile<f32>) {
    cuda_tile.return
  }

  // `return` from inside `if` branches (early exit).
  // CHECK: entry @early_exit(%c: tile<i1>) {
  // CHECK-NEXT: if %c {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  entry @early_exit(%c: tile<i1>) {
    if %c {
      return
    }
    return
  }
}

// A module without attributes.
// CHECK: cuda_tile.module @plain {
// CHECK-NEXT: }
cuda_tile.module @plain {
}
