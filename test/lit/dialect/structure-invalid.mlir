// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// A function with a result and an (implicit) `return` of nothing.
// RULE: return.operand-count
// CHECK: error: 'cuda_tile.return' op has 0 operands, but enclosing function (@k) returns 1
cuda_tile.module @m {
  // expected-error@+1 {{has 0 operands, but enclosing function (@k) returns 1}}
  testing$func @k(%a: tile<f32>) -> tile<f32> {
  }
}

// -----

// A kernel with results: the entry is verified before the ops in it (MLIR's
// order), so its own error comes first, and its `return` (which has no
// operands where the entry has a result) is not verified at all.
// RULE: entry.no-results
// CHECK: error: 'cuda_tile.entry' op entry op must not return values
// CHECK-NOT: error:
// CHECK: {{^// -{5}$}}
cuda_tile.module @m {
  // expected-error@+1 {{entry op must not return values}}
  entry @k(%a: tile<f32>) -> tile<f32> {
  }
}

// -----

// CHECK: error: 'cuda_tile.entry' op entry op must have scalar types (rank 0 !cuda_tile.tile)
// RULE: entry.scalar-arguments
cuda_tile.module @m {
  // expected-error@+1 {{entry op must have scalar types (rank 0 !cuda_tile.tile)}}
  entry @k(%a: tile<2x2xf32>) {}
}

// -----

// CHECK: error: 'cuda_tile.entry' op type of entry block argument #0('!cuda_tile.tile<f32>') must match the type of the corresponding argument in function signature('!cuda_tile.tile<i32>')
cuda_tile.module @m {
  // expected-error@+1 {{type of entry block argument #0('!cuda_tile.tile<f32>') must match the type of the corresponding argument in function signature('!cuda_tile.tile<i32>')}}
  "cuda_tile.entry"() <{sym_name = "k", function_type = (!cuda_tile.tile<i32>) -> ()}> ({
  ^bb0(%a: !cuda_tile.tile<f32>):
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: 'cuda_tile.entry' op entry block must have 1 arguments to match function signature
cuda_tile.module @m {
  // expected-error@+1 {{entry block must have 1 arguments to match function signature}}
  "cuda_tile.entry"() <{sym_name = "k", function_type = (!cuda_tile.tile<i32>) -> ()}> ({
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: 'cuda_tile.return' op has 1 operands, but enclosing function (@k) returns 0
// RULE: return.operand-count
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@+1 {{has 1 operands, but enclosing function (@k) returns 0}}
    return %a : tile<f32>
  }
}

// -----

// A `return` with a value in a kernel: the count is checked first (a kernel
// returns nothing).  "entry function must return 0 operands", the check after
// it, cannot fire: an entry with results fails its own verifier first.
// CHECK: error: 'cuda_tile.return' op has 1 operands, but enclosing function (@k) returns 0
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@+1 {{has 1 operands, but enclosing function (@k) returns 0}}
    return %a : tile<f32>
  }
}

// -----

// `return` may leave through `if` branches, but not through a loop.  The
// message names NVIDIA's test-only `testing$func` too, as cuda-tile-opt's does.
// CHECK: error: 'cuda_tile.return' op must be used within a cuda_tile.testing$func, cuda_tile.entry, or cuda_tile.if operation
// RULE: return.parent
cuda_tile.module @m {
  entry @k(%c: tile<i1>) {
    loop {
      if %c {
        // expected-error@+1 {{must be used within a cuda_tile.testing$func, cuda_tile.entry, or cuda_tile.if operation}}
        return
      }
      break
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.return' op expects parent op to be one of 'cuda_tile.testing$func, cuda_tile.entry, cuda_tile.if'
// RULE: return.parent-one-of
// (At the top level, as NVIDIA's test does: in a loop, the loop's own check of
// its terminator would fail first.)
// expected-error@+1 {{expects parent op to be one of 'cuda_tile.testing$func, cuda_tile.entry, cuda_tile.if'}}
cuda_tile.return

// -----

// CHECK: error: custom op 'cuda_tile.entry' expected dictionary attribute for optimization_hints entry `sm_100` got value=2
// RULE: entry.optimization-hints-dictionary
cuda_tile.module @m {
  // expected-error@+1 {{expected dictionary attribute for optimization_hints entry `sm_100` got value=2}}
  entry @k(%a: tile<ptr<f32>>) optimization_hints=<sm_100=2> {
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.entry' expected valid '@'-identifier for symbol name
cuda_tile.module @m {
  // expected-error@+1 {{expected valid '@'-identifier for symbol name}}
  entry pluto @k() {}
}

// -----

// CHECK: error: 'cuda_tile.global' op type must have rank 1
// RULE: global.rank-1
cuda_tile.module @m {
  // expected-error@+1 {{type must have rank 1}}
  global @g <f16: [[1.0, 2.0]]> : tile<1x2xf16>
}

// -----

// Only `public` and `private` are visibilities.
// CHECK: error: custom op 'cuda_tile.global' expected valid '@'-identifier for symbol name
cuda_tile.module @m {
  // expected-error@+1 {{expected valid '@'-identifier for symbol name}}
  global Public @g <i32: [42]> : tile<1xi32>
}

// -----

// CHECK: error: 'cuda_tile.get_global' op 'g' does not reference a valid global
// RULE: get_global.references-global
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{'g' does not reference a valid global}}
    %0 = get_global @g : tile<ptr<f32>>
  }
}

// -----

// CHECK: error: 'cuda_tile.get_global' op 'k' does not reference a valid global
// RULE: get_global.references-global
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{'k' does not reference a valid global}}
    %0 = get_global @k : tile<ptr<f32>>
  }
}

// -----

// CHECK: error: 'cuda_tile.get_global' op pointee type of result type '!cuda_tile.ptr<f32>' does not match type 'f16' of the global @g
// RULE: get_global.pointee-matches-global
cuda_tile.module @m {
  global @g <f16: [1.0, 2.0]> : tile<2xf16>
  entry @k() {
    // expected-error@+1 {{pointee type of result type '!cuda_tile.ptr<f32>' does not match type 'f16' of the global @g}}
    %0 = get_global @g : tile<ptr<f32>>
  }
}

// -----

// CHECK: error: 'cuda_tile.get_global' op result #0 must be 0D tile of Pointer type values, but got '!cuda_tile.tile<4xptr<f32>>'
// RULE: get_global.type-constraints
cuda_tile.module @m {
  global @g <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k() {
    // expected-error@+1 {{'cuda_tile.get_global' op result #0 must be 0D tile of Pointer type values, but got '!cuda_tile.tile<4xptr<f32>>'}}
    %0 = get_global @g : tile<4xptr<f32>>
  }
}

// -----

// A region constraint in ODS's words (xDSL's own are translated).
// CHECK: error: 'cuda_tile.testing$func' op region #0 ('body') failed to verify constraint: region with 1 blocks
cuda_tile.module @m {
  // expected-error@below {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "cuda_tile.testing$func"() ({ }) {function_type = () -> (), sym_name = "f"} : () -> ()
}
