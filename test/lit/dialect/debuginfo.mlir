// RUN: %opt %s --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --mlir-print-debuginfo | %opt - --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --mlir-print-debuginfo -t mlir | %opt - --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --mlir-print-debuginfo --print-op-generic | %opt - --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s -t tileirbc -o %t.tileirbc
// RUN: %opt %t.tileirbc --mlir-print-debuginfo | filecheck %s --check-prefix=BYTECODE
// RUN: %opt %s | filecheck %s --check-prefix=PLAIN

// Debug information as `tileirdisasm -g` prints it: locations as aliases
// defined after the module, scopes as #cuda_tile.di_* attributes.  tile-opt
// prints the scopes as aliases above the module and the locations inline.

// CHECK:      #di_file = #cuda_tile.di_file<"k.py" in "/src">
// CHECK-NEXT: #di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
// CHECK-NEXT: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 8, name = "k", linkageName = "k", compileUnit = #di_compile_unit, scopeLine = 8>
// CHECK-NEXT: #di_lexical_block = #cuda_tile.di_lexical_block<scope = #di_subprogram, file = #di_file, line = 10, column = 3>
// CHECK-NEXT: #di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 20, name = "j", linkageName = "j", compileUnit = #di_compile_unit>
// CHECK-NEXT: cuda_tile.module @m {
// CHECK-NEXT:   entry @k(%a: tile<f32> loc(unknown)) {
// CHECK-NEXT:     %c = constant <i32: 42> : tile<i32> loc(#cuda_tile.di_loc<loc("k.py":9:10) in #di_subprogram>)
// CHECK-NEXT:     %s = addf %a, %a : tile<f32> loc(#cuda_tile.di_loc<loc("k.py":11:5) in #di_lexical_block>)
// CHECK-NEXT:     %t = mulf %s, %s : tile<f32> loc("k.py":12:5)
// CHECK-NEXT:     return loc(unknown)
// CHECK-NEXT:   } loc(#cuda_tile.di_loc<loc("k.py":8:1) in #di_subprogram>)
// CHECK-NEXT:   entry @j() {
// CHECK-NEXT:     return loc(#cuda_tile.di_loc<loc("k.py":21:5) in #di_subprogram1>)
// CHECK-NEXT:   } loc(#cuda_tile.di_loc<loc("k.py":20:1) in #di_subprogram1>)
// CHECK-NEXT: } loc(unknown)

// Through bytecode: a plain file location in a located kernel is placed in
// its subprogram; unknown ones stay unknown.
// BYTECODE:      #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 8, name = "k", linkageName = "k", compileUnit = #di_compile_unit, scopeLine = 8>
// BYTECODE:      %1 = constant <i32: 42> : tile<i32> loc(#cuda_tile.di_loc<loc("k.py":9:10) in #di_subprogram>)
// BYTECODE-NEXT: %2 = addf %0, %0 : tile<f32> loc(#cuda_tile.di_loc<loc("k.py":11:5) in #di_lexical_block>)
// BYTECODE-NEXT: %3 = mulf %2, %2 : tile<f32> loc(#cuda_tile.di_loc<loc("k.py":12:5) in #di_subprogram>)
// BYTECODE-NEXT: return loc(unknown)
// BYTECODE-NEXT: } loc(#cuda_tile.di_loc<loc("k.py":8:1) in #di_subprogram>)
// BYTECODE:      return loc(#cuda_tile.di_loc<loc("k.py":21:5) in #di_subprogram1>)

// PLAIN-NOT: di_
// PLAIN-NOT: loc(

cuda_tile.module @m {
  entry @k(%a: tile<f32> loc(unknown)) {
    %c = constant <i32: 42> : tile<i32> loc(#loc2)
    %s = addf %a, %a : tile<f32> loc(#loc3)
    %t = mulf %s, %s : tile<f32> loc("k.py":12:5)
    return loc(unknown)
  } loc(#loc1)
  entry @j() {
    return loc(#loc5)
  } loc(#loc4)
} loc(#loc)
#di_file = #cuda_tile.di_file<"k.py" in "/src">
#loc = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 8, name = "k", linkageName = "k", compileUnit = #di_compile_unit, scopeLine = 8>
#di_block = #cuda_tile.di_lexical_block<scope = #di_subprogram, line = 10, file = #di_file, column = 3>
#di_subprogram1 = #cuda_tile.di_subprogram<linkageName = "j", name = "j", file = #di_file, line = 20, compileUnit = #di_compile_unit>
#loc0 = loc("k.py":8:1)
#loc1 = #cuda_tile.di_loc<#loc0 in #di_subprogram>
#loc2 = #cuda_tile.di_loc<loc("k.py":9:10) in #di_subprogram>
#loc3 = #cuda_tile.di_loc<loc("k.py":11:5) in #di_block>
#loc4 = #cuda_tile.di_loc<loc("k.py":20:1) in #di_subprogram1>
#loc5 = #cuda_tile.di_loc<loc("k.py":21:5) in #di_subprogram1>
