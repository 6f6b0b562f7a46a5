// The example programs (vector add, pointer loads with print, matmul loop,
// row reduction, control flow) parse, verify and print back verbatim.
// RUN: %opt %examples/tileir/vector_add.mlir | diff -u %examples/tileir/vector_add.mlir -
// RUN: %opt %examples/tileir/print_pointers.mlir | diff -u %examples/tileir/print_pointers.mlir -
// RUN: %opt %examples/tileir/matmul.mlir | diff -u %examples/tileir/matmul.mlir -
// RUN: %opt %examples/tileir/row_sum.mlir | diff -u %examples/tileir/row_sum.mlir -
// RUN: %opt %examples/tileir/clamp_loop.mlir | diff -u %examples/tileir/clamp_loop.mlir -
// Printing is stable through the fully qualified and generic forms too.
// RUN: %roundtrip %examples/tileir/matmul.mlir > /dev/null
// RUN: %roundtrip %examples/tileir/clamp_loop.mlir > /dev/null
