// RUN: %roundtrip %s | filecheck %s

// The combiner region is printed on its own line after the types; NVIDIA's
// printer leaves a space before that line break.

cuda_tile.module @reduction {
  // CHECK-LABEL: entry @reduce
  entry @reduce() {
    %x = constant <f32: 1.0> : tile<1x256xf32>
    %v = constant <f32: 1.0> : tile<8xf32>
    // CHECK: %[[R0:.*]] = reduce %{{.*}} dim=1 identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1xf32>
    // CHECK-NEXT: (%[[L:.*]]: tile<f32>, %[[R:.*]]: tile<f32>) {
    // CHECK-NEXT:   %[[S:.*]] = addf %[[L]], %[[R]] : tile<f32>
    // CHECK-NEXT:   yield %[[S]] : tile<f32>
    // CHECK-NEXT: }
    %r0 = reduce %x dim=1 identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1xf32>
    (%l: tile<f32>, %r: tile<f32>) {
      %s = addf %l, %r : tile<f32>
      yield %s : tile<f32>
    }
    // Reducing a 1-d tile gives a scalar; identities take any float spelling.
    // CHECK: reduce %{{.*}} dim=0 identities=[1.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    // CHECK-NEXT: (%{{.*}}: tile<f32>, %{{.*}}: tile<f32>) {
    // CHECK-NEXT:   mulf
    %r1 = reduce %v dim=0 identities=[1.0 : f32] : tile<8xf32> -> tile<f32>
    (%l: tile<f32>, %r: tile<f32>) {
      %p = mulf %l, %r : tile<f32>
      yield %p : tile<f32>
    }
    // CHECK: reduce %{{.*}} dim=0 identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<256xf32>
    %r2 = cuda_tile.reduce %x dim=0 identities=[0.000000e+00 : f32] : !cuda_tile.tile<1x256xf32> -> !cuda_tile.tile<256xf32>
    (%l: !cuda_tile.tile<f32>, %r: !cuda_tile.tile<f32>) {
      %m = cuda_tile.maxf %l, %r : !cuda_tile.tile<f32>
      cuda_tile.yield %m : !cuda_tile.tile<f32>
    }
    return
  }

  // Several tiles reduced together: an argmax over (value, index) pairs.
  // CHECK-LABEL: entry @reduce_variadic
  entry @reduce_variadic() {
    %x = constant <f32: 1.0> : tile<8x16xf32>
    %i = constant <i32: 1> : tile<8x16xi32>
    // CHECK: %{{.*}}, %{{.*}} = reduce %{{.*}}, %{{.*}} dim=1 identities=[0xFF800000 : f32, 0 : i32] : tile<8x16xf32>, tile<8x16xi32> -> tile<8xf32>, tile<8xi32>
    // CHECK-NEXT: (%{{.*}}: tile<f32>, %{{.*}}: tile<f32>, %{{.*}}: tile<i32>, %{{.*}}: tile<i32>) {
    // CHECK: yield %{{.*}}, %{{.*}} : tile<f32>, tile<i32>
    %m, %k = reduce %x, %i dim=1 identities=[0xFF800000 : f32, 0 : i32] : tile<8x16xf32>, tile<8x16xi32> -> tile<8xf32>, tile<8xi32>
    (%v: tile<f32>, %vacc: tile<f32>, %j: tile<i32>, %jacc: tile<i32>) {
      %gt = cmpf greater_than ordered %v, %vacc : tile<f32> -> tile<i1>
      %nv = select %gt, %v, %vacc : tile<i1>, tile<f32>
      %nj = select %gt, %j, %jacc : tile<i1>, tile<i32>
      yield %nv, %nj : tile<f32>, tile<i32>
    }
    // A bf16 operand may take an f16 identity (and an f16 operand a bf16 one).
    %h = constant <bf16: 1.0> : tile<16xbf16>
    // CHECK: reduce %{{.*}} dim=0 identities=[0.000000e+00 : f16] : tile<16xbf16> -> tile<bf16>
    %s = reduce %h dim=0 identities=[0.000000e+00 : f16] : tile<16xbf16> -> tile<bf16>
    (%l: tile<bf16>, %r: tile<bf16>) {
      %a = addf %l, %r : tile<bf16>
      yield %a : tile<bf16>
    }
    // Identities print as NVIDIA's tools print floats: the shortest decimal
    // that reads back exactly, and no type after a decimal f64.
    %d = constant <f64: 1.0> : tile<16xf64>
    // CHECK: reduce %{{.*}} dim=0 identities=[1.000000e-01] : tile<16xf64> -> tile<f64>
    %sd = reduce %d dim=0 identities=[0.1 : f64] : tile<16xf64> -> tile<f64>
    (%l: tile<f64>, %r: tile<f64>) {
      %a = addf %l, %r : tile<f64>
      yield %a : tile<f64>
    }
    // CHECK: reduce %{{.*}} dim=0 identities=[1.00000012 : f32] : tile<8xf32> -> tile<f32>
    %w = constant <f32: 1.0> : tile<8xf32>
    %sf = reduce %w dim=0 identities=[1.0000001 : f32] : tile<8xf32> -> tile<f32>
    (%l: tile<f32>, %r: tile<f32>) {
      %a = addf %l, %r : tile<f32>
      yield %a : tile<f32>
    }
    return
  }

  // CHECK-LABEL: entry @scan
  entry @scan() {
    %x = constant <f32: 1.0> : tile<8x16xf32>
    %i = constant <i32: 1> : tile<8x16xi32>
    // CHECK: %{{.*}} = scan %{{.*}} dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<8x16xf32>
    // CHECK-NEXT: (%[[A:.*]]: tile<f32>, %[[B:.*]]: tile<f32>) {
    // CHECK-NEXT:   %[[S:.*]] = addf %[[A]], %[[B]] : tile<f32>
    // CHECK-NEXT:   yield %[[S]] : tile<f32>
    // CHECK-NEXT: }
    %s0 = scan %x dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<8x16xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    // CHECK: scan %{{.*}} dim=0 reverse=true identities=[1 : i32] : tile<8x16xi32> -> tile<8x16xi32>
    %s1 = scan %i dim=0 reverse=true identities=[1 : i32] : tile<8x16xi32> -> tile<8x16xi32>
    (%a: tile<i32>, %b: tile<i32>) {
      %p = muli %a, %b : tile<i32>
      yield %p : tile<i32>
    }
    // CHECK: %{{.*}}, %{{.*}} = scan %{{.*}}, %{{.*}} dim=1 reverse=true identities=[0.000000e+00 : f32, 0 : i32] : tile<8x16xf32>, tile<8x16xi32> -> tile<8x16xf32>, tile<8x16xi32>
    %s2, %s3 = cuda_tile.scan %x, %i dim=1 reverse=true identities=[0.000000e+00 : f32, 0 : i32] : !cuda_tile.tile<8x16xf32>, !cuda_tile.tile<8x16xi32> -> !cuda_tile.tile<8x16xf32>, !cuda_tile.tile<8x16xi32>
    (%a: !cuda_tile.tile<f32>, %b: !cuda_tile.tile<f32>, %c: !cuda_tile.tile<i32>, %d: !cuda_tile.tile<i32>) {
      %f = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>
      %n = cuda_tile.addi %c, %d : !cuda_tile.tile<i32>
      cuda_tile.yield %f, %n : !cuda_tile.tile<f32>, !cuda_tile.tile<i32>
    }
    return
  }
}
