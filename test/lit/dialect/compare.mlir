// RUN: %roundtrip %s | filecheck %s

// Comparisons and selection: cmpf, cmpi and select.

cuda_tile.module @compare {
  // CHECK-LABEL: entry @cmpf
  entry @cmpf(%h: tile<f16>, %bh: tile<bf16>, %f: tile<f32>, %d: tile<f64>) {
    // CHECK: cmpf equal ordered %h, %h : tile<f16> -> tile<i1>
    %0 = cmpf equal ordered %h, %h : tile<f16> -> tile<i1>
    // CHECK: cmpf not_equal unordered %bh, %bh : tile<bf16> -> tile<i1>
    %1 = cmpf not_equal unordered %bh, %bh : tile<bf16> -> tile<i1>
    // CHECK: cmpf less_than ordered %f, %f : tile<f32> -> tile<i1>
    %2 = cmpf less_than ordered %f, %f : tile<f32> -> tile<i1>
    // CHECK: cmpf less_than_or_equal unordered %d, %d : tile<f64> -> tile<i1>
    %3 = cmpf less_than_or_equal unordered %d, %d : tile<f64> -> tile<i1>
    // CHECK: cmpf greater_than ordered %f, %f : tile<f32> -> tile<i1>
    %4 = cmpf greater_than ordered %f, %f : tile<f32> -> tile<i1>
    // CHECK: cmpf greater_than_or_equal unordered %f, %f : tile<f32> -> tile<i1>
    %5 = cmpf greater_than_or_equal unordered %f, %f : tile<f32> -> tile<i1>
    %v = constant <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>
    // CHECK: cmpf not_equal ordered %[[V:.*]], %[[V]] : tile<4xf32> -> tile<4xi1>
    %6 = cmpf not_equal ordered %v, %v : tile<4xf32> -> tile<4xi1>
    %t = constant <f64: [[1.0, 2.0], [3.0, 4.0]]> : tile<2x2xf64>
    // CHECK: cmpf less_than unordered %[[T:.*]], %[[T]] : tile<2x2xf64> -> tile<2x2xi1>
    %7 = cuda_tile.cmpf less_than unordered %t, %t : !cuda_tile.tile<2x2xf64> -> !cuda_tile.tile<2x2xi1>
    return
  }

  // CHECK-LABEL: entry @cmpi
  entry @cmpi(%b: tile<i1>, %c: tile<i8>, %s: tile<i16>, %i: tile<i32>, %l: tile<i64>) {
    // CHECK: cmpi equal %b, %b, unsigned : tile<i1> -> tile<i1>
    %0 = cmpi equal %b, %b, unsigned : tile<i1> -> tile<i1>
    // CHECK: cmpi not_equal %c, %c, signed : tile<i8> -> tile<i1>
    %1 = cmpi not_equal %c, %c, signed : tile<i8> -> tile<i1>
    // CHECK: cmpi less_than %s, %s, signed : tile<i16> -> tile<i1>
    %2 = cmpi less_than %s, %s, signed : tile<i16> -> tile<i1>
    // CHECK: cmpi less_than_or_equal %i, %i, unsigned : tile<i32> -> tile<i1>
    %3 = cmpi less_than_or_equal %i, %i, unsigned : tile<i32> -> tile<i1>
    // CHECK: cmpi greater_than %l, %l, signed : tile<i64> -> tile<i1>
    %4 = cmpi greater_than %l, %l, signed : tile<i64> -> tile<i1>
    // CHECK: cmpi greater_than_or_equal %l, %l, unsigned : tile<i64> -> tile<i1>
    %5 = cmpi greater_than_or_equal %l, %l, unsigned : tile<i64> -> tile<i1>
    %t = constant <i64: [[1, 2], [3, 4]]> : tile<2x2xi64>
    // CHECK: cmpi less_than %[[T:.*]], %[[T]], unsigned : tile<2x2xi64> -> tile<2x2xi1>
    %6 = cmpi less_than %t, %t, unsigned : tile<2x2xi64> -> tile<2x2xi1>
    // CHECK: cmpi equal %i, %i, signed : tile<i32> -> tile<i1>
    %7 = cuda_tile.cmpi equal %i, %i, signed : !cuda_tile.tile<i32> -> !cuda_tile.tile<i1>
    return
  }

  // CHECK-LABEL: entry @select
  entry @select(%c: tile<i1>, %i: tile<i32>, %f: tile<f16>, %p: tile<ptr<f32>>) {
    // CHECK: select %c, %i, %i : tile<i1>, tile<i32>
    %0 = select %c, %i, %i : tile<i1>, tile<i32>
    // CHECK: select %c, %f, %f : tile<i1>, tile<f16>
    %1 = select %c, %f, %f : tile<i1>, tile<f16>
    // CHECK: select %c, %p, %p : tile<i1>, tile<ptr<f32>>
    %2 = select %c, %p, %p : tile<i1>, tile<ptr<f32>>
    %v = constant <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>
    %w = constant <f32: 0.0> : tile<4xf32>
    // CHECK: %[[M:.*]] = cmpf greater_than ordered
    %m = cmpf greater_than ordered %v, %w : tile<4xf32> -> tile<4xi1>
    // CHECK: select %[[M]], %{{.*}}, %{{.*}} : tile<4xi1>, tile<4xf32>
    %3 = select %m, %v, %w : tile<4xi1>, tile<4xf32>
    %n = constant <i8: 1> : tile<4xi8>
    %n4 = trunci %n : tile<4xi8> -> tile<4xi4>
    // CHECK: select %[[M]], %{{.*}}, %{{.*}} : tile<4xi1>, tile<4xi4>
    %4 = select %m, %n4, %n4 : tile<4xi1>, tile<4xi4>
    // CHECK: select %c, %i, %i : tile<i1>, tile<i32>
    %5 = cuda_tile.select %c, %i, %i : !cuda_tile.tile<i1>, !cuda_tile.tile<i32>
    return
  }
}
