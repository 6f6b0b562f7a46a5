// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s
//
// Parser errors in MLIR's words: an error of a custom-format op's own parser
// carries MLIR's `custom op 'NAME'` prefix; xDSL's wordings are MLIR's.  A
// missing punctuation token is MLIR's `parseToken` error: no prefix, and
// placed just after the token before it.

// CHECK: parser-words-invalid.mlir:[[# @LINE + 4]]:21: error: expected ':'
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@below {{expected ':'}}
    %0 = addf %a, %a tile<f32>
    return
  }
}

// -----

// A missing keyword: MLIR's parseKeyword error, then the enum's own.
// CHECK: error: custom op 'cuda_tile.divi' expected valid keyword
// CHECK: error: custom op 'cuda_tile.divi' expected signedness to be one of: {'signed', 'unsigned'}
cuda_tile.module @m {
  entry @k(%a: tile<i32>) {
    // expected-error@below {{custom op 'cuda_tile.divi' expected valid keyword}}
    // expected-error@below {{custom op 'cuda_tile.divi' expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = divi %a, %a : tile<i32>
    return
  }
}

// -----

// A keyword that is no case: the enum's message alone.
// CHECK: error: custom op 'cuda_tile.divi' expected signedness to be one of: {'signed', 'unsigned'}
cuda_tile.module @m {
  entry @k(%a: tile<i32>) {
    // expected-error@below {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = divi %a, %a pluto : tile<i32>
    return
  }
}

// -----

// Result names are checked by MLIR's parser after the op's: no prefix.
// CHECK: error: operation defines 1 results but was provided 2 to bind
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@below {{operation defines 1 results but was provided 2 to bind}}
    %0:2 = negf %a : tile<f32>
    return
  }
}

// -----

// CHECK: error: cannot name an operation with no results
cuda_tile.module @m {
  entry @k() {
    // expected-error@below {{cannot name an operation with no results}}
    %0 = return
  }
}

// -----

// The generic form is read by MLIR's parser, not the op's: no prefix.
// CHECK: error: expected SSA operand
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@below {{expected SSA operand}}
    %0 = "cuda_tile.negf"(,) : (tile<f32>) -> tile<f32>
    return
  }
}

// -----

// An error inside a nested op is that op's, not its parent's.  A token
// missing at the end of a line is reported there, after the last token (blank
// lines and comments skipped), not at the next line's token.
// CHECK: parser-words-invalid.mlir:[[# @LINE + 5]]:17: error: expected ':'
// CHECK-NOT: custom op 'cuda_tile.entry'
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@+1 {{expected ':'}}
    %0 = negf %a
    // the `return` below is where xDSL stopped

    return
  }
}

// -----

// A variadic group's constraint reads `variadic of` (ODS's summary).
// CHECK: error: 'cuda_tile.get_tensor_shape' op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'
cuda_tile.module @m {
  entry @k(%v: tensor_view<8x8xf32, strides=[8,1]>) {
    // expected-error@below {{op result #0 must be variadic of 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0:2 = get_tensor_shape %v : tensor_view<8x8xf32, strides=[8,1]> -> tile<f32>
    return
  }
}

// -----

// A decimal integer for a float: MLIR's error, then its note at the same place.
// CHECK: error: unexpected decimal integer literal for a floating point value
// CHECK-NEXT: {{^}}    %0 = constant <f32: [1.0, 2]> : tile<2xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: note: add a trailing dot to make the literal a float
cuda_tile.module @m {
  entry @k() {
    // expected-error@below {{unexpected decimal integer literal for a floating point value}}
    // expected-note@below {{add a trailing dot to make the literal a float}}
    %0 = constant <f32: [1.0, 2]> : tile<2xf32>
    return
  }
}

