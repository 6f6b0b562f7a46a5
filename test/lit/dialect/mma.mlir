// RUN: %roundtrip %s | filecheck %s

cuda_tile.module @mma {
  // CHECK-LABEL: entry @mmaf_types
  entry @mmaf_types() {
    %f16a = constant <f16: 1.0> : tile<4x8xf16>
    %f16b = constant <f16: 1.0> : tile<8x16xf16>
    %bf16a = constant <bf16: 1.0> : tile<4x8xbf16>
    %bf16b = constant <bf16: 1.0> : tile<8x16xbf16>
    %tf32a = constant <tf32: 1.0> : tile<4x8xtf32>
    %tf32b = constant <tf32: 1.0> : tile<8x16xtf32>
    %f32a = constant <f32: 1.0> : tile<4x8xf32>
    %f32b = constant <f32: 1.0> : tile<8x16xf32>
    %f64a = constant <f64: 1.0> : tile<4x8xf64>
    %f64b = constant <f64: 1.0> : tile<8x16xf64>
    %e4a = constant <f8E4M3FN: 1.0> : tile<4x8xf8E4M3FN>
    %e4b = constant <f8E4M3FN: 1.0> : tile<8x16xf8E4M3FN>
    %e5a = constant <f8E5M2: 1.0> : tile<4x8xf8E5M2>
    %e5b = constant <f8E5M2: 1.0> : tile<8x16xf8E5M2>
    %acc16 = constant <f16: 0.0> : tile<4x16xf16>
    %acc32 = constant <f32: 0.0> : tile<4x16xf32>
    %acc64 = constant <f64: 0.0> : tile<4x16xf64>
    // Every input type with every accumulator type it allows.
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf16>
    %0 = mmaf %f16a, %f16b, %acc16 : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf16>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf32>
    %1 = mmaf %f16a, %f16b, %acc32 : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xbf16>, tile<8x16xbf16>, tile<4x16xf32>
    %2 = mmaf %bf16a, %bf16b, %acc32 : tile<4x8xbf16>, tile<8x16xbf16>, tile<4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xtf32>, tile<8x16xtf32>, tile<4x16xf32>
    %3 = mmaf %tf32a, %tf32b, %acc32 : tile<4x8xtf32>, tile<8x16xtf32>, tile<4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf32>, tile<8x16xf32>, tile<4x16xf32>
    %4 = mmaf %f32a, %f32b, %acc32 : tile<4x8xf32>, tile<8x16xf32>, tile<4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf64>, tile<8x16xf64>, tile<4x16xf64>
    %5 = mmaf %f64a, %f64b, %acc64 : tile<4x8xf64>, tile<8x16xf64>, tile<4x16xf64>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf8E4M3FN>, tile<8x16xf8E4M3FN>, tile<4x16xf16>
    %6 = mmaf %e4a, %e4b, %acc16 : tile<4x8xf8E4M3FN>, tile<8x16xf8E4M3FN>, tile<4x16xf16>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<4x8xf8E5M2>, tile<8x16xf8E5M2>, tile<4x16xf32>
    %7 = mmaf %e5a, %e5b, %acc32 : tile<4x8xf8E5M2>, tile<8x16xf8E5M2>, tile<4x16xf32>
    // fast_acc (13.3): NVIDIA's verifier accepts it on any input type.
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} fast_acc : tile<4x8xf8E4M3FN>, tile<8x16xf8E4M3FN>, tile<4x16xf32>
    %8 = mmaf %e4a, %e4b, %acc32 fast_acc : tile<4x8xf8E4M3FN>, tile<8x16xf8E4M3FN>, tile<4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} fast_acc : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf32>
    %9 = cuda_tile.mmaf %f16a, %f16b, %acc32 fast_acc : !cuda_tile.tile<4x8xf16>, !cuda_tile.tile<8x16xf16>, !cuda_tile.tile<4x16xf32>
    return
  }

  // CHECK-LABEL: entry @batched
  entry @batched() {
    %a = constant <f16: 1.0> : tile<2x4x8xf16>
    %b = constant <f16: 1.0> : tile<2x8x16xf16>
    %c = constant <f32: 0.0> : tile<2x4x16xf32>
    // CHECK: mmaf %{{.*}}, %{{.*}}, %{{.*}} : tile<2x4x8xf16>, tile<2x8x16xf16>, tile<2x4x16xf32>
    %0 = mmaf %a, %b, %c : tile<2x4x8xf16>, tile<2x8x16xf16>, tile<2x4x16xf32>
    %ia = constant <i8: 1> : tile<2x4x8xi8>
    %ib = constant <i8: 1> : tile<2x8x16xi8>
    %ic = constant <i32: 0> : tile<2x4x16xi32>
    // CHECK: mmai %{{.*}}, %{{.*}}, %{{.*}} unsigned unsigned : tile<2x4x8xi8>, tile<2x8x16xi8>, tile<2x4x16xi32>
    %1 = mmai %ia, %ib, %ic unsigned unsigned : tile<2x4x8xi8>, tile<2x8x16xi8>, tile<2x4x16xi32>
    return
  }

  // CHECK-LABEL: entry @mmai_signedness
  entry @mmai_signedness() {
    %a = constant <i8: 1> : tile<4x8xi8>
    %b = constant <i8: 1> : tile<8x16xi8>
    %c = constant <i32: 0> : tile<4x16xi32>
    // CHECK: mmai %{{.*}}, %{{.*}}, %{{.*}} signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
    %0 = mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
    // CHECK: mmai %{{.*}}, %{{.*}}, %{{.*}} signed unsigned : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
    %1 = mmai %a, %b, %0 signed unsigned : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
    // CHECK: mmai %{{.*}}, %{{.*}}, %{{.*}} unsigned signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
    %2 = cuda_tile.mmai %a, %b, %1 unsigned signed : !cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x16xi8>, !cuda_tile.tile<4x16xi32>
    return
  }

  // Block scales: K / K_scale is the number of elements one scale covers.
  // CHECK-LABEL: entry @mmaf_scaled
  entry @mmaf_scaled() {
    %acc = constant <f32: 0.0> : tile<16x16xf32>
    %e4a = constant <f8E4M3FN: 1.0> : tile<16x64xf8E4M3FN>
    %e4b = constant <f8E4M3FN: 1.0> : tile<64x16xf8E4M3FN>
    %e5a = constant <f8E5M2: 1.0> : tile<16x64xf8E5M2>
    %e5b = constant <f8E5M2: 1.0> : tile<64x16xf8E5M2>
    %f4a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %f4b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %ue8a2 = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %ue8b2 = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    %ue8a4 = constant <f8E8M0FNU: 1.0> : tile<16x4xf8E8M0FNU>
    %ue8b4 = constant <f8E8M0FNU: 1.0> : tile<4x16xf8E8M0FNU>
    %e4sa = constant <f8E4M3FN: 1.0> : tile<16x4xf8E4M3FN>
    %e4sb = constant <f8E4M3FN: 1.0> : tile<4x16xf8E4M3FN>
    // f8 inputs, f8E8M0FNU scales, 32 elements per scale.
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %0 = mmaf_scaled %e4a, %e4b, %acc, %ue8a2, %ue8b2 : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<16x64xf8E5M2>, tile<64x16xf8E5M2>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %1 = mmaf_scaled %e5a, %e5b, %0, %ue8a2, %ue8b2 : tile<16x64xf8E5M2>, tile<64x16xf8E5M2>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    // f4 inputs: f8E8M0FNU scales cover 32 or 16 elements, f8E4M3FN scales 16.
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    %2 = mmaf_scaled %f4a, %f4b, %acc, %ue8a2, %ue8b2 : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, tile<4x16xf8E8M0FNU>
    %3 = mmaf_scaled %f4a, %f4b, %acc, %ue8a4, %ue8b4 : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, tile<4x16xf8E8M0FNU>
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xf8E4M3FN>, tile<4x16xf8E4M3FN>
    %4 = cuda_tile.mmaf_scaled %f4a, %f4b, %acc, %e4sa, %e4sb : !cuda_tile.tile<16x64xf4E2M1FN>, !cuda_tile.tile<64x16xf4E2M1FN>, !cuda_tile.tile<16x16xf32>, !cuda_tile.tile<16x4xf8E4M3FN>, !cuda_tile.tile<4x16xf8E4M3FN>
    return
  }

  // CHECK-LABEL: entry @mmaf_scaled_batched
  entry @mmaf_scaled_batched() {
    %a = constant <f4E2M1FN: 1.0> : tile<2x16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<2x64x16xf4E2M1FN>
    %c = constant <f32: 0.0> : tile<2x16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<2x16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x2x16xf8E8M0FNU>
    // CHECK: mmaf_scaled %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tile<2x16x64xf4E2M1FN>, tile<2x64x16xf4E2M1FN>, tile<2x16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<2x2x16xf8E8M0FNU>
    %0 = mmaf_scaled %a, %b, %c, %sa, %sb : tile<2x16x64xf4E2M1FN>, tile<2x64x16xf4E2M1FN>, tile<2x16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<2x2x16xf8E8M0FNU>
    return
  }

  // 13.4 developer preview: f4E2M1FN inputs with fnv8E5M3FNU block scales.
  // CHECK-LABEL: entry @mmaf_scaled_fnv8(%s: tile<fnv8E5M3FNU>)
  entry @mmaf_scaled_fnv8(%s: tile<f8E5M3FNU>) {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 0.0> : tile<16x16xf32>
    %s1 = reshape %s : tile<fnv8E5M3FNU> -> tile<1x1xfnv8E5M3FNU>
    %sa = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<16x4xfnv8E5M3FNU>
    %sb = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<4x16xfnv8E5M3FNU>
    // CHECK: mmaf_scaled %{{.*}} : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xfnv8E5M3FNU>, tile<4x16xfnv8E5M3FNU>
    %0 = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xfnv8E5M3FNU>, tile<4x16xfnv8E5M3FNU>
    return
  }
}
