// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the conversion ops.

// bitcast
// RULE: bitcast.all-shapes-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <i16: [1, 2, 3, 4]> : tile<4xi16>
    // expected-error@+1 {{'cuda_tile.bitcast' op failed to verify that all of {source, result} have same shape}}
    %0 = bitcast %t : tile<4xi16> -> tile<2xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.bitcast' op failed to verify that all of {source, result} have same shape

// -----

// RULE: bitcast.equal-width
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<i32>' of width 32 to type '!cuda_tile.tile<i16>' of width 16}}
    %0 = bitcast %i : tile<i32> -> tile<i16>
    return
  }
}
// CHECK: error: 'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<i32>' of width 32 to type '!cuda_tile.tile<i16>' of width 16

// -----

// RULE: bitcast.equal-width
cuda_tile.module @m {
  entry @e() {
    %t = constant <tf32: 1.0> : tile<4xtf32>
    // expected-error@+1 {{'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<4xtf32>' of width 19 to type '!cuda_tile.tile<4xi32>' of width 32}}
    %0 = bitcast %t : tile<4xtf32> -> tile<4xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<4xtf32>' of width 19 to type '!cuda_tile.tile<4xi32>' of width 32

// -----

// RULE: bitcast.type-constraints
// bitcast: pointers need ptr_to_int and int_to_ptr
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i64>>) {
    // expected-error@+1 {{'cuda_tile.bitcast' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<ptr<i64>>'}}
    %0 = bitcast %p : tile<ptr<i64>> -> tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.bitcast' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<ptr<i64>>'

// -----

// RULE: int_to_ptr.type-constraints
// int_to_ptr
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.int_to_ptr' op operand #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = int_to_ptr %i : tile<i32> -> tile<ptr<i8>>
    return
  }
}
// CHECK: error: 'cuda_tile.int_to_ptr' op operand #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: int_to_ptr.all-shapes-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <i64: 0> : tile<4xi64>
    // expected-error@+1 {{'cuda_tile.int_to_ptr' op failed to verify that all of {source, result} have same shape}}
    %0 = int_to_ptr %t : tile<4xi64> -> tile<2xptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.int_to_ptr' op failed to verify that all of {source, result} have same shape

// -----

// RULE: ptr_to_int.type-constraints
// ptr_to_int
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i8>>) {
    // expected-error@+1 {{'cuda_tile.ptr_to_int' op result #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = ptr_to_int %p : tile<ptr<i8>> -> tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.ptr_to_int' op result #0 must be tile of i64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: ptr_to_int.all-shapes-match
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i8>>) {
    // expected-error@+1 {{'cuda_tile.ptr_to_int' op failed to verify that all of {source, result} have same shape}}
    %0 = ptr_to_int %p : tile<ptr<i8>> -> tile<1xi64>
    return
  }
}
// CHECK: error: 'cuda_tile.ptr_to_int' op failed to verify that all of {source, result} have same shape

// -----

// RULE: ptr_to_ptr.all-shapes-match
// ptr_to_ptr
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i8>>) {
    // expected-error@+1 {{'cuda_tile.ptr_to_ptr' op failed to verify that all of {source, result} have same shape}}
    %0 = ptr_to_ptr %p : tile<ptr<i8>> -> tile<1xptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.ptr_to_ptr' op failed to verify that all of {source, result} have same shape

// -----

// RULE: ptr_to_ptr.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<ptr<i8>>) {
    // expected-error@+1 {{'cuda_tile.ptr_to_ptr' op result #0 must be tile of Pointer type values, but got '!cuda_tile.tile<i64>'}}
    %0 = ptr_to_ptr %p : tile<ptr<i8>> -> tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.ptr_to_ptr' op result #0 must be tile of Pointer type values, but got '!cuda_tile.tile<i64>'

// -----

// RULE: exti.wider-result
// exti
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.exti' op extending to smaller or identical integer}}
    %0 = exti %b signed : tile<i8> -> tile<i8>
    return
  }
}
// CHECK: error: 'cuda_tile.exti' op extending to smaller or identical integer

// -----

// RULE: exti.wider-result
cuda_tile.module @m {
  entry @e(%s: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.exti' op extending to smaller or identical integer}}
    %0 = exti %s unsigned : tile<i16> -> tile<i8>
    return
  }
}
// CHECK: error: 'cuda_tile.exti' op extending to smaller or identical integer

// -----

// RULE: exti.all-shapes-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <i8: [1, 2]> : tile<2xi8>
    // expected-error@+1 {{'cuda_tile.exti' op failed to verify that all of {from, to} have same shape}}
    %0 = exti %t signed : tile<2xi8> -> tile<i16>
    return
  }
}
// CHECK: error: 'cuda_tile.exti' op failed to verify that all of {from, to} have same shape

// -----

cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = exti %b : tile<i8> -> tile<i16>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.exti' expected signedness to be one of: {'signed', 'unsigned'}

// -----

// RULE: exti.type-constraints
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.exti' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f32>'}}
    %0 = exti %b signed : tile<i8> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.exti' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: trunci.narrower-result
// trunci
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.trunci' op truncating to larger or identical integer}}
    %0 = trunci %b : tile<i8> -> tile<i16>
    return
  }
}
// CHECK: error: 'cuda_tile.trunci' op truncating to larger or identical integer

// -----

// RULE: trunci.narrower-result
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.trunci' op truncating to larger or identical integer}}
    %0 = trunci %b : tile<i8> -> tile<i8>
    return
  }
}
// CHECK: error: 'cuda_tile.trunci' op truncating to larger or identical integer

// -----

// RULE: trunci.type-constraints
// The rejected type is the result's, not the operand's.
cuda_tile.module @m {
  entry @e(%b: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.trunci' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f16>'}}
    %0 = trunci %b : tile<i32> -> tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.trunci' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f16>'

// -----

// RULE: trunci.all-shapes-match
cuda_tile.module @m {
  entry @e() {
    %t = constant <i8: [1, 2]> : tile<2xi8>
    // expected-error@+1 {{'cuda_tile.trunci' op failed to verify that all of {from, to} have same shape}}
    %0 = trunci %t : tile<2xi8> -> tile<i1>
    return
  }
}
// CHECK: error: 'cuda_tile.trunci' op failed to verify that all of {from, to} have same shape

// -----

// RULE: ftof.all-shapes-match
// ftof
cuda_tile.module @m {
  entry @e() {
    %t = constant <f16: [1.1, 2.2]> : tile<2xf16>
    // expected-error@+1 {{'cuda_tile.ftof' op failed to verify that all of {from, to} have same shape}}
    %0 = ftof %t : tile<2xf16> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op failed to verify that all of {from, to} have same shape

// -----

// RULE: ftof.not-a-no-op
cuda_tile.module @m {
  entry @e() {
    %t = constant <f16: [1.1, 2.2]> : tile<2xf16>
    // expected-error@+1 {{'cuda_tile.ftof' op converting tiles must not be a no-op}}
    %0 = ftof %t : tile<2xf16> -> tile<2xf16>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op converting tiles must not be a no-op

// -----

// RULE: ftof.type-constraints
cuda_tile.module @m {
  entry @e() {
    %t = constant <f16: [1.1, 2.2]> : tile<2xf16>
    // expected-error@+1 {{'cuda_tile.ftof' op result #0 must be tile of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<2xi32>'}}
    %0 = ftof %t : tile<2xf16> -> tile<2xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op result #0 must be tile of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<2xi32>'

// -----

// ftof: the text takes only the IEEE rounding modes and nearest_away
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'nearest_away', got: 'approx'}}
    %0 = ftof %f rounding<approx> : tile<f32> -> tile<f16>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.ftof' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'nearest_away', got: 'approx'

// -----

// RULE: ftof.f8e8m0fnu-rounding
// ftof: rounding modes by kind of conversion (Tile IR 13.4)
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' and 'positive_inf' are supported}}
    %0 = ftof %f : tile<f32> -> tile<f8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' and 'positive_inf' are supported

// -----

// RULE: ftof.rounding-mode
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified for conversion to low-precision type. Only 'nearest_even' is supported}}
    %0 = ftof %f rounding<zero> : tile<f32> -> tile<f8E4M3FN>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified for conversion to low-precision type. Only 'nearest_even' is supported

// -----

// RULE: ftof.rounding-mode
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified for conversion from f32 to tf32. Only 'nearest_even', 'zero', and 'nearest_away' are supported}}
    %0 = ftof %f rounding<positive_inf> : tile<f32> -> tile<tf32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified for conversion from f32 to tf32. Only 'nearest_even', 'zero', and 'nearest_away' are supported

// -----

// RULE: ftof.rounding-mode
cuda_tile.module @m {
  entry @e(%x: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified for conversion from f64 to f32. Only 'nearest_even', 'zero', 'negative_inf', and 'positive_inf' are supported}}
    %0 = "cuda_tile.ftof"(%x) <{rounding_mode = #cuda_tile.rounding<full>}> : (!cuda_tile.tile<f64>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified for conversion from f64 to f32. Only 'nearest_even', 'zero', 'negative_inf', and 'positive_inf' are supported

// -----

// RULE: ftof.rounding-mode
cuda_tile.module @m {
  entry @e(%x: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified for widening conversion. Only IEEE float rounding modes are supported: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'nearest_away'}}
    %0 = "cuda_tile.ftof"(%x) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<bf16>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified for widening conversion. Only IEEE float rounding modes are supported: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'nearest_away'

// -----

// RULE: ftof.rounding-mode
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported for narrowing conversions to standard types}}
    %0 = ftof %f rounding<negative_inf> : tile<f32> -> tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported for narrowing conversions to standard types

// -----

// RULE: ftof.rounding-mode
// ftof: f16 to bf16 loses range, so it is narrowing
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported for narrowing conversions to standard types}}
    %0 = ftof %h rounding<positive_inf> : tile<f16> -> tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported for narrowing conversions to standard types

// -----

// RULE: ftoi.all-shapes-match
// ftoi
cuda_tile.module @m {
  entry @e() {
    %t = constant <f16: [1.1, 2.2]> : tile<2xf16>
    // expected-error@+1 {{'cuda_tile.ftoi' op failed to verify that all of {from, to} have same shape}}
    %0 = ftoi %t signed : tile<2xf16> -> tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftoi' op failed to verify that all of {from, to} have same shape

// -----

// RULE: ftoi.type-constraints
cuda_tile.module @m {
  entry @e(%s: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.ftoi' op operand #0 must be tile of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<i16>'}}
    %0 = ftoi %s signed : tile<i16> -> tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftoi' op operand #0 must be tile of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU values, but got '!cuda_tile.tile<i16>'

// -----

cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = ftoi %f : tile<f32> -> tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.ftoi' expected signedness to be one of: {'signed', 'unsigned'}

// -----

cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_int_to_zero', got: 'zero'}}
    %0 = ftoi %f signed rounding<zero> : tile<f32> -> tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.ftoi' expected rounding mode to be one of: 'nearest_int_to_zero', got: 'zero'

// -----

// RULE: ftoi.rounding-mode
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftoi' op invalid rounding mode specified. Only 'nearest_int_to_zero' is supported}}
    %0 = "cuda_tile.ftoi"(%f) <{signedness = #cuda_tile.signedness<signed>, rounding_mode = #cuda_tile.rounding<zero>}> : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.ftoi' op invalid rounding mode specified. Only 'nearest_int_to_zero' is supported

// -----

// RULE: ftoi.type-constraints
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ftoi' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<i4>'}}
    %0 = ftoi %f signed : tile<f32> -> tile<i4>
    return
  }
}
// CHECK: error: 'cuda_tile.ftoi' op result #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<i4>'

// -----

// RULE: itof.all-shapes-match
// itof
cuda_tile.module @m {
  entry @e() {
    %t = constant <i16: [1, 2]> : tile<2xi16>
    // expected-error@+1 {{'cuda_tile.itof' op failed to verify that all of {from, to} have same shape}}
    %0 = itof %t signed : tile<2xi16> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.itof' op failed to verify that all of {from, to} have same shape

// -----

// RULE: itof.type-constraints
cuda_tile.module @m {
  entry @e(%f: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.itof' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f16>'}}
    %0 = itof %f signed : tile<f16> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.itof' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f16>'

// -----

cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = itof %b : tile<i8> -> tile<f16>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.itof' expected signedness to be one of: {'signed', 'unsigned'}

// -----

// RULE: itof.no-f8e8m0fnu
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.itof' op integer to f8E8M0FNU conversion is not supported, please first convert to another float type}}
    %0 = itof %b signed : tile<i8> -> tile<f8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.itof' op integer to f8E8M0FNU conversion is not supported, please first convert to another float type

// -----

// RULE: itof.rounding-mode
cuda_tile.module @m {
  entry @e(%b: tile<i8>) {
    // expected-error@+1 {{'cuda_tile.itof' op invalid rounding mode specified. Only 'nearest_even' is supported}}
    %0 = itof %b signed rounding<zero> : tile<i8> -> tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.itof' op invalid rounding mode specified. Only 'nearest_even' is supported

// -----

// RULE: offset.same-operands-and-result-shape
// offset
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>) {
    %o = constant <i32: [1, 2]> : tile<2xi32>
    // expected-error@+1 {{'cuda_tile.offset' op requires the same shape for all operands and results}}
    %0 = offset %p, %o : tile<ptr<f32>>, tile<2xi32> -> tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.offset' op requires the same shape for all operands and results

// -----

// RULE: offset.all-types-match
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %o: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.offset' op failed to verify that all of {result, ptr} have same type}}
    %0 = offset %p, %o : tile<ptr<f32>>, tile<i32> -> tile<ptr<f16>>
    return
  }
}
// CHECK: error: 'cuda_tile.offset' op failed to verify that all of {result, ptr} have same type

// -----

// RULE: offset.type-constraints
cuda_tile.module @m {
  entry @e(%p: tile<ptr<f32>>, %o: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.offset' op operand #1 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = offset %p, %o : tile<ptr<f32>>, tile<f32> -> tile<ptr<f32>>
    return
  }
}
// CHECK: error: 'cuda_tile.offset' op operand #1 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: trunci.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.trunci' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f32>'}}
    %0 = trunci %a : tile<f32> -> tile<i8>
    return
  }
}
// CHECK: error: 'cuda_tile.trunci' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 or i4 values, but got '!cuda_tile.tile<f32>'
