// RUN: %roundtrip %s | filecheck %s

// Element-wise arithmetic: every op, every modifier, every element type.
// Most cases use the scalar (0-d) entry arguments; @shaped builds real tiles.

// CHECK: cuda_tile.module @arith {
cuda_tile.module @arith {
  // CHECK: entry @float_rounded(%a: tile<f32>, %b: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
  entry @float_rounded(%a: tile<f32>, %b: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
    // CHECK-NEXT: %add = addf %a, %b : tile<f32>
    %add = addf %a, %b : tile<f32>
    // CHECK-NEXT: %add_ne = addf %a, %b : tile<f32>
    %add_ne = addf %a, %b rounding<nearest_even> : tile<f32>
    // CHECK-NEXT: %add_z = addf %h, %h rounding<zero> : tile<f16>
    %add_z = addf %h, %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %add_ni = addf %bf, %bf rounding<negative_inf> : tile<bf16>
    %add_ni = addf %bf, %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %add_pi = addf %d, %d rounding<positive_inf> : tile<f64>
    %add_pi = addf %d, %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %add_ftz = addf %a, %b rounding<zero> flush_to_zero : tile<f32>
    %add_ftz = addf %a, %b rounding<zero> flush_to_zero : tile<f32>
    // CHECK-NEXT: %sub = subf %a, %b : tile<f32>
    %sub = subf %a, %b : tile<f32>
    // CHECK-NEXT: %sub_z = subf %h, %h rounding<zero> : tile<f16>
    %sub_z = subf %h, %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %sub_ni = subf %bf, %bf rounding<negative_inf> : tile<bf16>
    %sub_ni = subf %bf, %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %sub_pi = subf %d, %d rounding<positive_inf> : tile<f64>
    %sub_pi = subf %d, %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %sub_ftz = subf %a, %b flush_to_zero : tile<f32>
    %sub_ftz = subf %a, %b flush_to_zero : tile<f32>
    // CHECK-NEXT: %mul = mulf %a, %b : tile<f32>
    %mul = mulf %a, %b : tile<f32>
    // CHECK-NEXT: %mul_z = mulf %h, %h rounding<zero> : tile<f16>
    %mul_z = mulf %h, %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %mul_ni = mulf %bf, %bf rounding<negative_inf> : tile<bf16>
    %mul_ni = mulf %bf, %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %mul_pi = mulf %d, %d rounding<positive_inf> : tile<f64>
    %mul_pi = mulf %d, %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %mul_ftz = mulf %a, %b flush_to_zero : tile<f32>
    %mul_ftz = mulf %a, %b rounding<nearest_even> flush_to_zero : tile<f32>
    // CHECK-NEXT: %div = divf %a, %b : tile<f32>
    %div = divf %a, %b : tile<f32>
    // CHECK-NEXT: %div_z = divf %h, %h rounding<zero> : tile<f16>
    %div_z = divf %h, %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %div_ni = divf %bf, %bf rounding<negative_inf> : tile<bf16>
    %div_ni = divf %bf, %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %div_pi = divf %d, %d rounding<positive_inf> : tile<f64>
    %div_pi = divf %d, %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %div_approx = divf %a, %b rounding<approx> : tile<f32>
    %div_approx = divf %a, %b rounding<approx> : tile<f32>
    // CHECK-NEXT: %div_full = divf %a, %b rounding<full> : tile<f32>
    %div_full = divf %a, %b rounding<full> : tile<f32>
    // CHECK-NEXT: %div_ftz = divf %a, %b rounding<approx> flush_to_zero : tile<f32>
    %div_ftz = divf %a, %b rounding<approx> flush_to_zero : tile<f32>
    // CHECK-NEXT: %fma = fma %a, %b, %a : tile<f32>
    %fma = fma %a, %b, %a : tile<f32>
    // CHECK-NEXT: %fma_z = fma %h, %h, %h rounding<zero> : tile<f16>
    %fma_z = fma %h, %h, %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %fma_ni = fma %bf, %bf, %bf rounding<negative_inf> : tile<bf16>
    %fma_ni = fma %bf, %bf, %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %fma_pi = fma %d, %d, %d rounding<positive_inf> : tile<f64>
    %fma_pi = fma %d, %d, %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %fma_ftz = fma %a, %b, %a rounding<zero> flush_to_zero : tile<f32>
    %fma_ftz = fma %a, %b, %a rounding<zero> flush_to_zero : tile<f32>
    return
  }

  // CHECK: entry @float_plain(%a: tile<f32>, %b: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>, %k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>) {
  entry @float_plain(%a: tile<f32>, %b: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>, %k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>) {
    // CHECK-NEXT: %max = maxf %a, %b : tile<f32>
    %max = maxf %a, %b : tile<f32>
    // CHECK-NEXT: %max_ftz = maxf %a, %b flush_to_zero : tile<f32>
    %max_ftz = maxf %a, %b flush_to_zero : tile<f32>
    // CHECK-NEXT: %max_nan = maxf %h, %h propagate_nan : tile<f16>
    %max_nan = maxf %h, %h propagate_nan : tile<f16>
    // CHECK-NEXT: %max_both = maxf %a, %b flush_to_zero propagate_nan : tile<f32>
    %max_both = maxf %a, %b flush_to_zero propagate_nan : tile<f32>
    // CHECK-NEXT: %max_swapped = maxf %a, %b flush_to_zero propagate_nan : tile<f32>
    %max_swapped = maxf %a, %b propagate_nan flush_to_zero : tile<f32>
    // CHECK-NEXT: %min = minf %bf, %bf : tile<bf16>
    %min = minf %bf, %bf : tile<bf16>
    // CHECK-NEXT: %min_ftz = minf %a, %b flush_to_zero : tile<f32>
    %min_ftz = minf %a, %b flush_to_zero : tile<f32>
    // CHECK-NEXT: %min_nan = minf %d, %d propagate_nan : tile<f64>
    %min_nan = minf %d, %d propagate_nan : tile<f64>
    // CHECK-NEXT: %min_both = minf %a, %b flush_to_zero propagate_nan : tile<f32>
    %min_both = minf %a, %b propagate_nan flush_to_zero : tile<f32>
    // CHECK-NEXT: %rem = remf %a, %b : tile<f32>
    %rem = remf %a, %b : tile<f32>
    // CHECK-NEXT: %rem_h = remf %h, %h : tile<f16>
    %rem_h = remf %h, %h : tile<f16>
    // CHECK-NEXT: %abs = absf %bf : tile<bf16>
    %abs = absf %bf : tile<bf16>
    // CHECK-NEXT: %abs_d = absf %d : tile<f64>
    %abs_d = absf %d : tile<f64>
    // CHECK-NEXT: %neg = negf %a : tile<f32>
    %neg = negf %a : tile<f32>
    // CHECK-NEXT: %neg_h = negf %h : tile<f16>
    %neg_h = negf %h : tile<f16>
    // CHECK-NEXT: %powf = fpowf %a, %b : tile<f32>
    %powf = fpowf %a, %b : tile<f32>
    // CHECK-NEXT: %powf_d = fpowf %d, %d : tile<f64>
    %powf_d = fpowf %d, %d : tile<f64>
    // CHECK-NEXT: %pow = pow %h, %h : tile<f16>
    %pow = pow %h, %h : tile<f16>
    // CHECK-NEXT: %powi_i1 = fpowi %bf, %k : tile<bf16>, tile<i1>
    %powi_i1 = fpowi %bf, %k : tile<bf16>, tile<i1>
    // CHECK-NEXT: %powi_i8 = fpowi %h, %c : tile<f16>, tile<i8>
    %powi_i8 = fpowi %h, %c : tile<f16>, tile<i8>
    // CHECK-NEXT: %powi_i16 = fpowi %d, %s : tile<f64>, tile<i16>
    %powi_i16 = fpowi %d, %s : tile<f64>, tile<i16>
    // CHECK-NEXT: %powi_i32 = fpowi %a, %i : tile<f32>, tile<i32>
    %powi_i32 = fpowi %a, %i : tile<f32>, tile<i32>
    return
  }

  // CHECK: entry @int_overflow(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
  entry @int_overflow(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
    // CHECK-NEXT: %add = addi %i, %i : tile<i32>
    %add = addi %i, %i : tile<i32>
    // CHECK-NEXT: %add_none = addi %i, %i : tile<i32>
    %add_none = addi %i, %i overflow<none> : tile<i32>
    // CHECK-NEXT: %add_nsw = addi %c, %c overflow<no_signed_wrap> : tile<i8>
    %add_nsw = addi %c, %c overflow<no_signed_wrap> : tile<i8>
    // CHECK-NEXT: %add_nuw = addi %s, %s overflow<no_unsigned_wrap> : tile<i16>
    %add_nuw = addi %s, %s overflow<no_unsigned_wrap> : tile<i16>
    // CHECK-NEXT: %add_nw = addi %l, %l overflow<no_wrap> : tile<i64>
    %add_nw = addi %l, %l overflow<no_wrap> : tile<i64>
    // CHECK-NEXT: %sub = subi %k, %k : tile<i1>
    %sub = subi %k, %k : tile<i1>
    // CHECK-NEXT: %sub_nsw = subi %i, %i overflow<no_signed_wrap> : tile<i32>
    %sub_nsw = subi %i, %i overflow<no_signed_wrap> : tile<i32>
    // CHECK-NEXT: %sub_nuw = subi %i, %i overflow<no_unsigned_wrap> : tile<i32>
    %sub_nuw = subi %i, %i overflow<no_unsigned_wrap> : tile<i32>
    // CHECK-NEXT: %sub_nw = subi %i, %i overflow<no_wrap> : tile<i32>
    %sub_nw = subi %i, %i overflow<no_wrap> : tile<i32>
    // CHECK-NEXT: %mul = muli %c, %c : tile<i8>
    %mul = muli %c, %c : tile<i8>
    // CHECK-NEXT: %mul_nsw = muli %i, %i overflow<no_signed_wrap> : tile<i32>
    %mul_nsw = muli %i, %i overflow<no_signed_wrap> : tile<i32>
    // CHECK-NEXT: %mul_nuw = muli %i, %i overflow<no_unsigned_wrap> : tile<i32>
    %mul_nuw = muli %i, %i overflow<no_unsigned_wrap> : tile<i32>
    // CHECK-NEXT: %mul_nw = muli %l, %l overflow<no_wrap> : tile<i64>
    %mul_nw = muli %l, %l overflow<no_wrap> : tile<i64>
    // CHECK-NEXT: %shl = shli %s, %s : tile<i16>
    %shl = shli %s, %s : tile<i16>
    // CHECK-NEXT: %shl_nsw = shli %i, %i overflow<no_signed_wrap> : tile<i32>
    %shl_nsw = shli %i, %i overflow<no_signed_wrap> : tile<i32>
    // CHECK-NEXT: %shl_nuw = shli %i, %i overflow<no_unsigned_wrap> : tile<i32>
    %shl_nuw = shli %i, %i overflow<no_unsigned_wrap> : tile<i32>
    // CHECK-NEXT: %shl_nw = shli %i, %i overflow<no_wrap> : tile<i32>
    %shl_nw = shli %i, %i overflow<no_wrap> : tile<i32>
    // CHECK-NEXT: %neg = negi %i : tile<i32>
    %neg = negi %i : tile<i32>
    // CHECK-NEXT: %neg_none = negi %c : tile<i8>
    %neg_none = negi %c overflow<none> : tile<i8>
    // CHECK-NEXT: %neg_nsw = negi %l overflow<no_signed_wrap> : tile<i64>
    %neg_nsw = negi %l overflow<no_signed_wrap> : tile<i64>
    // CHECK-NEXT: %neg_nw = negi %s overflow<no_wrap> : tile<i16>
    %neg_nw = negi %s overflow<no_wrap> : tile<i16>
    return
  }

  // CHECK: entry @int_signed(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
  entry @int_signed(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
    // CHECK-NEXT: %div_s = divi %i, %i signed : tile<i32>
    %div_s = divi %i, %i signed : tile<i32>
    // CHECK-NEXT: %div_u = divi %c, %c unsigned : tile<i8>
    %div_u = divi %c, %c unsigned : tile<i8>
    // CHECK-NEXT: %div_z = divi %i, %i signed : tile<i32>
    %div_z = divi %i, %i signed rounding<zero> : tile<i32>
    // CHECK-NEXT: %floordiv = divi %l, %l signed rounding<negative_inf> : tile<i64>
    %floordiv = divi %l, %l signed rounding<negative_inf> : tile<i64>
    // CHECK-NEXT: %ceildiv_s = divi %s, %s signed rounding<positive_inf> : tile<i16>
    %ceildiv_s = divi %s, %s signed rounding<positive_inf> : tile<i16>
    // CHECK-NEXT: %ceildiv_u = divi %k, %k unsigned rounding<positive_inf> : tile<i1>
    %ceildiv_u = divi %k, %k unsigned rounding<positive_inf> : tile<i1>
    // CHECK-NEXT: %rem_s = remi %i, %i signed : tile<i32>
    %rem_s = remi %i, %i signed : tile<i32>
    // CHECK-NEXT: %rem_u = remi %l, %l unsigned : tile<i64>
    %rem_u = remi %l, %l unsigned : tile<i64>
    // CHECK-NEXT: %max_s = maxi %c, %c signed : tile<i8>
    %max_s = maxi %c, %c signed : tile<i8>
    // CHECK-NEXT: %max_u = maxi %i, %i unsigned : tile<i32>
    %max_u = maxi %i, %i unsigned : tile<i32>
    // CHECK-NEXT: %min_s = mini %s, %s signed : tile<i16>
    %min_s = mini %s, %s signed : tile<i16>
    // CHECK-NEXT: %min_u = mini %k, %k unsigned : tile<i1>
    %min_u = mini %k, %k unsigned : tile<i1>
    // CHECK-NEXT: %shr_s = shri %i, %i signed : tile<i32>
    %shr_s = shri %i, %i signed : tile<i32>
    // CHECK-NEXT: %shr_u = shri %l, %l unsigned : tile<i64>
    %shr_u = shri %l, %l unsigned : tile<i64>
    return
  }

  // CHECK: entry @int_plain(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
  entry @int_plain(%k: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
    // CHECK-NEXT: %abs = absi %i : tile<i32>
    %abs = absi %i : tile<i32>
    // CHECK-NEXT: %abs_c = absi %c : tile<i8>
    %abs_c = absi %c : tile<i8>
    // CHECK-NEXT: %mulhi = mulhii %i, %i : tile<i32>
    %mulhi = mulhii %i, %i : tile<i32>
    // CHECK-NEXT: %mulhi_l = mulhii %l, %l : tile<i64>
    %mulhi_l = mulhii %l, %l : tile<i64>
    // CHECK-NEXT: %and = andi %k, %k : tile<i1>
    %and = andi %k, %k : tile<i1>
    // CHECK-NEXT: %and_s = andi %s, %s : tile<i16>
    %and_s = andi %s, %s : tile<i16>
    // CHECK-NEXT: %or = ori %c, %c : tile<i8>
    %or = ori %c, %c : tile<i8>
    // CHECK-NEXT: %or_l = ori %l, %l : tile<i64>
    %or_l = ori %l, %l : tile<i64>
    // CHECK-NEXT: %xor = xori %i, %i : tile<i32>
    %xor = xori %i, %i : tile<i32>
    // CHECK-NEXT: %xor_k = xori %k, %k : tile<i1>
    %xor_k = xori %k, %k : tile<i1>
    return
  }

  // CHECK: entry @shaped(%x: tile<f32>, %n: tile<i32>) {
  entry @shaped(%x: tile<f32>, %n: tile<i32>) {
    %ones = constant <f32: 1.0> : tile<4xf32>
    %idx = iota : tile<4xi32>
    %idx16 = iota : tile<4xi16>
    %x1 = reshape %x : tile<f32> -> tile<1x1xf32>
    %x2 = broadcast %x1 : tile<1x1xf32> -> tile<2x8xf32>
    %n1 = reshape %n : tile<i32> -> tile<1x1xi32>
    %n2 = broadcast %n1 : tile<1x1xi32> -> tile<2x8xi32>
    // CHECK: %fma = fma %x2, %x2, %x2 rounding<positive_inf> flush_to_zero : tile<2x8xf32>
    %fma = fma %x2, %x2, %x2 rounding<positive_inf> flush_to_zero : tile<2x8xf32>
    // CHECK-NEXT: %div = divf %ones, %ones rounding<full> : tile<4xf32>
    %div = divf %ones, %ones rounding<full> : tile<4xf32>
    // CHECK-NEXT: %max = maxf %x2, %x2 flush_to_zero propagate_nan : tile<2x8xf32>
    %max = maxf %x2, %x2 propagate_nan flush_to_zero : tile<2x8xf32>
    // CHECK-NEXT: %pow = fpowi %ones, %idx16 : tile<4xf32>, tile<4xi16>
    %pow = fpowi %ones, %idx16 : tile<4xf32>, tile<4xi16>
    // CHECK-NEXT: %powf = fpowf %ones, %ones : tile<4xf32>
    %powf = fpowf %ones, %ones : tile<4xf32>
    // CHECK-NEXT: %add = addi %idx, %idx overflow<no_unsigned_wrap> : tile<4xi32>
    %add = addi %idx, %idx overflow<no_unsigned_wrap> : tile<4xi32>
    // CHECK-NEXT: %floordiv = divi %n2, %n2 signed rounding<negative_inf> : tile<2x8xi32>
    %floordiv = divi %n2, %n2 signed rounding<negative_inf> : tile<2x8xi32>
    // CHECK-NEXT: %shr = shri %idx, %idx unsigned : tile<4xi32>
    %shr = shri %idx, %idx unsigned : tile<4xi32>
    // CHECK-NEXT: %hi = mulhii %n2, %n2 : tile<2x8xi32>
    %hi = mulhii %n2, %n2 : tile<2x8xi32>
    // CHECK-NEXT: %neg = negi %idx16 overflow<no_signed_wrap> : tile<4xi16>
    %neg = negi %idx16 overflow<no_signed_wrap> : tile<4xi16>
    return
  }

  // CHECK: entry @qualified(%a: tile<f32>, %i: tile<i32>, %c: tile<i8>) {
  entry @qualified(%a: !cuda_tile.tile<f32>, %i: !cuda_tile.tile<i32>, %c: !cuda_tile.tile<i8>) {
    // CHECK-NEXT: %add = addf %a, %a rounding<zero> : tile<f32>
    %add = cuda_tile.addf %a, %a rounding<zero> : !cuda_tile.tile<f32>
    // CHECK-NEXT: %max = maxf %a, %a propagate_nan : tile<f32>
    %max = cuda_tile.maxf %a, %a propagate_nan : !cuda_tile.tile<f32>
    // CHECK-NEXT: %pow = fpowi %a, %c : tile<f32>, tile<i8>
    %pow = cuda_tile.fpowi %a, %c : !cuda_tile.tile<f32>, !cuda_tile.tile<i8>
    // CHECK-NEXT: %addi = addi %i, %i overflow<no_wrap> : tile<i32>
    %addi = cuda_tile.addi %i, %i overflow<no_wrap> : !cuda_tile.tile<i32>
    // CHECK-NEXT: %div = divi %i, %i unsigned rounding<positive_inf> : tile<i32>
    %div = cuda_tile.divi %i, %i unsigned rounding<positive_inf> : !cuda_tile.tile<i32>
    // CHECK-NEXT: %neg = negi %i overflow<no_signed_wrap> : tile<i32>
    %neg = "cuda_tile.negi"(%i) <{overflow = #cuda_tile.overflow<no_signed_wrap>}> : (!cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>
    return
  }
}
