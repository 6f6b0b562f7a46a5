// The example programs (vector add, pointer loads with print, matmul loop,
// row reduction, control flow) parse, verify and print back verbatim, and
// printing is stable through the fully qualified and generic forms too.
// RUN: %roundtrip %examples/tileir/vector_add.mlir | diff -u %examples/tileir/vector_add.mlir -
// RUN: %roundtrip %examples/tileir/print_pointers.mlir | diff -u %examples/tileir/print_pointers.mlir -
// RUN: %roundtrip %examples/tileir/matmul.mlir | diff -u %examples/tileir/matmul.mlir -
// RUN: %roundtrip %examples/tileir/row_sum.mlir | diff -u %examples/tileir/row_sum.mlir -
// RUN: %roundtrip %examples/tileir/clamp_loop.mlir | diff -u %examples/tileir/clamp_loop.mlir -
