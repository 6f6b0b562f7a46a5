// mlir-opt's command-line habits: passes as options, nested pipeline
// anchors, -p with a pipeline, one-dash long options.
// RUN: %opt %s --cse | filecheck %s
// RUN: %opt %s -cse -mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %opt %s --pass-pipeline='builtin.module(cuda_tile.module(cuda_tile.entry(cse)))' | filecheck %s
// RUN: %opt %s -p 'builtin.module(cse, licm)' | filecheck %s
// RUN: not %opt %s -p cse --canonicalize 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: %opt %s --mlir-print-ir-before-all --mlir-print-ir-after-all -p cse 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP

// CHECK: addf %a, %a : tile<f32>
// CHECK-NOT: addf
// GENERIC: "cuda_tile.addf"
// GENERIC-NOT: "cuda_tile.addf"
// TWICE: tile-opt: error: give the passes one way: -p and pass options both given
// DUMP: // -----// IR Dump Before cse //----- //
// DUMP: // -----// IR Dump After cse //----- //
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %0 = addf %a, %a : tile<f32>
    %1 = addf %a, %a : tile<f32>
    %2 = mulf %0, %1 : tile<f32>
    return
  }
}
