// RUN: %roundtrip %s | filecheck %s

// Math functions: every op, every modifier, every element type (f16, bf16,
// f32, f64).  Most cases use the scalar (0-d) entry arguments; @shaped builds
// real tiles.

// CHECK: cuda_tile.module @math {
cuda_tile.module @math {
  // CHECK: entry @plain(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
  entry @plain(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
    // CHECK-NEXT: %ceil = ceil %a : tile<f32>
    %ceil = ceil %a : tile<f32>
    // CHECK-NEXT: %ceil_h = ceil %h : tile<f16>
    %ceil_h = ceil %h : tile<f16>
    // CHECK-NEXT: %floor = floor %bf : tile<bf16>
    %floor = floor %bf : tile<bf16>
    // CHECK-NEXT: %floor_d = floor %d : tile<f64>
    %floor_d = floor %d : tile<f64>
    // CHECK-NEXT: %cos = cos %a : tile<f32>
    %cos = cos %a : tile<f32>
    // CHECK-NEXT: %cos_d = cos %d : tile<f64>
    %cos_d = cos %d : tile<f64>
    // CHECK-NEXT: %cosh = cosh %h : tile<f16>
    %cosh = cosh %h : tile<f16>
    // CHECK-NEXT: %cosh_bf = cosh %bf : tile<bf16>
    %cosh_bf = cosh %bf : tile<bf16>
    // CHECK-NEXT: %sin = sin %a : tile<f32>
    %sin = sin %a : tile<f32>
    // CHECK-NEXT: %sin_bf = sin %bf : tile<bf16>
    %sin_bf = sin %bf : tile<bf16>
    // CHECK-NEXT: %sinh = sinh %d : tile<f64>
    %sinh = sinh %d : tile<f64>
    // CHECK-NEXT: %sinh_h = sinh %h : tile<f16>
    %sinh_h = sinh %h : tile<f16>
    // CHECK-NEXT: %tan = tan %a : tile<f32>
    %tan = tan %a : tile<f32>
    // CHECK-NEXT: %tan_h = tan %h : tile<f16>
    %tan_h = tan %h : tile<f16>
    // CHECK-NEXT: %log = log %a : tile<f32>
    %log = log %a : tile<f32>
    // CHECK-NEXT: %log_d = log %d : tile<f64>
    %log_d = log %d : tile<f64>
    // CHECK-NEXT: %log2 = log2 %bf : tile<bf16>
    %log2 = log2 %bf : tile<bf16>
    // CHECK-NEXT: %log2_h = log2 %h : tile<f16>
    %log2_h = log2 %h : tile<f16>
    // CHECK-NEXT: %atan2 = atan2 %a, %a : tile<f32>
    %atan2 = atan2 %a, %a : tile<f32>
    // CHECK-NEXT: %atan2_h = atan2 %h, %h : tile<f16>
    %atan2_h = atan2 %h, %h : tile<f16>
    // CHECK-NEXT: %atan2_bf = atan2 %bf, %bf : tile<bf16>
    %atan2_bf = atan2 %bf, %bf : tile<bf16>
    // CHECK-NEXT: %atan2_d = atan2 %d, %d : tile<f64>
    %atan2_d = atan2 %d, %d : tile<f64>
    return
  }

  // CHECK: entry @approx_full(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
  entry @approx_full(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
    // CHECK-NEXT: %exp = exp %a : tile<f32>
    %exp = exp %a : tile<f32>
    // CHECK-NEXT: %exp_full = exp %a : tile<f32>
    %exp_full = exp %a rounding<full> : tile<f32>
    // CHECK-NEXT: %exp_approx = exp %a rounding<approx> : tile<f32>
    %exp_approx = exp %a rounding<approx> : tile<f32>
    // CHECK-NEXT: %exp_h = exp %h : tile<f16>
    %exp_h = exp %h : tile<f16>
    // CHECK-NEXT: %exp_bf = exp %bf : tile<bf16>
    %exp_bf = exp %bf rounding<full> : tile<bf16>
    // CHECK-NEXT: %exp_d = exp %d : tile<f64>
    %exp_d = exp %d : tile<f64>
    // CHECK-NEXT: %tanh = tanh %a : tile<f32>
    %tanh = tanh %a : tile<f32>
    // CHECK-NEXT: %tanh_full = tanh %a : tile<f32>
    %tanh_full = tanh %a rounding<full> : tile<f32>
    // CHECK-NEXT: %tanh_approx = tanh %a rounding<approx> : tile<f32>
    %tanh_approx = tanh %a rounding<approx> : tile<f32>
    // CHECK-NEXT: %tanh_h = tanh %h : tile<f16>
    %tanh_h = tanh %h : tile<f16>
    // CHECK-NEXT: %tanh_bf = tanh %bf : tile<bf16>
    %tanh_bf = tanh %bf : tile<bf16>
    // CHECK-NEXT: %tanh_d = tanh %d : tile<f64>
    %tanh_d = tanh %d rounding<full> : tile<f64>
    return
  }

  // CHECK: entry @flush_to_zero(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
  entry @flush_to_zero(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
    // CHECK-NEXT: %exp2 = exp2 %a : tile<f32>
    %exp2 = exp2 %a : tile<f32>
    // CHECK-NEXT: %exp2_ftz = exp2 %a flush_to_zero : tile<f32>
    %exp2_ftz = exp2 %a flush_to_zero : tile<f32>
    // CHECK-NEXT: %exp2_h = exp2 %h : tile<f16>
    %exp2_h = exp2 %h : tile<f16>
    // CHECK-NEXT: %exp2_d = exp2 %d : tile<f64>
    %exp2_d = exp2 %d : tile<f64>
    // CHECK-NEXT: %rsqrt = rsqrt %a : tile<f32>
    %rsqrt = rsqrt %a : tile<f32>
    // CHECK-NEXT: %rsqrt_ftz = rsqrt %a flush_to_zero : tile<f32>
    %rsqrt_ftz = rsqrt %a flush_to_zero : tile<f32>
    // CHECK-NEXT: %rsqrt_bf = rsqrt %bf : tile<bf16>
    %rsqrt_bf = rsqrt %bf : tile<bf16>
    // CHECK-NEXT: %rsqrt_d = rsqrt %d : tile<f64>
    %rsqrt_d = rsqrt %d : tile<f64>
    return
  }

  // CHECK: entry @sqrt(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
  entry @sqrt(%a: tile<f32>, %h: tile<f16>, %bf: tile<bf16>, %d: tile<f64>) {
    // CHECK-NEXT: %sqrt = sqrt %a : tile<f32>
    %sqrt = sqrt %a : tile<f32>
    // CHECK-NEXT: %sqrt_ne = sqrt %a : tile<f32>
    %sqrt_ne = sqrt %a rounding<nearest_even> : tile<f32>
    // CHECK-NEXT: %sqrt_z = sqrt %h rounding<zero> : tile<f16>
    %sqrt_z = sqrt %h rounding<zero> : tile<f16>
    // CHECK-NEXT: %sqrt_ni = sqrt %bf rounding<negative_inf> : tile<bf16>
    %sqrt_ni = sqrt %bf rounding<negative_inf> : tile<bf16>
    // CHECK-NEXT: %sqrt_pi = sqrt %d rounding<positive_inf> : tile<f64>
    %sqrt_pi = sqrt %d rounding<positive_inf> : tile<f64>
    // CHECK-NEXT: %sqrt_approx = sqrt %a rounding<approx> : tile<f32>
    %sqrt_approx = sqrt %a rounding<approx> : tile<f32>
    // CHECK-NEXT: %sqrt_ftz = sqrt %a flush_to_zero : tile<f32>
    %sqrt_ftz = sqrt %a flush_to_zero : tile<f32>
    // CHECK-NEXT: %sqrt_approx_ftz = sqrt %a rounding<approx> flush_to_zero : tile<f32>
    %sqrt_approx_ftz = sqrt %a rounding<approx> flush_to_zero : tile<f32>
    // CHECK-NEXT: %sqrt_z_ftz = sqrt %a rounding<zero> flush_to_zero : tile<f32>
    %sqrt_z_ftz = sqrt %a rounding<zero> flush_to_zero : tile<f32>
    return
  }

  // CHECK: entry @shaped(%x: tile<f32>) {
  entry @shaped(%x: tile<f32>) {
    %t = constant <f32: 0.5> : tile<8xf32>
    %x1 = reshape %x : tile<f32> -> tile<1x1xf32>
    %x2 = broadcast %x1 : tile<1x1xf32> -> tile<4x4xf32>
    // CHECK: %exp = exp %t rounding<approx> : tile<8xf32>
    %exp = exp %t rounding<approx> : tile<8xf32>
    // CHECK-NEXT: %tanh = tanh %x2 : tile<4x4xf32>
    %tanh = tanh %x2 rounding<full> : tile<4x4xf32>
    // CHECK-NEXT: %sqrt = sqrt %x2 rounding<approx> flush_to_zero : tile<4x4xf32>
    %sqrt = sqrt %x2 rounding<approx> flush_to_zero : tile<4x4xf32>
    // CHECK-NEXT: %rsqrt = rsqrt %t flush_to_zero : tile<8xf32>
    %rsqrt = rsqrt %t flush_to_zero : tile<8xf32>
    // CHECK-NEXT: %atan2 = atan2 %x2, %x2 : tile<4x4xf32>
    %atan2 = atan2 %x2, %x2 : tile<4x4xf32>
    // CHECK-NEXT: %floor = floor %t : tile<8xf32>
    %floor = floor %t : tile<8xf32>
    return
  }

  // CHECK: entry @qualified(%a: tile<f32>, %h: tile<f16>) {
  entry @qualified(%a: !cuda_tile.tile<f32>, %h: !cuda_tile.tile<f16>) {
    // CHECK-NEXT: %exp = exp %a rounding<approx> : tile<f32>
    %exp = cuda_tile.exp %a rounding<approx> : !cuda_tile.tile<f32>
    // CHECK-NEXT: %sqrt = sqrt %h rounding<positive_inf> : tile<f16>
    %sqrt = cuda_tile.sqrt %h rounding<positive_inf> : !cuda_tile.tile<f16>
    // CHECK-NEXT: %rsqrt = rsqrt %a flush_to_zero : tile<f32>
    %rsqrt = cuda_tile.rsqrt %a flush_to_zero : !cuda_tile.tile<f32>
    // CHECK-NEXT: %atan2 = atan2 %h, %h : tile<f16>
    %atan2 = cuda_tile.atan2 %h, %h : !cuda_tile.tile<f16>
    // CHECK-NEXT: %tanh = tanh %a rounding<approx> : tile<f32>
    %tanh = "cuda_tile.tanh"(%a) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    // CHECK-NEXT: %cos = cos %h : tile<f16>
    %cos = "cuda_tile.cos"(%h) : (!cuda_tile.tile<f16>) -> !cuda_tile.tile<f16>
    return
  }
}
