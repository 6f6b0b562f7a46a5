// The tutorial pass of docs/tile-opt.md, and the guard every user pass runs under.
// RUN: tile-opt %s --load %S/inputs/exact_reciprocal.py -p exact-reciprocal | filecheck %s
// A pass that breaks a proof after the safety pipeline is refused (exit 1), naming it:
// RUN: not tile-opt %examples/add.py --load %S/inputs/store_at_tile_zero.py -p 'safetile-pipeline,store-at-tile-zero' 2>&1 | filecheck %s --check-prefix=REFUSED
// REFUSED: add.py:{{[0-9]+}}:{{[0-9]+}}: error: pass 'store-at-tile-zero' broke a proved safety property: one writer per tile
// REFUSED-SAME: --trust store-at-tile-zero
// Trusted by name, it runs, and the unsafe report lists what it left unproved:
// RUN: tile-opt %examples/add.py --load %S/inputs/store_at_tile_zero.py -p 'safetile-pipeline,store-at-tile-zero' --trust store-at-tile-zero --unsafe-report 2>&1 >/dev/null | filecheck %s --check-prefix=TRUSTED
// TRUSTED: unsafe report @add_1024:
// TRUSTED: add.py:{{[0-9]+}}:{{[0-9]+}}: trusted pass 'store-at-tile-zero': not proved: one writer per tile

cuda_tile.module @m {
  // CHECK-LABEL: entry @k
  entry @k(%s: tile<f32>) {
    %x = reshape %s : tile<f32> -> tile<1xf32>
    %four = constant <f32: 4.0> : tile<1xf32>
    %three = constant <f32: 3.0> : tile<1xf32>
    // CHECK: %[[QUARTER:.+]] = constant <f32: 2.500000e-01> : tile<1xf32>
    // CHECK: mulf %x, %[[QUARTER]] : tile<1xf32>
    %0 = divf %x, %four : tile<1xf32>
    // CHECK: divf %x, %three : tile<1xf32>
    %1 = divf %x, %three : tile<1xf32>
    // CHECK: divf %x, %four rounding<approx> : tile<1xf32>
    %2 = divf %x, %four rounding<approx> : tile<1xf32>
    %3 = print_tko "%f %f %f\n", %0, %1, %2 : tile<1xf32>, tile<1xf32>, tile<1xf32> -> token
    return
  }
}
