// RUN: %opt %s --pass-pipeline="builtin.module(cuda_tile.module(synthesize-debug-info-scopes))" --split-input-file --mlir-print-debuginfo --verify-roundtrip | filecheck %s

// No place at all: the compile unit and the kernel are in <unknown>, line 1.
// CHECK: #di_file = #cuda_tile.di_file<"<unknown>" in "">
// CHECK-NEXT: #di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
// CHECK-NEXT: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 1, name = "no_debug", linkageName = "no_debug", compileUnit = #di_compile_unit, scopeLine = 1>
// CHECK: return loc(#cuda_tile.di_loc<loc("<unknown>":1:1) in #di_subprogram>)
// CHECK-NEXT: } loc(#cuda_tile.di_loc<loc("<unknown>":1:1) in #di_subprogram>)
cuda_tile.module @test {
  entry @no_debug() {
    return loc(unknown)
  } loc(unknown)
} loc(unknown)

// -----

// File places: the kernel's file and line, the module's file for the unit; an
// op without a place takes the kernel's.
// CHECK: #di_file = #cuda_tile.di_file<"file.py" in "dir">
// CHECK-NEXT: #di_file1 = #cuda_tile.di_file<"other_file.py" in "">
// CHECK-NEXT: #di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file1>
// CHECK-NEXT: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 10, name = "filelocs", linkageName = "filelocs", compileUnit = #di_compile_unit, scopeLine = 10>
// CHECK: %0 = negf %a : tile<f32> loc(#cuda_tile.di_loc<loc("dir/file.py":11:4) in #di_subprogram>)
// CHECK-NEXT: %1 = negf %0 : tile<f32> loc(#cuda_tile.di_loc<loc("dir/file.py":10:4) in #di_subprogram>)
// CHECK-NEXT: return loc(#cuda_tile.di_loc<loc("dir/file.py":12:4) in #di_subprogram>)
// CHECK-NEXT: } loc(#cuda_tile.di_loc<loc("dir/file.py":10:4) in #di_subprogram>)
cuda_tile.module @test {
  entry @filelocs(%a: tile<f32>) {
    %0 = negf %a : tile<f32> loc("dir/file.py":11:4)
    %1 = negf %0 : tile<f32> loc(unknown)
    return loc("dir/file.py":12:4)
  } loc("dir/file.py":10:4)
} loc("other_file.py":1:1)

// -----

// Places inside call-site, fused and name locations.
// CHECK: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 10, name = "other_locs", linkageName = "other_locs", compileUnit = #di_compile_unit, scopeLine = 10>
// CHECK: return loc(#cuda_tile.di_loc<loc("file.py":12:4) in #di_subprogram>)
// CHECK-NEXT: } loc(#cuda_tile.di_loc<loc("file.py":10:4) in #di_subprogram>)
cuda_tile.module @test {
  entry @other_locs() {
    return loc(callsite(unknown at "file.py":12:4))
  } loc(fused["file.py":10:4, unknown])
} loc("blah"("other_file.py":1:1))

// -----

// A kernel with scopes is left alone (no scopeLine is added to its subprogram).
// CHECK: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 15, name = "with_debug", linkageName = "with_debug", compileUnit = #di_compile_unit>
// CHECK: return loc(unknown)
#di_file = #cuda_tile.di_file<"k.py" in "">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 15, name = "with_debug", linkageName = "with_debug", compileUnit = #di_compile_unit>
cuda_tile.module @test {
  entry @with_debug() {
    return loc(unknown)
  } loc(#cuda_tile.di_loc<loc("k.py":15:1) in #di_subprogram>)
}

// -----

// NVIDIA's test-only testing$func is scoped as an entry is.
// CHECK: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "f", linkageName = "f", compileUnit = #di_compile_unit, scopeLine = 3>
// CHECK: return %a : tile<f32> loc(#cuda_tile.di_loc<loc("t.py":3:1) in #di_subprogram>)
cuda_tile.module @test {
  testing$func @f(%a: tile<f32>) -> tile<f32> {
    return %a : tile<f32> loc(unknown)
  } loc("t.py":3:1)
}
