// RUN: %opt %s --split-input-file --mlir-print-debuginfo | filecheck %s
// RUN: %opt --split-input-file --mlir-print-debuginfo < %s | filecheck %s --check-prefix=STDIN

// With --mlir-print-debuginfo, an op or argument the text gives no `loc(...)`
// is at its place in the text, as MLIR's parser has it: an op where it starts
// (its results included), an argument at its name, a terminator the parser
// adds at its op.  A written `loc(...)`, `loc(unknown)` too, is kept.  In a
// --split-input-file chunk the place is the line in the file.  Standard input
// is "<stdin>", as for mlir-opt.

// CHECK:      cuda_tile.module @m {
// CHECK-NEXT:   entry @k(%a: tile<f32> loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 9]]:12), %b: tile<f32> loc(unknown)) {
// CHECK-NEXT:     %0 = addf %a, %b : tile<f32> loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 9]]:5)
// CHECK-NEXT:     %1 = mulf %0, %0 : tile<f32> loc("k.py":4:5)
// CHECK-NEXT:     return loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 6]]:3)
// CHECK-NEXT:   } loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 5]]:3)
// CHECK-NEXT: } loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 3]]:1)
// STDIN:        entry @k(%a: tile<f32> loc("<stdin>":[[# @LINE + 3]]:12), %b: tile<f32> loc(unknown)) {
// STDIN-NEXT:     %0 = addf %a, %b : tile<f32> loc("<stdin>":[[# @LINE + 3]]:5)
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %b: tile<f32> loc(unknown)) {
    %0 = addf %a, %b : tile<f32>
    %1 = mulf %0, %0 : tile<f32> loc("k.py":4:5)
  }
}

// -----

// CHECK:      entry @j() {
// CHECK-NEXT:   %c = constant <i1: true> : tile<i1> loc("{{.*}}print-debuginfo-places.mlir":[[# @LINE + 3]]:5)
cuda_tile.module @m {
  entry @j() {
    %c = constant <i1: true> : tile<i1>
  }
}
