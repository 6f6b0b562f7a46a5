// RUN: %opt %s | filecheck %s --check-prefix=PLAIN
// RUN: %opt %s --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --mlir-print-debuginfo | %opt - --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --mlir-print-debuginfo --print-op-generic | %opt - --mlir-print-debuginfo | filecheck %s

// Locations as `tileirdisasm -g` writes them: inline, or aliases defined at
// the end of the file (after their uses).  Printed only with --mlir-print-debuginfo.
// Without a `loc(...)`, an op or argument is at its place in the text, as
// MLIR's parser has it (`%b`); a written `loc(unknown)` stays unknown.

cuda_tile.module @m {
  entry @k(%a: tile<f32> loc(#arg), %b: tile<f32>) {
    %0 = addf %a, %b : tile<f32> loc("k.py":3:5)
    return loc(#ret)
  } loc("k.py":1:1)
} loc(#unknown)
#unknown = loc(unknown)
#ret = loc("k.py":4:5)
#arg = loc("k.py":1:10)

// PLAIN:      entry @k(%a: tile<f32>, %b: tile<f32>) {
// PLAIN-NEXT:   %0 = addf %a, %b : tile<f32>{{$}}
// PLAIN-NEXT:   return{{$}}

// CHECK:      entry @k(%a: tile<f32> loc("k.py":1:10), %b: tile<f32> loc("{{.*}}locations.mlir":12:37)) {
// CHECK-NEXT:   %0 = addf %a, %b : tile<f32> loc("k.py":3:5)
// CHECK-NEXT:   return loc("k.py":4:5)
// CHECK-NEXT: } loc("k.py":1:1)
// CHECK-NEXT: } loc(unknown)
