// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: error: 'cuda_tile.reduce' op expect same number of operands and results
// RULE: reduce.operand-result-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect same number of operands and results}}
    %r0, %r1 = reduce %x dim=0 identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32> -> tile<f32>, tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0, %a1 : tile<f32>, tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op region #0 ('body') failed to verify constraint: region with 1 blocks
// RULE: reduce.single-block-body
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    () {}
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.reduce' number of operands and types do not match: got 0 operands and 1 types
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{number of operands and types do not match: got 0 operands and 1 types}}
    %r0 = reduce dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>) {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expected 1 or more operands, but found 0
// RULE: reduce.one-or-more-operands
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{expected 1 or more operands, but found 0}}
    %r0 = reduce dim=0 identities=[] : -> tile<f32>
    () {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect identities to match the number of operands but got: 1 operands and 2 identities
// RULE: reduce.identity-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect identities to match the number of operands but got: 1 operands and 2 identities}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect same type for operand at index: 1 and identity at index: 1 but got: 'i32' and 'f32'
// RULE: reduce.identity-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same type for operand at index: 1 and identity at index: 1 but got: 'i32' and 'f32'}}
    %r0, %r1 = reduce %x, %y dim=0 identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32>, tile<8xi32> -> tile<f32>, tile<i32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative
// RULE: reduce.dim-attribute
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
    %r0 = reduce %x dim=-10 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op dimension (10) is out of bound [0, 1)
// RULE: reduce.dim-in-range
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{dimension (10) is out of bound [0, 1)}}
    %r0 = reduce %x dim=10 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op requires the same shape for all operands
// RULE: reduce.same-operands-shape
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<16xi32>
    // expected-error@+1 {{requires the same shape for all operands}}
    %r0, %r1 = reduce %x, %y dim=0 identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<16xi32> -> tile<f32>, tile<i32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// MLIR's type-inference check: the mismatch, then its verdict.
// CHECK: error: 'cuda_tile.reduce' op inferred type(s) '!cuda_tile.tile<f32>', '!cuda_tile.tile<i32>' are incompatible with return type(s) of operation '!cuda_tile.tile<1xf32>', '!cuda_tile.tile<i32>'
// CHECK: error: 'cuda_tile.reduce' op failed to infer returned types
// RULE: reduce.result-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+2 {{failed to infer returned types}}
    // expected-error@+1 {{inferred type(s) '!cuda_tile.tile<f32>', '!cuda_tile.tile<i32>' are incompatible with return type(s) of operation '!cuda_tile.tile<1xf32>', '!cuda_tile.tile<i32>'}}
    %r0, %r1 = reduce %x, %y dim=0 identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<1xf32>, tile<i32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect 2 block arguments but got: 0
// RULE: reduce.block-argument-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 2 block arguments but got: 0}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    () {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect 0-rank tile type at index: 0 but got: '!cuda_tile.tile<1xf32>'
// RULE: reduce.rank-0-block-arguments
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 0-rank tile type at index: 0 but got: '!cuda_tile.tile<1xf32>'}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<1xf32>, %a1: tile<f32>) {
      yield %a1 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect 0-rank tile type at index: 0 but got: 'f32'
// RULE: reduce.rank-0-block-arguments
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 0-rank tile type at index: 0 but got: 'f32'}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: f32, %a1: tile<f32>) {
      yield %a1 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect same element type for block argument at index: 2 and 3 but got: 'i32' and 'f32'
// RULE: reduce.block-argument-element-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same element type for block argument at index: 2 and 3 but got: 'i32' and 'f32'}}
    %r0, %r1 = reduce %x, %y dim=0 identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<f32>, tile<i32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<f32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect same type for operand at index: 0 and block argument at index: 0 but got: 'i32' and 'f32'
// RULE: reduce.block-argument-types
cuda_tile.module @m {
  entry @k() {
    %y = constant <i32: 1> : tile<8xi32>
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect same type for operand at index: 0 and block argument at index: 0 but got: 'i32' and 'f32'}}
    %r0, %r1 = reduce %y, %x dim=0 identities=[0 : i32, 0.000000e+00 : f32] : tile<8xi32>, tile<8xf32> -> tile<i32>, tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<f32>, %a3: tile<f32>) {
      yield %a0, %a2 : tile<f32>, tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expects a non-empty block
// RULE: reduce.non-empty-block
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expects a non-empty block}}
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect number of terminators operands (0) to match number of operands (2)
// RULE: reduce.terminator-operand-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %z = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect number of terminators operands (0) to match number of operands (2)}}
    %r0, %r1 = reduce %x, %z dim=0 identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32>, tile<8xf32> -> tile<f32>, tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<f32>, %a3: tile<f32>) {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.reduce' op expect same type for operand at index: 0 and terminator argument at index: 0 but got: 'f32' and 'i32'
// RULE: reduce.terminator-operand-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same type for operand at index: 0 and terminator argument at index: 0 but got: 'f32' and 'i32'}}
    %r0, %r1 = reduce %x, %y dim=0 identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<f32>, tile<i32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a2, %a0 : tile<i32>, tile<f32>
    }
  }
}

// -----

// Reported at the offending op, as NVIDIA's region verifier does.
// CHECK: reduction-invalid.mlir:[[# @LINE + 8]]:7: error: 'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.reduce'
// RULE: reduce.pure-body
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %r0 = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      // expected-error@+1 {{'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.reduce'}}
      %t = print_tko "step" -> token
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same number of operands and results
// RULE: scan.operand-result-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect same number of operands and results}}
    %r0, %r1 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>, tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0, %a1 : tile<f32>, tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op region #0 ('body') failed to verify constraint: region with 1 blocks
// RULE: scan.single-block-body
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    () {}
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.scan' number of operands and types do not match: got 0 operands and 1 types
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{number of operands and types do not match: got 0 operands and 1 types}}
    %r0 = scan dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>) {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expected 1 or more operands, but found 0
// RULE: scan.one-or-more-operands
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{expected 1 or more operands, but found 0}}
    %r0 = scan dim=0 reverse=false identities=[] : -> tile<8xf32>
    () {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect identities to match the number of operands but got: 1 operands and 2 identities
// RULE: scan.identity-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect identities to match the number of operands but got: 1 operands and 2 identities}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same type for operand at index: 1 and identity at index: 1 but got: 'i32' and 'f32'
// RULE: scan.identity-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same type for operand at index: 1 and identity at index: 1 but got: 'i32' and 'f32'}}
    %r0, %r1 = scan %x, %y dim=0 reverse=false identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32>, tile<8xi32> -> tile<8xf32>, tile<8xi32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative
// RULE: scan.dim-attribute
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
    %r0 = scan %x dim=-10 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op dimension (10) is out of bound [0, 1)
// RULE: scan.dim-in-range
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{dimension (10) is out of bound [0, 1)}}
    %r0 = scan %x dim=10 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op requires the same shape for all operands
// RULE: scan.same-operands-shape
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<16xi32>
    // expected-error@+1 {{requires the same shape for all operands}}
    %r0, %r1 = scan %x, %y dim=0 reverse=false identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<16xi32> -> tile<8xf32>, tile<16xi32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same type for operand at index: 0 and result at index: 0
// RULE: scan.result-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same type for operand at index: 0 and result at index: 0}}
    %r0, %r1 = scan %x, %y dim=0 reverse=false identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<16xf32>, tile<16xi32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect 2 block arguments but got: 0
// RULE: scan.block-argument-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 2 block arguments but got: 0}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    () {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect 0-rank tile type at index: 0 but got: '!cuda_tile.tile<1xf32>'
// RULE: scan.rank-0-block-arguments
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 0-rank tile type at index: 0 but got: '!cuda_tile.tile<1xf32>'}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<1xf32>, %a1: tile<f32>) {
      yield %a1 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect 0-rank tile type at index: 0 but got: 'f32'
// RULE: scan.rank-0-block-arguments
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect 0-rank tile type at index: 0 but got: 'f32'}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: f32, %a1: tile<f32>) {
      yield %a1 : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same element type for block argument at index: 2 and 3 but got: 'i32' and 'f32'
// RULE: scan.block-argument-element-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same element type for block argument at index: 2 and 3 but got: 'i32' and 'f32'}}
    %r0, %r1 = scan %x, %y dim=0 reverse=false identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<8xf32>, tile<8xi32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<f32>) {
      yield %a0, %a2 : tile<f32>, tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same type for operand at index: 0 and block argument at index: 0 but got: 'i32' and 'f32'
// RULE: scan.block-argument-types
cuda_tile.module @m {
  entry @k() {
    %y = constant <i32: 1> : tile<8xi32>
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect same type for operand at index: 0 and block argument at index: 0 but got: 'i32' and 'f32'}}
    %r0, %r1 = scan %y, %x dim=0 reverse=false identities=[0 : i32, 0.000000e+00 : f32] : tile<8xi32>, tile<8xf32> -> tile<8xi32>, tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<f32>, %a3: tile<f32>) {
      yield %a0, %a2 : tile<f32>, tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expects a non-empty block
// RULE: scan.non-empty-block
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expects a non-empty block}}
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect number of terminators operands (0) to match number of operands (2)
// RULE: scan.terminator-operand-count
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %z = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{expect number of terminators operands (0) to match number of operands (2)}}
    %r0, %r1 = scan %x, %z dim=0 reverse=false identities=[0.000000e+00 : f32, 0.000000e+00 : f32] : tile<8xf32>, tile<8xf32> -> tile<8xf32>, tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<f32>, %a3: tile<f32>) {
      yield
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.scan' op expect same type for operand at index: 0 and terminator argument at index: 0 but got: 'f32' and 'i32'
// RULE: scan.terminator-operand-types
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %y = constant <i32: 1> : tile<8xi32>
    // expected-error@+1 {{expect same type for operand at index: 0 and terminator argument at index: 0 but got: 'f32' and 'i32'}}
    %r0, %r1 = scan %x, %y dim=0 reverse=false identities=[0.000000e+00 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<8xf32>, tile<8xi32>
    (%a0: tile<f32>, %a1: tile<f32>, %a2: tile<i32>, %a3: tile<i32>) {
      yield %a2, %a0 : tile<i32>, tile<f32>
    }
  }
}

// -----

// Reported at the offending op, as NVIDIA's region verifier does.
// CHECK: reduction-invalid.mlir:[[# @LINE + 8]]:7: error: 'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.scan'
// RULE: scan.pure-body
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %r0 = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      // expected-error@+1 {{'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.scan'}}
      %t = print_tko "step" -> token
      yield %a0 : tile<f32>
    }
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.reduce' integer constant out of range for attribute
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{integer constant out of range for attribute}}
    %r0 = reduce %x dim=4294967296 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      yield %a0 : tile<f32>
    }
  }
}
