// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the shape ops.

// constant: the value starts with '<'
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected '<'}}
    %0 = constant "foo" : tile<i8>
    return
  }
}
// CHECK: error: expected '<'

// -----

// constant: the element type must be one a constant can hold
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '!cuda_tile.tile<i32>'}}
    %0 = constant <tile<i32>: 4> : tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '!cuda_tile.tile<i32>'

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got 'i4'}}
    %0 = constant <i4: 1> : tile<2xi4>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got 'i4'

// -----

// A word that names no type: MLIR's `unknown type` error comes first.
// CHECK: error: custom op 'cuda_tile.constant' unknown type: pluto
cuda_tile.module @m {
  entry @e() {
    // expected-error@+2 {{'cuda_tile.constant' unknown type: pluto}}
    // expected-error@+1 {{expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '<<NULL TYPE>>'}}
    %0 = constant <pluto : 42.0> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '<<NULL TYPE>>'

// -----

// constant: integers
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected integer value}}
    %0 = constant <i8: true> : tile<i8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expected integer value

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected integer value}}
    %0 = constant <i16: ABC> : tile<i16>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expected integer value

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected integer value}}
    %0 = constant <i32: 1.5> : tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expected integer value

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{integer constant out of range for type}}
    %0 = constant <i8: 256> : tile<i8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' integer constant out of range for type

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{integer constant out of range for type}}
    %0 = constant <i8: -129> : tile<i8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' integer constant out of range for type

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{integer constant out of range for type}}
    %0 = constant <i8: 0x10AB> : tile<i8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' integer constant out of range for type

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{integer constant out of range for type}}
    %0 = constant <i1: 2> : tile<i1>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' integer constant out of range for type

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{integer value too large}}
    %0 = constant <i64: 18446744073709551616> : tile<i64>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' integer value too large

// -----

// constant: floats
cuda_tile.module @m {
  entry @e() {
    // expected-error@+2 {{unexpected decimal integer literal for a floating point value}}
    // expected-note@+1 {{add a trailing dot to make the literal a float}}
    %0 = constant <f32: [0.0, 2]> : tile<2xf32>
    return
  }
}
// MLIR's own float parser's error (no `custom op` prefix) and note.
// CHECK: error: unexpected decimal integer literal for a floating point value

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{hexadecimal float constant out of range for type}}
    %0 = constant <f16: 0x12345678> : tile<f16>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' hexadecimal float constant out of range for type

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{hexadecimal float literal should not have a leading minus}}
    %0 = constant <f32: -0x3F800000> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' hexadecimal float literal should not have a leading minus

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected floating point literal}}
    %0 = constant <f32: true> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expected floating point literal

// -----

// constant: the type
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{mismatch between the element type: 'f16' and the tile element type 'f32'}}
    %0 = constant <f16: 42.0> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' mismatch between the element type: 'f16' and the tile element type 'f32'

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{result #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got 'tensor<f32>'}}
    %0 = constant <f32: 10.0> : tensor<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' result #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got 'tensor<f32>'

// -----

// constant: the shape
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{inferred shape of elements literal ([2, 2]) does not match type ([4, 2])}}
    %0 = constant <i1: [[true, true], [true, true]]> : tile<4x2xi1>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' inferred shape of elements literal ([2, 2]) does not match type ([4, 2])

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{inferred shape of elements literal ([1]) does not match type ([])}}
    %0 = constant <i32: [1]> : tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' inferred shape of elements literal ([1]) does not match type ([])

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{tensor literal is invalid; ranks are not consistent between elements}}
    %0 = constant <i32: [[[1, 2]], [[3, 4], [5, 6]]]> : tile<2x2x2xi32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' tensor literal is invalid; ranks are not consistent between elements

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{tensor literal is invalid; ranks are not consistent between elements}}
    %0 = constant <f32: [[1.0, 2.0, 3.0], [4.0, 5.0]]> : tile<2x4xf32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' tensor literal is invalid; ranks are not consistent between elements

// -----

// constant: MLIR's hex string form
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{expected a hex string of the form "0x..."}}
    %0 = constant <i8: "0xZZ"> : tile<4xi8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' expected a hex string of the form "0x..."

// -----

cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{hex literal holds 2 elements, but the type has 4}}
    %0 = constant <i8: "0x0102"> : tile<4xi8>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.constant' hex literal holds 2 elements, but the type has 4

// -----

// RULE: constant.all-types-match
// constant: the verifier
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.constant' op failed to verify that all of {value, result} have same type}}
    %0 = "cuda_tile.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> !cuda_tile.tile<4xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.constant' op failed to verify that all of {value, result} have same type

// -----

// RULE: iota.rank-1
// iota
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.iota' op expects result type to be 1-d tile}}
    %0 = iota : tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.iota' op expects result type to be 1-d tile

// -----

// RULE: iota.rank-1
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.iota' op expects result type to be 1-d tile}}
    %0 = iota : tile<32x64xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.iota' op expects result type to be 1-d tile

// -----

// RULE: iota.fits-element-type
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.iota' op the number of elements 512 exceeds the maximum value of element type 'i8'}}
    %0 = iota : tile<512xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.iota' op the number of elements 512 exceeds the maximum value of element type 'i8'

// -----

// RULE: iota.fits-element-type
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.iota' op the number of elements 4 exceeds the maximum value of element type 'i1'}}
    %0 = iota : tile<4xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.iota' op the number of elements 4 exceeds the maximum value of element type 'i1'

// -----

// RULE: reshape.same-operands-and-result-element-type
// reshape
cuda_tile.module @m {
  entry @e(%a: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.reshape' op requires the same element type for all operands and results}}
    %0 = reshape %a : tile<i16> -> tile<1xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.reshape' op requires the same element type for all operands and results

// -----

// RULE: reshape.element-count
cuda_tile.module @m {
  entry @e(%a: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements}}
    %0 = reshape %a : tile<i16> -> tile<1x2x1xi16>
    return
  }
}
// CHECK: error: 'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements

// -----

// RULE: broadcast.same-operands-and-result-element-type
// broadcast
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    %r = reshape %a : tile<f32> -> tile<1x1xf32>
    // expected-error@+1 {{'cuda_tile.broadcast' op requires the same element type for all operands and results}}
    %0 = broadcast %r : tile<1x1xf32> -> tile<2x2xf64>
    return
  }
}
// CHECK: error: 'cuda_tile.broadcast' op requires the same element type for all operands and results

// -----

// RULE: broadcast.all-ranks-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    %r = reshape %a : tile<f32> -> tile<1xf32>
    // expected-error@+1 {{'cuda_tile.broadcast' op failed to verify that all of {source, result} have same rank}}
    %0 = broadcast %r : tile<1xf32> -> tile<2x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.broadcast' op failed to verify that all of {source, result} have same rank

// -----

// RULE: broadcast.compatible-shape
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<4x4xf32>
    // expected-error@+1 {{'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 4, 4 and 2, 4}}
    %0 = broadcast %t : tile<4x4xf32> -> tile<2x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 4, 4 and 2, 4

// -----

// RULE: permute.all-element-types-match
// permute
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op failed to verify that all of {source, result} have the same element type}}
    %0 = permute %t [0, 1] : tile<1x2xf32> -> tile<1x2xf64>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op failed to verify that all of {source, result} have the same element type

// -----

// RULE: permute.all-ranks-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op failed to verify that all of {source, result} have same rank}}
    %0 = permute %t [0, 1] : tile<1x2xf32> -> tile<1x1x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op failed to verify that all of {source, result} have same rank

// -----

// RULE: permute.rank-2
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op expects at least rank 2, but got: 1}}
    %0 = permute %t [0] : tile<2xf32> -> tile<2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op expects at least rank 2, but got: 1

// -----

// RULE: permute.permutation-size
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op expect permutation size (3) to equal the rank of the source (2)}}
    %0 = permute %t [0, 1, 100] : tile<1x2xf32> -> tile<1x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op expect permutation size (3) to equal the rank of the source (2)

// -----

// RULE: permute.unique
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op expect permutation elements to be unique}}
    %0 = permute %t [0, 0] : tile<1x2xf32> -> tile<1x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op expect permutation elements to be unique

// -----

// RULE: permute.in-bounds
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op permutation element at index 1 (100) is out of bound [0, 2)}}
    %0 = permute %t [0, 100] : tile<1x2xf32> -> tile<1x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op permutation element at index 1 (100) is out of bound [0, 2)

// -----

// RULE: permute.in-bounds
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op permutation element at index 0 (-1) is out of bound [0, 2)}}
    %0 = permute %t [-1, 1] : tile<1x2xf32> -> tile<1x2xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op permutation element at index 0 (-1) is out of bound [0, 2)

// -----

// RULE: permute.result-shape
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<1x2xf32>
    // expected-error@+1 {{'cuda_tile.permute' op result shape invalid at index 0, expected: 2, but got: 1}}
    %0 = permute %t [1, 0] : tile<1x2xf32> -> tile<1x1xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op result shape invalid at index 0, expected: 2, but got: 1

// -----

// RULE: cat.all-ranks-match
// cat
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    // expected-error@+1 {{'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have same rank}}
    %0 = cat %t, %t dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<16xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have same rank

// -----

// RULE: cat.all-element-types-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    %u = constant <f16: 0.0> : tile<2x4xf16>
    // expected-error@+1 {{'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have the same element type}}
    %0 = cat %t, %u dim = 0 : tile<2x4xf32>, tile<2x4xf16> -> tile<4x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have the same element type

// -----

// RULE: cat.dim-in-range
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    // expected-error@+1 {{'cuda_tile.cat' op expect dim to be [0, 2), but got: -1}}
    %0 = cat %t, %t dim = -1 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op expect dim to be [0, 2), but got: -1

// -----

// RULE: cat.dim-in-range
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    // expected-error@+1 {{'cuda_tile.cat' op expect dim to be [0, 2), but got: 2}}
    %0 = cat %t, %t dim = 2 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op expect dim to be [0, 2), but got: 2

// -----

// RULE: cat.concat-dim-sum
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    // expected-error@+1 {{'cuda_tile.cat' op invalid concat at position 1, expected: 8 but got: 16}}
    %0 = cat %t, %t dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<2x16xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op invalid concat at position 1, expected: 8 but got: 16

// -----

// RULE: cat.lhs-rhs-shapes
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    %u = constant <f32: 0.0> : tile<2x8xf32>
    // expected-error@+1 {{'cuda_tile.cat' op expect lhs and rhs shapes to match at non-concat position 1, expected: 4 but got: 8}}
    %0 = cat %t, %u dim = 0 : tile<2x4xf32>, tile<2x8xf32> -> tile<4x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op expect lhs and rhs shapes to match at non-concat position 1, expected: 4 but got: 8

// -----

// RULE: cat.lhs-result-shapes
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x4xf32>
    // expected-error@+1 {{'cuda_tile.cat' op expect lhs and result shapes to match at non-concat position 0, expected: 2 but got: 4}}
    %0 = cat %t, %t dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op expect lhs and result shapes to match at non-concat position 0, expected: 2 but got: 4

// -----

// RULE: extract.all-ranks-match
// extract
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    // expected-error@+1 {{'cuda_tile.extract' op failed to verify that all of {source, result} have same rank}}
    %0 = extract %t[%i] : tile<8xf32> -> tile<2x1xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.extract' op failed to verify that all of {source, result} have same rank

// -----

// RULE: extract.element-types-match
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    // expected-error@+1 {{'cuda_tile.extract' op source and result element type do not match}}
    %0 = extract %t[%i] : tile<8xf32> -> tile<2xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.extract' op source and result element type do not match

// -----

// RULE: extract.divisible-shape
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8x4xf32>
    // expected-error@+1 {{'cuda_tile.extract' op source dimension 1 size (4) must be evenly divisible by result dimension 1 size (8)}}
    %0 = extract %t[%i, %i] : tile<8x4xf32> -> tile<4x8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.extract' op source dimension 1 size (4) must be evenly divisible by result dimension 1 size (8)

// -----

// RULE: extract.index-count
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<4x8xf32>
    // expected-error@+1 {{'cuda_tile.extract' op expected 2 indices, but got 1}}
    %0 = extract %t[%i] : tile<4x8xf32> -> tile<2x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.extract' op expected 2 indices, but got 1

// -----

// RULE: extract.type-constraints
// extract: indices are tile<i32> values
cuda_tile.module @m {
  entry @e(%i: tile<i64>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    // expected-error@+1 {{'cuda_tile.extract' op operand #1 must be variadic of 0D tile of i32 values, but got '!cuda_tile.tile<i64>'}}
    %0 = "cuda_tile.extract"(%t, %i) : (!cuda_tile.tile<8xf32>, !cuda_tile.tile<i64>) -> !cuda_tile.tile<4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.extract' op operand #1 must be variadic of 0D tile of i32 values, but got '!cuda_tile.tile<i64>'

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i64>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    // expected-note@-2 {{prior use here}}
    // expected-error@+1 {{use of value '%i' expects different type than prior uses: '!cuda_tile.tile<i32>' vs '!cuda_tile.tile<i64>'}}
    %0 = extract %t[%i] : tile<8xf32> -> tile<4xf32>
    return
  }
}
// CHECK: error: use of value '%i' expects different type than prior uses: '!cuda_tile.tile<i32>' vs '!cuda_tile.tile<i64>'

// -----

// insert (13.4)
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    %s = constant <i32: 0> : tile<4xi32>
    // expected-error@+1 {{'cuda_tile.insert' op source and result element type do not match}}
    %0 = insert %s, %t[%i] : tile<4xi32>, tile<8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.insert' op source and result element type do not match

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<2x8xf32>
    %s = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.insert' op source and result must have the same rank}}
    %0 = insert %s, %t[%i, %i] : tile<4xf32>, tile<2x8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.insert' op source and result must have the same rank

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<4xf32>
    %s = constant <f32: 0.0> : tile<8xf32>
    // expected-error@+1 {{'cuda_tile.insert' op result dimension 0 size (4) must be evenly divisible by source dimension 0 size (8)}}
    %0 = insert %s, %t[%i] : tile<8xf32>, tile<4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.insert' op result dimension 0 size (4) must be evenly divisible by source dimension 0 size (8)

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    %s = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.insert' op expected 1 indices, but got 2}}
    %0 = insert %s, %t[%i, %i] : tile<4xf32>, tile<8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.insert' op expected 1 indices, but got 2

// -----

// insert: the result has the destination's type
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    %t = constant <f32: 0.0> : tile<8xf32>
    %s = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.insert' op failed to verify that all of {destination, result} have same type}}
    %0 = "cuda_tile.insert"(%s, %t, %i) : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<8xf32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<16xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.insert' op failed to verify that all of {destination, result} have same type

// -----

// RULE: pack.all-ranks-match
// pack (13.3)
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x2xf32>
    // expected-error@+1 {{'cuda_tile.pack' op failed to verify that all of {source, result} have same rank}}
    %0 = pack %t : tile<2x2xf32> -> tile<16xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op failed to verify that all of {source, result} have same rank

// -----

// RULE: pack.rank-1
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<2x2xf32>
    // expected-error@+1 {{'cuda_tile.pack' op expects source and result to be rank-1 tiles}}
    %0 = pack %t : tile<2x2xf32> -> tile<2x8xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op expects source and result to be rank-1 tiles

// -----

// RULE: pack.different-widths
cuda_tile.module @m {
  entry @e() {
    %t = constant <i8: 0> : tile<4xi8>
    // expected-error@+1 {{'cuda_tile.pack' op expects source and result to have different element type widths}}
    %0 = pack %t : tile<4xi8> -> tile<4xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op expects source and result to have different element type widths

// -----

// RULE: pack.byte-aligned
cuda_tile.module @m {
  entry @e() {
    %t = constant <i1: true> : tile<4xi1>
    // expected-error@+1 {{'cuda_tile.pack' op expects source tile to be byte-aligned}}
    %0 = pack %t : tile<4xi1> -> tile<1xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op expects source tile to be byte-aligned

// -----

// RULE: pack.same-size
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.pack' op expects source and result to have the same size in bytes, but got source tile size 16 bytes and result tile size 8 bytes}}
    %0 = pack %t : tile<4xf32> -> tile<8xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op expects source and result to have the same size in bytes, but got source tile size 16 bytes and result tile size 8 bytes

// -----

// RULE: pack.type-constraints
cuda_tile.module @m {
  entry @e() {
    %t = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.pack' op result #0 must be tile of i8 values, but got '!cuda_tile.tile<8xi16>'}}
    %0 = pack %t : tile<4xf32> -> tile<8xi16>
    return
  }
}
// CHECK: error: 'cuda_tile.pack' op result #0 must be tile of i8 values, but got '!cuda_tile.tile<8xi16>'

// -----

// RULE: unpack.byte-aligned
// unpack (13.3)
cuda_tile.module @m {
  entry @e() {
    %t = constant <i8: 0> : tile<1xi8>
    // expected-error@+1 {{'cuda_tile.unpack' op expects result tile to be byte-aligned}}
    %0 = unpack %t : tile<1xi8> -> tile<4xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op expects result tile to be byte-aligned

// -----

// RULE: unpack.same-size
cuda_tile.module @m {
  entry @e() {
    %t = constant <i8: 0> : tile<16xi8>
    // expected-error@+1 {{'cuda_tile.unpack' op expects source and result to have the same size in bytes, but got source tile size 16 bytes and result tile size 32 bytes}}
    %0 = unpack %t : tile<16xi8> -> tile<8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op expects source and result to have the same size in bytes, but got source tile size 16 bytes and result tile size 32 bytes

// -----

// RULE: unpack.type-constraints
cuda_tile.module @m {
  entry @e() {
    %t = constant <i16: 0> : tile<8xi16>
    // expected-error@+1 {{'cuda_tile.unpack' op operand #0 must be tile of i8 values, but got '!cuda_tile.tile<8xi16>'}}
    %0 = unpack %t : tile<8xi16> -> tile<4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op operand #0 must be tile of i8 values, but got '!cuda_tile.tile<8xi16>'

// -----

// RULE: unpack.all-ranks-match
cuda_tile.module @m {
  testing$func @e(%a: tile<4xi8>) {
    // expected-error@+1 {{'cuda_tile.unpack' op failed to verify that all of {source, result} have same rank}}
    %0 = unpack %a : tile<4xi8> -> tile<2x4xi4>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op failed to verify that all of {source, result} have same rank

// -----

// RULE: unpack.rank-1
cuda_tile.module @m {
  testing$func @e(%a: tile<2x4xi8>) {
    // expected-error@+1 {{'cuda_tile.unpack' op expects source and result to be rank-1 tiles}}
    %0 = unpack %a : tile<2x4xi8> -> tile<2x4xi4>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op expects source and result to be rank-1 tiles

// -----

// RULE: unpack.different-widths
cuda_tile.module @m {
  testing$func @e(%a: tile<4xi8>) {
    // expected-error@+1 {{'cuda_tile.unpack' op expects source and result to have different element type widths}}
    %0 = unpack %a : tile<4xi8> -> tile<4xi8>
    return
  }
}
// CHECK: error: 'cuda_tile.unpack' op expects source and result to have different element type widths

// -----

// RULE: reshape.type-constraints
cuda_tile.module @m {
  testing$func @e(%a: tile<4xf32>) {
    // expected-error@+1 {{'cuda_tile.reshape' op result #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'}}
    %0 = "cuda_tile.reshape"(%a) : (!cuda_tile.tile<4xf32>) -> !cuda_tile.tensor_view<4xf32, strides=[1]>
    return
  }
}
// CHECK: error: 'cuda_tile.reshape' op result #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'

// -----

// RULE: iota.type-constraints
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.iota' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<4xf32>'}}
    %0 = iota : tile<4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.iota' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<4xf32>'

// -----

// RULE: broadcast.type-constraints
cuda_tile.module @m {
  entry @e(%a: tensor_view<4xf32, strides=[1]>) {
    // expected-error@+1 {{'cuda_tile.broadcast' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'}}
    %0 = "cuda_tile.broadcast"(%a) : (!cuda_tile.tensor_view<4xf32, strides=[1]>) -> !cuda_tile.tile<4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.broadcast' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'

// -----

// RULE: cat.type-constraints
cuda_tile.module @m {
  testing$func @e(%a: tensor_view<4xf32, strides=[1]>, %b: tile<4xf32>) {
    // expected-error@+1 {{'cuda_tile.cat' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'}}
    %0 = "cuda_tile.cat"(%a, %b) <{dim = 0 : i64}> : (!cuda_tile.tensor_view<4xf32, strides=[1]>, !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<8xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.cat' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4xf32, strides=[1]>'

// -----

// RULE: permute.type-constraints
cuda_tile.module @m {
  entry @e(%a: tensor_view<4x4xf32, strides=[4,1]>) {
    // expected-error@+1 {{'cuda_tile.permute' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4x4xf32, strides=[4,1]>'}}
    %0 = "cuda_tile.permute"(%a) <{permutation = array<i32: 1, 0>}> : (!cuda_tile.tensor_view<4x4xf32, strides=[4,1]>) -> !cuda_tile.tile<4x4xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.permute' op operand #0 must be Tile type, but got '!cuda_tile.tensor_view<4x4xf32, strides=[4,1]>'

// -----

// RULE: constant.type-constraints
cuda_tile.module @m {
  entry @e() {
    // expected-error@+1 {{'cuda_tile.constant' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '!cuda_tile.token'}}
    %0 = "cuda_tile.constant"() <{value = dense<1> : tensor<i32>}> : () -> !cuda_tile.token
    return
  }
}
// CHECK: error: 'cuda_tile.constant' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, but got '!cuda_tile.token'
