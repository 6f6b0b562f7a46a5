// RUN: %opt %s --test-debuginfo-update-symbol-name="symbol-to-rename=kernels::k new-name=k_f32" --mlir-print-debuginfo | filecheck %s
// RUN: %opt %s --pass-pipeline="builtin.module(test-debuginfo-update-symbol-name{symbol-to-rename=kernels::table new-name=lut update-uses=true})" | filecheck %s --check-prefix=USES
// RUN: %opt %s --test-debuginfo-update-symbol-name="symbol-to-rename=kernels::plain scope=kernels::other new-name=p" --mlir-print-debuginfo --verify-diagnostics
// RUN: not %opt %s --test-debuginfo-update-symbol-name="symbol-to-rename=kernels::nope new-name=x" 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not %opt %s --test-debuginfo-update-symbol-name="symbol-to-rename=kernels::table new-name=other update-uses=true" 2>&1 | filecheck %s --check-prefix=TAKEN

// NVIDIA's test pass: a renamed kernel keeps its debug information, the
// subprogram's linkageName (and every lexical block and location in it)
// following the new name; its `name` (the source's) stays.
// CHECK: #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 1, name = "k", linkageName = "k_f32", compileUnit = #di_compile_unit, scopeLine = 1>
// CHECK-NEXT: #di_lexical_block = #cuda_tile.di_lexical_block<scope = #di_subprogram, file = #di_file, line = 3, column = 4>
// CHECK:      entry @k_f32() {
// CHECK-NEXT:   %c = constant <i32: 1> : tile<i32> loc(#cuda_tile.di_loc<loc("k.py":2:5) in #di_subprogram>)
// CHECK-NEXT:   %p = get_global @table : tile<ptr<i32>> loc(#cuda_tile.di_loc<loc("k.py":3:5) in #di_lexical_block>)
// CHECK:      } loc(#cuda_tile.di_loc<loc("k.py":1:1) in #di_subprogram>)
// CHECK:      entry @other() {

// update-uses: the symbol's uses in its module follow it.
// USES: global @lut <i32: 7> : tile<1xi32>
// USES: get_global @lut : tile<ptr<i32>>

// MISSING: error: could not find symbol op with name '@kernels::@nope'
// TAKEN: error: cannot rename @table to @other: that name is already a symbol of 'cuda_tile.module'

#file = #cuda_tile.di_file<"k.py" in "/src">
#unit = #cuda_tile.di_compile_unit<file = #file>
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "k", compileUnit = #unit, scopeLine = 1>
#block = #cuda_tile.di_lexical_block<scope = #sp, file = #file, line = 3, column = 4>

cuda_tile.module @kernels {
  global @table <i32: [7]> : tile<1xi32>
  entry @k() {
    %c = constant <i32: 1> : tile<i32> loc(#cuda_tile.di_loc<loc("k.py":2:5) in #sp>)
    %p = get_global @table : tile<ptr<i32>> loc(#cuda_tile.di_loc<loc("k.py":3:5) in #block>)
    return loc(unknown)
  } loc(#cuda_tile.di_loc<loc("k.py":1:1) in #sp>)
  // The scope must enclose the symbol: `other` does not enclose `plain`.
  // expected-note@below {{scope defined here}}
  entry @other() {
    return
  }
  // expected-error@below {{attempted to update symbol names in a scope that did not enclose the symbol itself}}
  entry @plain() {
    return
  }
}
