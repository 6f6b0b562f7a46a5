// RUN: %roundtrip %s | filecheck %s

// Conversions and casts: bitcast, exti, trunci, ftof, ftoi (with the 13.4
// saturating flag), itof, int_to_ptr, ptr_to_int, ptr_to_ptr and offset.

cuda_tile.module @conversion {
  // CHECK-LABEL: entry @bitcasts
  entry @bitcasts(%f: tile<f32>, %h: tile<f16>, %b: tile<i8>) {
    // CHECK: bitcast %f : tile<f32> -> tile<i32>
    %0 = bitcast %f : tile<f32> -> tile<i32>
    // CHECK: bitcast %h : tile<f16> -> tile<bf16>
    %1 = bitcast %h : tile<f16> -> tile<bf16>
    // CHECK: bitcast %b : tile<i8> -> tile<f8E4M3FN>
    %2 = bitcast %b : tile<i8> -> tile<f8E4M3FN>
    %v = constant <i64: [1, 2, 3, 4]> : tile<4xi64>
    // CHECK: bitcast %{{.*}} : tile<4xi64> -> tile<4xf64>
    %3 = bitcast %v : tile<4xi64> -> tile<4xf64>
    // CHECK: bitcast %f : tile<f32> -> tile<i32>
    %4 = cuda_tile.bitcast %f : !cuda_tile.tile<f32> -> !cuda_tile.tile<i32>
    return
  }

  // CHECK-LABEL: entry @integers
  entry @integers(%b: tile<i1>, %s: tile<i16>, %l: tile<i64>) {
    // CHECK: exti %s signed : tile<i16> -> tile<i32>
    %0 = exti %s signed : tile<i16> -> tile<i32>
    // CHECK: exti %s unsigned : tile<i16> -> tile<i64>
    %1 = exti %s unsigned : tile<i16> -> tile<i64>
    // CHECK: exti %b unsigned : tile<i1> -> tile<i8>
    %2 = exti %b unsigned : tile<i1> -> tile<i8>
    // CHECK: trunci %s : tile<i16> -> tile<i8>
    %3 = trunci %s : tile<i16> -> tile<i8>
    // CHECK: trunci %s : tile<i16> -> tile<i8>
    %4 = trunci %s overflow<none> : tile<i16> -> tile<i8>
    // CHECK: trunci %s overflow<no_signed_wrap> : tile<i16> -> tile<i8>
    %5 = trunci %s overflow<no_signed_wrap> : tile<i16> -> tile<i8>
    // CHECK: trunci %s overflow<no_unsigned_wrap> : tile<i16> -> tile<i8>
    %6 = trunci %s overflow<no_unsigned_wrap> : tile<i16> -> tile<i8>
    // CHECK: trunci %l overflow<no_wrap> : tile<i64> -> tile<i1>
    %7 = trunci %l overflow<no_wrap> : tile<i64> -> tile<i1>
    // CHECK: %[[N:.*]] = trunci %s : tile<i16> -> tile<i4>
    %n = trunci %s : tile<i16> -> tile<i4>
    // CHECK: exti %[[N]] signed : tile<i4> -> tile<i8>
    %8 = exti %n signed : tile<i4> -> tile<i8>
    %v = constant <i32: [1, 2]> : tile<2xi32>
    // CHECK: exti %{{.*}} signed : tile<2xi32> -> tile<2xi64>
    %9 = cuda_tile.exti %v signed : !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi64>
    // CHECK: trunci %{{.*}} overflow<no_wrap> : tile<2xi32> -> tile<2xi16>
    %10 = cuda_tile.trunci %v overflow<no_wrap> : !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi16>
    return
  }

  // CHECK-LABEL: entry @floats
  entry @floats(%f: tile<f32>, %d: tile<f64>, %h: tile<f16>) {
    // CHECK: ftof %f : tile<f32> -> tile<f16>
    %0 = ftof %f : tile<f32> -> tile<f16>
    // CHECK: ftof %f : tile<f32> -> tile<bf16>
    %1 = ftof %f rounding<nearest_even> : tile<f32> -> tile<bf16>
    // CHECK: ftof %f rounding<zero> : tile<f32> -> tile<f16>
    %2 = ftof %f rounding<zero> : tile<f32> -> tile<f16>
    // CHECK: ftof %h rounding<nearest_away> : tile<f16> -> tile<f32>
    %na = ftof %h rounding<nearest_away> : tile<f16> -> tile<f32>
    // CHECK: ftof %f rounding<nearest_away> : tile<f32> -> tile<tf32>
    %nt = ftof %f rounding<nearest_away> : tile<f32> -> tile<tf32>
    // CHECK: ftof %h rounding<negative_inf> : tile<f16> -> tile<f32>
    %3 = ftof %h rounding<negative_inf> : tile<f16> -> tile<f32>
    // CHECK: ftof %h rounding<positive_inf> : tile<f16> -> tile<f64>
    %4 = ftof %h rounding<positive_inf> : tile<f16> -> tile<f64>
    // CHECK: ftof %d rounding<negative_inf> : tile<f64> -> tile<f32>
    %5 = ftof %d rounding<negative_inf> : tile<f64> -> tile<f32>
    // CHECK: ftof %f rounding<zero> : tile<f32> -> tile<tf32>
    %6 = ftof %f rounding<zero> : tile<f32> -> tile<tf32>
    // CHECK: ftof %f : tile<f32> -> tile<f8E4M3FN>
    %7 = ftof %f : tile<f32> -> tile<f8E4M3FN>
    // CHECK: ftof %h : tile<f16> -> tile<f8E5M2>
    %8 = ftof %h : tile<f16> -> tile<f8E5M2>
    // CHECK: ftof %f rounding<zero> : tile<f32> -> tile<f8E8M0FNU>
    %9 = ftof %f rounding<zero> : tile<f32> -> tile<f8E8M0FNU>
    // CHECK: %[[E8:.*]] = ftof %f rounding<positive_inf> : tile<f32> -> tile<f8E8M0FNU>
    %e8 = ftof %f rounding<positive_inf> : tile<f32> -> tile<f8E8M0FNU>
    // CHECK: ftof %[[E8]] rounding<positive_inf> : tile<f8E8M0FNU> -> tile<f64>
    %10 = ftof %e8 rounding<positive_inf> : tile<f8E8M0FNU> -> tile<f64>
    %v = constant <f32: [1.0, 2.0]> : tile<2xf32>
    // CHECK: %[[F4:.*]] = ftof %{{.*}} : tile<2xf32> -> tile<2xf4E2M1FN>
    %f4 = ftof %v : tile<2xf32> -> tile<2xf4E2M1FN>
    // CHECK: ftof %[[F4]] rounding<zero> : tile<2xf4E2M1FN> -> tile<2xf16>
    %11 = ftof %f4 rounding<zero> : tile<2xf4E2M1FN> -> tile<2xf16>
    // CHECK: ftof %{{.*}} rounding<zero> : tile<2xf32> -> tile<2xbf16>
    %12 = cuda_tile.ftof %v rounding<zero> : !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xbf16>
    return
  }

  // CHECK-LABEL: entry @float_int
  entry @float_int(%f: tile<f32>, %h: tile<f16>, %b: tile<i1>, %s: tile<i16>, %l: tile<i64>) {
    // CHECK: ftoi %f signed : tile<f32> -> tile<i32>
    %0 = ftoi %f signed : tile<f32> -> tile<i32>
    // CHECK: ftoi %f unsigned : tile<f32> -> tile<i64>
    %1 = ftoi %f unsigned rounding<nearest_int_to_zero> : tile<f32> -> tile<i64>
    // CHECK: ftoi %h signed saturating : tile<f16> -> tile<i8>
    %2 = ftoi %h signed saturating : tile<f16> -> tile<i8>
    // CHECK: ftoi %f unsigned saturating : tile<f32> -> tile<i1>
    %3 = ftoi %f unsigned saturating : tile<f32> -> tile<i1>
    // CHECK: itof %s signed : tile<i16> -> tile<f32>
    %4 = itof %s signed : tile<i16> -> tile<f32>
    // CHECK: itof %l unsigned : tile<i64> -> tile<f64>
    %5 = itof %l unsigned rounding<nearest_even> : tile<i64> -> tile<f64>
    // CHECK: itof %b unsigned : tile<i1> -> tile<bf16>
    %6 = itof %b unsigned : tile<i1> -> tile<bf16>
    // CHECK: itof %s signed : tile<i16> -> tile<f8E4M3FN>
    %7 = itof %s signed : tile<i16> -> tile<f8E4M3FN>
    %v = constant <f16: [1.5, -2.5]> : tile<2xf16>
    // CHECK: ftoi %{{.*}} signed saturating : tile<2xf16> -> tile<2xi16>
    %8 = cuda_tile.ftoi %v signed saturating : !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xi16>
    // CHECK: itof %s unsigned : tile<i16> -> tile<tf32>
    %9 = cuda_tile.itof %s unsigned : !cuda_tile.tile<i16> -> !cuda_tile.tile<tf32>
    return
  }

  // CHECK-LABEL: entry @pointers
  entry @pointers(%p: tile<ptr<f32>>, %a: tile<i64>, %o: tile<i32>) {
    // CHECK: %[[P:.*]] = int_to_ptr %a : tile<i64> -> tile<ptr<f32>>
    %0 = int_to_ptr %a : tile<i64> -> tile<ptr<f32>>
    // CHECK: ptr_to_int %[[P]] : tile<ptr<f32>> -> tile<i64>
    %1 = ptr_to_int %0 : tile<ptr<f32>> -> tile<i64>
    // CHECK: ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<f16>>
    %2 = ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<f16>>
    // CHECK: ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<f32>>
    %3 = ptr_to_ptr %p : tile<ptr<f32>> -> tile<ptr<f32>>
    // CHECK: offset %p, %o : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
    %4 = offset %p, %o : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
    %r = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %v = broadcast %r : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %i = iota : tile<8xi8>
    // CHECK: offset %{{.*}}, %{{.*}} : tile<8xptr<f32>>, tile<8xi8> -> tile<8xptr<f32>>
    %5 = offset %v, %i : tile<8xptr<f32>>, tile<8xi8> -> tile<8xptr<f32>>
    // CHECK: ptr_to_int %{{.*}} : tile<8xptr<f32>> -> tile<8xi64>
    %6 = cuda_tile.ptr_to_int %v : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xi64>
    // CHECK: int_to_ptr %a : tile<i64> -> tile<ptr<i8>>
    %7 = cuda_tile.int_to_ptr %a : !cuda_tile.tile<i64> -> !cuda_tile.tile<!cuda_tile.ptr<i8>>
    // CHECK: offset %p, %a : tile<ptr<f32>>, tile<i64> -> tile<ptr<f32>>
    %8 = cuda_tile.offset %p, %a : !cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i64> -> !cuda_tile.tile<!cuda_tile.ptr<f32>>
    return
  }
}
