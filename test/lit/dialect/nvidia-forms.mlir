// NVIDIA's spellings tile-opt reads: the generic form's `<{unsignedCmp}>`
// (printed back the same in the generic form), and a module's entries and
// globals without the module around them, as `tileirdisasm` prints them.
// RUN: %opt %s --split-input-file --verify-roundtrip | filecheck %s
// RUN: %opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK: for unsigned %i in (%lb to %lb, step %lb) : tile<i32> {
// GENERIC: "cuda_tile.for"(%lb, %lb, %lb) <{unsignedCmp}> ({
cuda_tile.module @m {
  entry @k(%lb: tile<i32>) {
    "cuda_tile.for"(%lb, %lb, %lb) <{unsignedCmp}> ({
    ^bb0(%i: !cuda_tile.tile<i32>):
      "cuda_tile.continue"() : () -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()
    return
  }
}

// -----

// CHECK: cuda_tile.module @kernels {
// CHECK-NEXT: global @g <i32: 1> : tile<1xi32>
// CHECK-NEXT: entry @k(%a: tile<f32>) {
// CHECK-NEXT: %0 = negf %a : tile<f32>
global @g <i32: [1]> : tile<1xi32>
entry @k(%a: tile<f32>) {
  %0 = negf %a : tile<f32>
  return
}
