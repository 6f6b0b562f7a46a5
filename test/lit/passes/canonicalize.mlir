// RUN: %opt %s --split-input-file -p canonicalize | filecheck %s

// The index math of examples/permute_heads.py (`b, h = bh // H, bh % H`, as
// `tile-opt examples/permute_heads.py` prints it: Python's floor division and
// modulo), for a block id known to be 35: it folds to the constants 2 and 3,
// the select of the modulo's sign fix-up on its constant condition included.
// CHECK-LABEL: entry @permute_heads_index
// CHECK-NEXT: %[[B:.+]] = constant <i32: 2> : tile<i32>
// CHECK-NEXT: %[[H:.+]] = constant <i32: 3> : tile<i32>
// CHECK-NEXT: print_tko "%d %d\0A", %[[B]], %[[H]]
// CHECK-NEXT: return
cuda_tile.module @m {
  entry @permute_heads_index() {
    %bh = constant <i32: 35> : tile<i32>
    %9 = constant <i32: 16> : tile<i32>
    %10 = divi %bh, %9 signed rounding<negative_inf> : tile<i32>
    %11 = constant <i32: 16> : tile<i32>
    %12 = remi %bh, %11 signed : tile<i32>
    %13 = constant <i32: 0> : tile<i32>
    %14 = cmpi less_than %12, %13, signed : tile<i32> -> tile<i1>
    %15 = addi %12, %11 : tile<i32>
    %16 = select %14, %15, %12 : tile<i1>, tile<i32>
    %p = print_tko "%d %d\n", %10, %16 : tile<i32>, tile<i32> -> token
    return
  }
}

// -----

// The same for -35: -35 // 16 = -3 and -35 % 16 = 13 (remi gives -3, the
// sign of the dividend; the fix-up adds 16).
// CHECK-LABEL: entry @negative_index
// CHECK-NEXT: %[[B:.+]] = constant <i32: -3> : tile<i32>
// CHECK-NEXT: %[[H:.+]] = constant <i32: 13> : tile<i32>
// CHECK-NEXT: print_tko "%d %d\0A", %[[B]], %[[H]]
cuda_tile.module @m {
  entry @negative_index() {
    %bh = constant <i32: -35> : tile<i32>
    %9 = constant <i32: 16> : tile<i32>
    %10 = divi %bh, %9 signed rounding<negative_inf> : tile<i32>
    %12 = remi %bh, %9 signed : tile<i32>
    %13 = constant <i32: 0> : tile<i32>
    %14 = cmpi less_than %12, %13, signed : tile<i32> -> tile<i1>
    %15 = addi %12, %9 : tile<i32>
    %16 = select %14, %15, %12 : tile<i1>, tile<i32>
    %p = print_tko "%d %d\n", %10, %16 : tile<i32>, tile<i32> -> token
    return
  }
}

// -----

// An in-kernel check of a constant index (what lower-tile-safety makes of a
// `tile_safety.check_index` of tile 3): `3 >= 0` folds to true, and `true and
// hi` to `hi`, so the assert tests only the upper bound.
// CHECK-LABEL: entry @assert_of_constant_index
// CHECK: %[[N:.+]] = get_index_space_shape %pv
// CHECK-NEXT: %[[HI:.+]] = cmpi less_than %{{.+}}, %[[N]], signed : tile<i32> -> tile<i1>
// CHECK-NEXT: assert %[[HI]], "load: tile index out of range in dimension 0" : tile<i1>
// CHECK-NOT: andi
cuda_tile.module @m {
  entry @assert_of_constant_index(%p: tile<ptr<f32>>, %n: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %i = constant <i32: 3> : tile<i32>
    %0 = get_index_space_shape %pv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %1 = constant <i32: 0> : tile<i32>
    %2 = cmpi greater_than_or_equal %i, %1, signed : tile<i32> -> tile<i1>
    %3 = cmpi less_than %i, %0, signed : tile<i32> -> tile<i1>
    %4 = andi %2, %3 : tile<i1>
    assert %4, "load: tile index out of range in dimension 0" : tile<i1>
    return
  }
}

// -----

// A division by zero is left to run (and be reported), never folded.
// CHECK-LABEL: entry @division_by_zero
// CHECK: divi %{{.+}}, %{{.+}} signed : tile<i32>
// CHECK: remi %{{.+}}, %{{.+}} unsigned : tile<i32>
cuda_tile.module @m {
  entry @division_by_zero() {
    %a = constant <i32: 7> : tile<i32>
    %z = constant <i32: 0> : tile<i32>
    %q = divi %a, %z signed : tile<i32>
    %r = remi %a, %z unsigned : tile<i32>
    %p = print_tko "%d %d\n", %q, %r : tile<i32>, tile<i32> -> token
    return
  }
}
