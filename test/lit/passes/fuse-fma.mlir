// RUN: %opt %s --pass-pipeline='builtin.module(cuda_tile.module(cuda_tile.entry(fuse-fma)))' --split-input-file | filecheck %s
// RUN: %opt %s -fuse-fma -split-input-file --verify-roundtrip > /dev/null

// x * y + z, with the rounding of both ops kept.
// CHECK-LABEL: entry @mul_add(
// CHECK-NEXT: %0 = fma %x, %y, %z : tile<f32>
// CHECK-NEXT: %1 = fma %x, %y, %z rounding<zero> flush_to_zero : tile<f32>
// CHECK-NEXT: print_tko "%f %f", %0, %1
cuda_tile.module @m {
  entry @mul_add(%x: tile<f32>, %y: tile<f32>, %z: tile<f32>) {
    %0 = mulf %x, %y : tile<f32>
    %1 = addf %0, %z : tile<f32>
    %2 = mulf %x, %y rounding<zero> flush_to_zero : tile<f32>
    %3 = addf %2, %z rounding<zero> flush_to_zero : tile<f32>
    %t = print_tko "%f %f", %1, %3 : tile<f32>, tile<f32> -> token
    return
  }
}

// -----

// x * y - z is x * y + (-z).
// CHECK-LABEL: entry @mul_sub(
// CHECK: %0 = negf %z : tile<2x2xf16>
// CHECK-NEXT: %1 = fma %x, %y, %0 rounding<positive_inf> : tile<2x2xf16>
// CHECK-NOT: subf
cuda_tile.module @m {
  entry @mul_sub(%p: tile<ptr<f16>>) {
    %x = constant <f16: 2.0> : tile<2x2xf16>
    %y = constant <f16: 3.0> : tile<2x2xf16>
    %z = constant <f16: 4.0> : tile<2x2xf16>
    %0 = mulf %x, %y rounding<positive_inf> : tile<2x2xf16>
    %1 = subf %0, %z rounding<positive_inf> : tile<2x2xf16>
    %t = print_tko "%f", %1 : tile<2x2xf16> -> token
    return
  }
}

// -----

// z + x * y: the product is moved to the left, then fused; chains fuse in turn.
// CHECK-LABEL: entry @commuted(
// CHECK-NEXT: %0 = fma %x, %y, %z : tile<f32>
// CHECK-NEXT: %1 = fma %y, %z, %0 : tile<f32>
// CHECK-NEXT: print_tko
cuda_tile.module @m {
  entry @commuted(%x: tile<f32>, %y: tile<f32>, %z: tile<f32>) {
    %0 = mulf %x, %y : tile<f32>
    %1 = mulf %y, %z : tile<f32>
    %2 = addf %z, %0 : tile<f32>
    %3 = addf %2, %1 : tile<f32>
    %t = print_tko "%f", %3 : tile<f32> -> token
    return
  }
}

// -----

// Not fused: the rounding modes differ (the add is still put in order), the
// flush-to-zero settings differ, or the product has another use.
// CHECK-LABEL: entry @kept(
// CHECK-NEXT: %0 = mulf %x, %y : tile<f32>
// CHECK-NEXT: %1 = addf %0, %z rounding<zero> : tile<f32>
// CHECK-NEXT: %2 = mulf %x, %y flush_to_zero : tile<f32>
// CHECK-NEXT: %3 = addf %2, %z : tile<f32>
// CHECK-NEXT: %4 = mulf %x, %y : tile<f32>
// CHECK-NEXT: %5 = addf %4, %z : tile<f32>
// CHECK-NEXT: %6 = subf %4, %z : tile<f32>
// CHECK-NOT: fma
cuda_tile.module @m {
  entry @kept(%x: tile<f32>, %y: tile<f32>, %z: tile<f32>) {
    %0 = mulf %x, %y : tile<f32>
    %1 = addf %z, %0 rounding<zero> : tile<f32>
    %2 = mulf %x, %y flush_to_zero : tile<f32>
    %3 = addf %2, %z : tile<f32>
    %4 = mulf %x, %y : tile<f32>
    %5 = addf %4, %z : tile<f32>
    %6 = subf %4, %z : tile<f32>
    %t = print_tko "%f %f %f %f", %1, %3, %5, %6 : tile<f32>, tile<f32>, tile<f32>, tile<f32> -> token
    return
  }
}
