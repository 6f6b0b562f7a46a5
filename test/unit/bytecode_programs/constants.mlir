// ARCH: sm_100
// SINCE: 13.3
// Dense constants of every element type, as splats and element by element.
cuda_tile.module @constants {
  entry @constants() {
    %b0 = constant <i1: true> : tile<8xi1>
    %b1 = constant <i1: [true, false, true, true, false, false, true, false, true, true, false, false, false, false, false, true]> : tile<16xi1>
    %b2 = constant <i1: [false, false, false, false]> : tile<4xi1>
    %i8 = constant <i8: [-128, 127, 0, 1]> : tile<4xi8>
    %i16 = constant <i16: -300> : tile<2x2xi16>
    %i32 = constant <i32: [[1, 2], [3, -4]]> : tile<2x2xi32>
    %i64 = constant <i64: [9223372036854775807, -9223372036854775808]> : tile<2xi64>
    %h = constant <f16: [1.000000e+00, -2.500000e-01, 6.550400e+04, 0.000000e+00]> : tile<4xf16>
    %bf = constant <bf16: [1.000000e+00, 3.389530e+38]> : tile<2xbf16>
    %tf = constant <tf32: [1.000000e+00, 1.500000e+00]> : tile<2xtf32>
    %f = constant <f32: [0x7FC00000, 0xFF800000, -0.000000e+00, 1.000000e-03]> : tile<4xf32>
    %d = constant <f64: 3.1415926535897931> : tile<2xf64>
    %e4 = constant <f8E4M3FN: [1.000000e+00, -4.480000e+02]> : tile<2xf8E4M3FN>
    %e5 = constant <f8E5M2: [2.000000e+00, 5.734400e+04]> : tile<2xf8E5M2>
    %e8 = constant <f8E8M0FNU: [1.000000e+00, 2.000000e+00]> : tile<2xf8E8M0FNU>
    %f4 = constant <f4E2M1FN: [1.000000e+00, -6.000000e+00]> : tile<2xf4E2M1FN>
    %t = print_tko "%d %d %d %f %f\n", %i32, %i64, %i16, %h, %d : tile<2x2xi32>, tile<2xi64>, tile<2x2xi16>, tile<4xf16>, tile<2xf64> -> token
    return
  }
}
