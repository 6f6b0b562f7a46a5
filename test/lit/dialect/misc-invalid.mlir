// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// Type constraints are written in generic form: custom syntax checks them
// while parsing, which reports the same message.

// CHECK: error: 'cuda_tile.get_tile_block_id' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<i64>'
// RULE: get_tile_block_id.type-constraints
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{'cuda_tile.get_tile_block_id' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<i64>'}}
    %x, %y, %z = "cuda_tile.get_tile_block_id"() : () -> (!cuda_tile.tile<i64>, !cuda_tile.tile<i64>, !cuda_tile.tile<i64>)
  }
}

// -----

// CHECK: error: 'cuda_tile.get_num_tile_blocks' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<1xi32>'
// RULE: get_num_tile_blocks.type-constraints
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{'cuda_tile.get_num_tile_blocks' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<1xi32>'}}
    %x, %y, %z = "cuda_tile.get_num_tile_blocks"() : () -> (!cuda_tile.tile<1xi32>, !cuda_tile.tile<1xi32>, !cuda_tile.tile<1xi32>)
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.assume' expected assume predicate attribute
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{expected assume predicate attribute}}
    %0 = assume 32 : i32, %x : tile<i32>
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.assume' unknown assume predicate attribute: aligned (expected 'div_by', 'same_elements', or 'bounded')
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{unknown assume predicate attribute: aligned (expected 'div_by', 'same_elements', or 'bounded')}}
    %0 = assume aligned<16>, %x : tile<i32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values
// RULE: assume.div-by-value-types
cuda_tile.module @m {
  entry @k(%x: tile<f32>) {
    // expected-error@+1 {{div_by' is valid only for tile of integer/pointer or tensor_view values}}
    %0 = assume div_by<16>, %x : tile<f32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' divisor must be a power of 2
// RULE: assume.div-by-power-of-2
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{div_by' divisor must be a power of 2}}
    %0 = assume div_by<7>, %x : tile<i32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' divisor is too large
// RULE: assume.div-by-not-too-large
cuda_tile.module @m {
  entry @k(%x: tile<i8>) {
    // expected-error@+1 {{div_by' divisor is too large}}
    %0 = assume div_by<9223372036854775808>, %x : tile<i8>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile
// RULE: assume.div-by-no-along-on-0d
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f16>>) {
    // expected-error@+1 {{div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile}}
    %0 = assume div_by<1, every 8 along 0>, %p : tile<ptr<f16>>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view
// RULE: assume.div-by-no-along-on-tensor-view
cuda_tile.module @m {
  entry @k(%v: tensor_view<64x64xf16, strides=[64,1]>) {
    // expected-error@+1 {{div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view}}
    %0 = assume div_by<1, every 8 along 0>, %v : tensor_view<64x64xf16, strides=[64,1]>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective dimension (16)
// RULE: assume.div-by-every-in-dim
cuda_tile.module @m {
  entry @k() {
    %x = constant <i32: 0> : tile<16xi32>
    // expected-error@+1 {{div_by' every_dim to be within 0 and the size of the respective dimension (16)}}
    %0 = assume div_by<1, every 24 along 0>, %x : tile<16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.div_by' every_dim (1) must be >= 0 and < tile rank (1)
// RULE: assume.div-by-along-in-rank
cuda_tile.module @m {
  entry @k() {
    %x = constant <i32: 0> : tile<16xi32>
    // expected-error@+1 {{div_by' every_dim (1) must be >= 0 and < tile rank (1)}}
    %0 = assume div_by<1, every 2 along 1>, %x : tile<16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op expected 'cuda_tile.same_elements' value 0 to be within 0 and the size of the respective dimension (16)
// RULE: assume.same-elements-in-dim
cuda_tile.module @m {
  entry @k() {
    %x = constant <i32: 0> : tile<16xi32>
    // expected-error@+1 {{same_elements' value 0 to be within 0 and the size of the respective dimension (16)}}
    %0 = assume same_elements<[24]>, %x : tile<16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op expected number of values in 'cuda_tile.same_elements' (1) to match rank of constrained tile (0)
// RULE: assume.same-elements-rank
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f16>>) {
    // expected-error@+1 {{same_elements' (1) to match rank of constrained tile (0)}}
    %0 = assume same_elements<[8]>, %p : tile<ptr<f16>>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.same_elements' is valid only for tile of integer/pointer values
// RULE: assume.same-elements-value-types
cuda_tile.module @m {
  entry @k(%x: tile<f32>) {
    // expected-error@+1 {{same_elements' is valid only for tile of integer/pointer values}}
    %0 = assume same_elements<[]>, %x : tile<f32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.bounded' is valid only for tile of integer values
// RULE: assume.bounded-value-types
cuda_tile.module @m {
  entry @k(%x: tile<f32>) {
    // expected-error@+1 {{bounded' is valid only for tile of integer values}}
    %0 = assume bounded<0, 0>, %x : tile<f32>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.bounded' expects upper bound to be within [-128, 127]
// RULE: assume.bounded-upper-in-range
cuda_tile.module @m {
  entry @k(%x: tile<i8>) {
    // expected-error@+1 {{bounded' expects upper bound to be within [-128, 127]}}
    %0 = assume bounded<0, 128>, %x : tile<i8>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.bounded' expects lower bound to be within [-128, 127]
// RULE: assume.bounded-lower-in-range
cuda_tile.module @m {
  entry @k(%x: tile<i8>) {
    // expected-error@+1 {{bounded' expects lower bound to be within [-128, 127]}}
    %0 = assume bounded<-129, 6>, %x : tile<i8>
  }
}

// -----

// CHECK: error: 'cuda_tile.assume' op 'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound
// RULE: assume.bounded-lower-le-upper
cuda_tile.module @m {
  entry @k(%x: tile<i8>) {
    // expected-error@+1 {{bounded' expects lower bound to be less than or equal to upper bound}}
    %0 = assume bounded<8, 6>, %x : tile<i8>
  }
}

// -----

// CHECK: error: 'cuda_tile.assert' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'
// RULE: assert.type-constraints
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.assert' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'}}
    "cuda_tile.assert"(%x) <{message = "not a condition"}> : (!cuda_tile.tile<i32>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.print_tko' op incorrect number of operands: expected 1, found 0
// RULE: print_tko.operand-count
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{incorrect number of operands: expected 1, found 0}}
    %t = print_tko "Expect one parameter %i" -> token
  }
}

// -----

// Scanning resumes right after the `%` of a conversion, as NVIDIA's does: `%5%d` holds two.
// CHECK: error: 'cuda_tile.print_tko' op incorrect number of operands: expected 2, found 1
// RULE: print_tko.operand-count
cuda_tile.module @m {
  entry @k(%x: tile<f16>) {
    // expected-error@+1 {{incorrect number of operands: expected 2, found 1}}
    %t = print_tko "%5%d", %x : tile<f16> -> token
  }
}

// -----

// CHECK: error: 'cuda_tile.print_tko' op found unterminated format expression
// RULE: print_tko.terminated-format
cuda_tile.module @m {
  entry @k(%x: tile<f16>) {
    // expected-error@+1 {{found unterminated format expression}}
    %t = print_tko "hello_world, %", %x : tile<f16> -> token
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.print_tko' expected attribute value
cuda_tile.module @m {
  entry @k(%x: tile<f16>) {
    // expected-error@+1 {{expected attribute value}}
    %t = print_tko : tile<f16> -> token
  }
}

// -----

// CHECK: error: use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'}}
    %t = print_tko "test: %i\n", %x token = %x : tile<i32> -> token
  }
}

// -----

// CHECK: error: use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'}}
    %t = gdc_wait_tko token = %x -> token
  }
}

// -----

// CHECK: error: use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'}}
    %t = gdc_launch_dependents_tko token = %x -> token
  }
}

// -----

// RULE: assume.type-constraints
// The predicate is an assume predicate attribute.
cuda_tile.module @m {
  entry @e(%x: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.assume' op attribute 'predicate' failed to satisfy constraint: AssumePredicateAttrInterface instance}}
    %0 = "cuda_tile.assume"(%x) <{predicate = 1 : i32}> : (!cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.assume' op attribute 'predicate' failed to satisfy constraint: AssumePredicateAttrInterface instance
