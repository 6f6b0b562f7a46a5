// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// NVIDIA's debug-info rules (DebugInfoVerifier), and malformed #cuda_tile.di_*.

// RULE: entry.debug-info-not-call-site
// CHECK: error: 'cuda_tile.entry' op invalid function debug info location: loc(callsite("k.py":1:1 at "k.py":2:1)). Function location must not be a CallSiteLoc.
cuda_tile.module @m {
  // expected-error@+1 {{Function location must not be a CallSiteLoc}}
  entry @k() {
    return
  } loc(callsite("k.py":1:1 at "k.py":2:1))
}

// -----

// RULE: entry.debug-info-subprogram-scope
// CHECK: error: 'cuda_tile.entry' op invalid function debug info scope: #cuda_tile.di_lexical_block<
// CHECK-SAME: Function location must have cuda_tile.di_subprogram debug info scope.
#file = #cuda_tile.di_file<"k.py" in "">
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "k", compileUnit = #cuda_tile.di_compile_unit<file = #file>>
#block = #cuda_tile.di_lexical_block<scope = #sp, file = #file, line = 1>
cuda_tile.module @m {
  // expected-error@+1 {{Function location must have cuda_tile.di_subprogram debug info scope}}
  entry @k() {
    return
  } loc(#cuda_tile.di_loc<loc("k.py":1:1) in #block>)
}

// -----

// RULE: entry.debug-info-linkage-name
// CHECK: Function name "k" does not match subprogram scope linkage name "other".
#file = #cuda_tile.di_file<"k.py" in "">
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "other", compileUnit = #cuda_tile.di_compile_unit<file = #file>>
cuda_tile.module @m {
  // expected-error@+1 {{Function name "k" does not match subprogram scope linkage name "other"}}
  entry @k() {
    return
  } loc(#cuda_tile.di_loc<loc("k.py":1:1) in #sp>)
}

// -----

// RULE: op.debug-info-scope-needs-function-scope
// CHECK: error: 'cuda_tile.return' op invalid operation debug info scope: #cuda_tile.di_subprogram<
// CHECK-SAME: Operation has debug info scope, but function debug info scope is undefined.
#file = #cuda_tile.di_file<"k.py" in "">
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "k", compileUnit = #cuda_tile.di_compile_unit<file = #file>>
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{Operation has debug info scope, but function debug info scope is undefined}}
    return loc(#cuda_tile.di_loc<loc("k.py":2:1) in #sp>)
  } loc("k.py":1:1)
}

// -----

// RULE: op.debug-info-scope-matches-function
// CHECK: Operation debug info scope does not match function debug info scope
#file = #cuda_tile.di_file<"k.py" in "">
#cu = #cuda_tile.di_compile_unit<file = #file>
#k = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "k", compileUnit = #cu>
#j = #cuda_tile.di_subprogram<file = #file, line = 5, name = "j", linkageName = "j", compileUnit = #cu>
cuda_tile.module @m {
  entry @k() {
    %c = constant <i32: 1> : tile<i32> loc(#cuda_tile.di_loc<loc("k.py":2:1) in #cuda_tile.di_lexical_block<scope = #k, file = #file, line = 2>>)
    // expected-error@+1 {{Operation debug info scope does not match function debug info scope}}
    return loc(#cuda_tile.di_loc<loc("k.py":3:1) in #j>)
  } loc(#cuda_tile.di_loc<loc("k.py":1:1) in #k>)
}

// -----

// RULE: global.debug-info-no-scope
// CHECK: Global variables must not have scope.
#file = #cuda_tile.di_file<"k.py" in "">
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "g", linkageName = "g", compileUnit = #cuda_tile.di_compile_unit<file = #file>>
cuda_tile.module @m {
  // expected-error@+1 {{Global variables must not have scope}}
  global @g <f32: [0.0]> : tile<1xf32> loc(#cuda_tile.di_loc<loc("k.py":1:1) in #sp>)
}

// -----

// RULE: di_loc.scope-is-local-scope
// CHECK: error: custom op 'cuda_tile.return' 'cuda_tile.di_loc' expects a local scope (di_subprogram or di_lexical_block)
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{'cuda_tile.di_loc' expects a local scope (di_subprogram or di_lexical_block), but got #cuda_tile.di_file<"k.py" in "">}}
    return loc(#cuda_tile.di_loc<loc("k.py":1:1) in #cuda_tile.di_file<"k.py" in "">>)
  }
}

// -----

// RULE: di_loc.source-is-file-location
// CHECK: error: custom op 'cuda_tile.return' expected a file location ("file":line:col) in #cuda_tile.di_loc
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{expected a file location ("file":line:col) in #cuda_tile.di_loc}}
    return loc(#cuda_tile.di_loc<loc(unknown) in #cuda_tile.di_file<"k.py" in "">>)
  }
}

// -----

// RULE: di_compile_unit.file-is-di-file
// CHECK: error: 'cuda_tile.di_compile_unit' expects a #cuda_tile.di_file file, but got "k.py"
// expected-error@+1 {{'cuda_tile.di_compile_unit' expects a #cuda_tile.di_file file, but got "k.py"}}
#cu = #cuda_tile.di_compile_unit<file = "k.py">

// -----

// RULE: di_subprogram.file-is-di-file
// CHECK: error: 'cuda_tile.di_subprogram' expects a #cuda_tile.di_file file
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{'cuda_tile.di_subprogram' expects a #cuda_tile.di_file file, but got 1 : i64}}
#sp = #cuda_tile.di_subprogram<file = 1, line = 1, name = "k", linkageName = "k", compileUnit = #cuda_tile.di_compile_unit<file = #file>>

// -----

// RULE: di_subprogram.compile-unit-is-di-compile-unit
// CHECK: error: 'cuda_tile.di_subprogram' expects a #cuda_tile.di_compile_unit compileUnit
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{'cuda_tile.di_subprogram' expects a #cuda_tile.di_compile_unit compileUnit, but got #cuda_tile.di_file<"k.py" in "">}}
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", linkageName = "k", compileUnit = #file>

// -----

// RULE: di_subprogram.required-parameters
// CHECK: error: struct is missing required parameter: linkageName
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{struct is missing required parameter: linkageName}}
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, name = "k", compileUnit = #cuda_tile.di_compile_unit<file = #file>>

// -----

// RULE: di_subprogram.parameters-once
// CHECK: error: struct is already parsed parameter 'line'
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{struct is already parsed parameter 'line'}}
#sp = #cuda_tile.di_subprogram<file = #file, line = 1, line = 2, name = "k", linkageName = "k", compileUnit = #cuda_tile.di_compile_unit<file = #file>>

// -----

// RULE: di_lexical_block.scope-is-local-scope
// CHECK: error: 'cuda_tile.di_lexical_block' expects a local scope
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{'cuda_tile.di_lexical_block' expects a local scope (di_subprogram or di_lexical_block), but got #cuda_tile.di_compile_unit<file = #cuda_tile.di_file<"k.py" in "">>}}
#b = #cuda_tile.di_lexical_block<scope = #cuda_tile.di_compile_unit<file = #file>, file = #file, line = 1>

// -----

// RULE: di_lexical_block.unknown-parameter
// CHECK: error: struct has unknown parameter 'row' (#cuda_tile.di_lexical_block)
#file = #cuda_tile.di_file<"k.py" in "">
// expected-error@+1 {{struct has unknown parameter 'row' (#cuda_tile.di_lexical_block)}}
#b = #cuda_tile.di_lexical_block<row = 1>
