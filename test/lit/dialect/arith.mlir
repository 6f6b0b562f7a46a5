// RUN: %roundtrip %s | filecheck %s

cuda_tile.module @arith {
  entry @float_ops(%a: tile<f32>, %b: tile<f32>) {
    // CHECK: %{{.*}} = addf %a, %b : tile<f32>
    %0 = addf %a, %b : tile<f32>
    // CHECK: %{{.*}} = addf %{{.*}}, %b rounding<zero> flush_to_zero : tile<f32>
    %1 = addf %0, %b rounding<zero> flush_to_zero : tile<f32>
    return
  }
}
