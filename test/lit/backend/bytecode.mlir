// Bytecode out and back in through tile-opt: -t tileirbc, version and arch
// options, .tileirbc/.tilebc inputs, and the file:offset diagnostic.
// RUN: tile-opt %s -t tileirbc -o %t.tileirbc
// RUN: tile-opt %t.tileirbc | filecheck %s
// RUN: tile-opt %s -t 'tileirbc{version=13.1 arch=sm_90}' -o %t.tilebc
// RUN: tile-opt %t.tilebc | filecheck %s --check-prefix=V131
// RUN: head -c 30 %t.tileirbc > %t.cut.tileirbc
// RUN: not tile-opt %t.cut.tileirbc 2>&1 | filecheck %s --check-prefix=CUT
// RUN: not tile-opt %s -t 'tileirbc{version=13.0}' 2>&1 | filecheck %s --check-prefix=VERSION

// CHECK: cuda_tile.module @kernels {
// CHECK-NEXT: entry @scale(%0: tile<ptr<f32>>, %1: tile<f32>) {
// CHECK-NEXT: %2 = iota : tile<16xi32>
// CHECK:      %6:2 = load_ptr_tko weak %5 : tile<16xptr<f32>> -> tile<16xf32>, token
// CHECK:      %9 = mulf %6#0, %8 : tile<16xf32>
// CHECK-NEXT: %10 = store_ptr_tko weak %5, %9 token=%6#1 : tile<16xptr<f32>>, tile<16xf32> -> token
// CHECK-NEXT: return

// V131: entry @scale(%0: tile<ptr<f32>>, %1: tile<f32>) optimization_hints=<sm_90 = {}> {

// CUT: .cut.tileirbc:16: error: expected section 2 payload of {{[0-9]+}} bytes (only 14 bytes left)

// VERSION: tile-opt: error: unsupported bytecode version 13.0; supported: 13.1, 13.2, 13.3, 13.4

cuda_tile.module @bytecode {
  entry @scale(%p: tile<ptr<f32>>, %s: tile<f32>) {
    %i = iota : tile<16xi32>
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %p16 = broadcast %p1 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %ptrs = offset %p16, %i : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>
    %v, %token = load_ptr_tko weak %ptrs : tile<16xptr<f32>> -> tile<16xf32>, token
    %s1 = reshape %s : tile<f32> -> tile<1xf32>
    %s16 = broadcast %s1 : tile<1xf32> -> tile<16xf32>
    %w = mulf %v, %s16 : tile<16xf32>
    %t = store_ptr_tko weak %ptrs, %w token = %token : tile<16xptr<f32>>, tile<16xf32> -> token
    return
  }
}
