// RUN: %roundtrip %s | filecheck %s

// Tile creation and shape manipulation: constant, iota, reshape, broadcast,
// permute, cat, extract, insert (13.4), pack and unpack (13.3).

cuda_tile.module @shape {
  // CHECK-LABEL: entry @integer_constants
  entry @integer_constants() {
    // CHECK: constant <i1: true> : tile<i1>
    %t = constant <i1: true> : tile<i1>
    // CHECK: constant <i1: false> : tile<8xi1>
    %f = constant <i1: false> : tile<8xi1>
    // CHECK: constant <i1: true> : tile<2xi1>
    %one = constant <i1: [1, -1]> : tile<2xi1>
    // CHECK: constant <i1: {{\[}}{{\[}}{{\[}}true, false], {{\[}}false, true]]]> : tile<1x2x2xi1>
    %b3 = constant <i1: [[[true, false], [false, true]]]> : tile<1x2x2xi1>
    // CHECK: constant <i8: 127> : tile<i8>
    %i8max = constant <i8: 127> : tile<i8>
    // CHECK: constant <i8: -128> : tile<i8>
    %i8min = constant <i8: -128> : tile<i8>
    // CHECK: constant <i8: -1> : tile<i8>
    %i8u = constant <i8: 255> : tile<i8>
    // CHECK: constant <i16: -1> : tile<i16>
    %i16hex = constant <i16: 0xFFFF> : tile<i16>
    // CHECK: constant <i16: 4267> : tile<i16>
    %i16hex2 = constant <i16: 0x10AB> : tile<i16>
    // CHECK: constant <i32: 0> : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    // CHECK: constant <i32: -2147483648> : tile<i32>
    %i32hex = constant <i32: 0x80000000> : tile<i32>
    // CHECK: constant <i32: {{\[}}0, -1, 42, 127, 10, 1000, -500, 255]> : tile<8xi32>
    %mixed = constant <i32: [0, -1, 42, 0x7F, 0xA, 1000, -500, 255]> : tile<8xi32>
    // CHECK: constant <i32: 42> : tile<1xi32>
    %single = constant <i32: [42]> : tile<1xi32>
    // CHECK: constant <i32: {{\[}}{{\[}}1, 2, 3, 4], {{\[}}5, 6, 7, 8]]> : tile<2x4xi32>
    %i2d = constant <i32: [[1, 2, 3, 4], [5, 6, 7, 8]]> : tile<2x4xi32>
    // CHECK: constant <i64: 9223372036854775807> : tile<i64>
    %i64max = constant <i64: 9223372036854775807> : tile<i64>
    // CHECK: constant <i64: -9223372036854775808> : tile<i64>
    %i64min = constant <i64: -9223372036854775808> : tile<i64>
    // CHECK: constant <i64: {{\[}}-1, 1311768467463790320]> : tile<2xi64>
    %i64hex = constant <i64: [0xFFFFFFFFFFFFFFFF, 0x123456789ABCDEF0]> : tile<2xi64>
    // More than 100 distinct elements print as MLIR's hex string.
    // CHECK: constant <i8: "0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F"> : tile<128xi8>
    %big = constant <i8: "0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F"> : tile<128xi8>
    // CHECK: constant <i8: 7> : tile<128xi8>
    %hexsplat = constant <i8: "0x07"> : tile<128xi8>
    return
  }

  // CHECK-LABEL: entry @float_constants
  entry @float_constants() {
    // CHECK: constant <f16: 1.500000e+00> : tile<f16>
    %h = constant <f16: 1.5> : tile<f16>
    // CHECK: constant <f16: -3.140630e+00> : tile<f16>
    %hpi = constant <f16: -3.14159> : tile<f16>
    // CHECK: constant <f16: 1.000000e+00> : tile<f16>
    %hhex = constant <f16: 0x3C00> : tile<f16>
    // CHECK: constant <f16: {{\[}}{{\[}}2.000000e+00, 1.000000e+00], {{\[}}4.000000e+00, 5.000000e+00]]> : tile<2x2xf16>
    %h2d = constant <f16: [[2.0, 1.0], [4.0, 5.0]]> : tile<2x2xf16>
    // CHECK: constant <bf16: 5.500000e+00> : tile<bf16>
    %bf = constant <bf16: 5.5> : tile<bf16>
    // CHECK: constant <f32: 0.000000e+00> : tile<128x128xf32>
    %zero = constant <f32: 0.0> : tile<128x128xf32>
    // CHECK: constant <f32: {{\[}}0.000000e+00, -0.000000e+00, 1.000000e+00, -1.000000e+00]> : tile<4xf32>
    %signed = constant <f32: [0.0, -0.0, 1.0, -1.0]> : tile<4xf32>
    // CHECK: constant <f32: {{\[}}1.000000e-01, 0.333333343, 3.141590e+00, 9.999940e-41]> : tile<4xf32>
    %digits = constant <f32: [0.1, 0.3333333333, 3.14159, 1.0e-40]> : tile<4xf32>
    // CHECK: constant <f32: 1.000000e+00> : tile<2xf32>
    %splat = constant <f32: [1.0, 0x3F800000]> : tile<2xf32>
    // CHECK: constant <f32: 1.500000e+00> : tile<2x4x4xf32>
    %splat3d = constant <f32: 1.5> : tile<2x4x4xf32>
    // CHECK: constant <f64: {{\[}}2.7182818284590451, 3.1415926535897931]> : tile<2xf64>
    %f64 = constant <f64: [2.718281828459045, 3.141592653589793]> : tile<2xf64>
    // CHECK: constant <f64: 1.000000e+00> : tile<f64>
    %f64hex = constant <f64: 0x3FF0000000000000> : tile<f64>
    // CHECK: constant <tf32: {{\[}}1.000000e+00, 9.997550e-02]> : tile<2xtf32>
    %tf32 = constant <tf32: [1.0, 0.1]> : tile<2xtf32>
    // CHECK: constant <f8E4M3FN: {{\[}}4.480000e+02, -1.250000e-01]> : tile<2xf8E4M3FN>
    %e4m3 = constant <f8E4M3FN: [448.0, -0.125]> : tile<2xf8E4M3FN>
    // CHECK: constant <f8E5M2: {{\[}}9.375000e-02, 5.734400e+04]> : tile<2xf8E5M2>
    %e5m2 = constant <f8E5M2: [0.1, 57344.0]> : tile<2xf8E5M2>
    // CHECK: constant <f8E8M0FNU: {{\[}}1.000000e+00, 1.024000e+03]> : tile<2xf8E8M0FNU>
    %e8m0 = constant <f8E8M0FNU: [1.0, 1000.0]> : tile<2xf8E8M0FNU>
    // CHECK: constant <f4E2M1FN: {{\[}}{{\[}}1.000000e+00, 2.000000e+00], {{\[}}4.000000e+00, 6.000000e+00]]> : tile<2x2xf4E2M1FN>
    %e2m1 = constant <f4E2M1FN: [[0x2, 0x4], [4.0, 6.0]]> : tile<2x2xf4E2M1FN>
    return
  }

  // CHECK-LABEL: entry @qualified
  entry @qualified(%a: !cuda_tile.tile<f32>) {
    // CHECK: %[[C:.*]] = constant <i32: 7> : tile<i32>
    %c = cuda_tile.constant <i32: 7> : !cuda_tile.tile<i32>
    // CHECK: iota : tile<8xi32>
    %i = cuda_tile.iota : !cuda_tile.tile<8xi32>
    // CHECK: reshape %a : tile<f32> -> tile<1xf32>
    %r = cuda_tile.reshape %a : !cuda_tile.tile<f32> -> !cuda_tile.tile<1xf32>
    // CHECK: broadcast %{{.*}} : tile<1xf32> -> tile<8xf32>
    %b = cuda_tile.broadcast %r : !cuda_tile.tile<1xf32> -> !cuda_tile.tile<8xf32>
    // CHECK: extract %{{.*}}[%[[C]]] : tile<8xf32> -> tile<4xf32>
    %e = cuda_tile.extract %b[%c] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<4xf32>
    return
  }

  // CHECK-LABEL: entry @shapes
  entry @shapes(%a: tile<f32>, %i: tile<i32>, %p: tile<ptr<f32>>) {
    // CHECK: iota : tile<256xi8>
    %i8 = iota : tile<256xi8>
    // CHECK: iota : tile<2xi1>
    %i1 = iota : tile<2xi1>
    // CHECK: iota : tile<16xi64>
    %i64 = iota : tile<16xi64>
    // CHECK: %[[R1:.*]] = reshape %a : tile<f32> -> tile<1x1xf32>
    %r1 = reshape %a : tile<f32> -> tile<1x1xf32>
    // CHECK: reshape %[[R1]] : tile<1x1xf32> -> tile<f32>
    %r0 = reshape %r1 : tile<1x1xf32> -> tile<f32>
    // CHECK: %[[B:.*]] = broadcast %[[R1]] : tile<1x1xf32> -> tile<2x4xf32>
    %b = broadcast %r1 : tile<1x1xf32> -> tile<2x4xf32>
    // CHECK: reshape %[[B]] : tile<2x4xf32> -> tile<8xf32>
    %flat = reshape %b : tile<2x4xf32> -> tile<8xf32>
    // CHECK: %[[P1:.*]] = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    // CHECK: broadcast %[[P1]] : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %p16 = broadcast %p1 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    // CHECK: permute %[[B]] [1, 0] : tile<2x4xf32> -> tile<4x2xf32>
    %t = permute %b [1,0] : tile<2x4xf32> -> tile<4x2xf32>
    // CHECK: %[[B3:.*]] = reshape %[[B]] : tile<2x4xf32> -> tile<2x2x2xf32>
    %b3 = reshape %b : tile<2x4xf32> -> tile<2x2x2xf32>
    // CHECK: permute %[[B3]] [2, 0, 1] : tile<2x2x2xf32> -> tile<2x2x2xf32>
    %t3 = permute %b3 [2, 0, 1] : tile<2x2x2xf32> -> tile<2x2x2xf32>
    // CHECK: %[[C0:.*]] = cat %[[B]], %[[B]] dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    %c0 = cat %b, %b dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    // CHECK: cat %[[B]], %[[B]] dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<2x8xf32>
    %c1 = cat %b, %b dim = 1
        : tile<2x4xf32>, tile<2x4xf32> -> tile<2x8xf32>
    // CHECK: %[[E:.*]] = extract %[[C0]][%i, %i] : tile<4x4xf32> -> tile<2x2xf32>
    %e = extract %c0[%i, %i] : tile<4x4xf32> -> tile<2x2xf32>
    // CHECK: extract %[[FLAT:.*]][%i] : tile<8xf32> -> tile<4xf32>
    %e1 = extract %flat[%i] : tile<8xf32> -> tile<4xf32>
    // CHECK: extract %a[] : tile<f32> -> tile<f32>
    %e0 = extract %a[] : tile<f32> -> tile<f32>
    // CHECK: insert %[[E]], %[[C0]][%i, %i] : tile<2x2xf32>, tile<4x4xf32>
    %n = insert %e, %c0[%i, %i] : tile<2x2xf32>, tile<4x4xf32>
    // CHECK: insert %a, %a[] : tile<f32>, tile<f32>
    %n0 = insert %a, %a[] : tile<f32>, tile<f32>
    // CHECK: %nq = insert %[[E]], %[[C0]][%i, %i] : tile<2x2xf32>, tile<4x4xf32>
    %nq = cuda_tile.insert %e, %c0[%i, %i] : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<4x4xf32>
    return
  }

  // CHECK-LABEL: entry @pack_unpack
  entry @pack_unpack() {
    %h = constant <f16: 0.0> : tile<64xf16>
    // CHECK: %[[PH:.*]] = pack %{{.*}} : tile<64xf16> -> tile<128xi8>
    %ph = pack %h : tile<64xf16> -> tile<128xi8>
    %f = constant <f32: 0.0> : tile<64xf32>
    // CHECK: pack %{{.*}} : tile<64xf32> -> tile<256xi8>
    %pf = pack %f : tile<64xf32> -> tile<256xi8>
    %b = constant <i1: true> : tile<16xi1>
    // CHECK: pack %{{.*}} : tile<16xi1> -> tile<2xi8>
    %pb = pack %b : tile<16xi1> -> tile<2xi8>
    %w = constant <i8: 1> : tile<64xi8>
    %n = trunci %w : tile<64xi8> -> tile<64xi4>
    // CHECK: pack %{{.*}} : tile<64xi4> -> tile<32xi8>
    %pn = pack %n : tile<64xi4> -> tile<32xi8>
    // CHECK: unpack %[[PH]] : tile<128xi8> -> tile<64xf16>
    %uh = unpack %ph : tile<128xi8> -> tile<64xf16>
    // CHECK: unpack %{{.*}} : tile<64xi8> -> tile<512xi1>
    %ub = unpack %w : tile<64xi8> -> tile<512xi1>
    // CHECK: unpack %{{.*}} : tile<64xi8> -> tile<128xi4>
    %un = unpack %w : tile<64xi8> -> tile<128xi4>
    // CHECK: unpack %{{.*}} : tile<64xi8> -> tile<128xf4E2M1FN>
    %u4 = unpack %w : tile<64xi8> -> tile<128xf4E2M1FN>
    // CHECK: unpack %{{.*}} : tile<64xi8> -> tile<16xf32>
    %uf = cuda_tile.unpack %w : !cuda_tile.tile<64xi8> -> !cuda_tile.tile<16xf32>
    return
  }
}
