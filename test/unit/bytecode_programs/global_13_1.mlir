// A public, writable global: expressible in 13.1 bytecode.
cuda_tile.module @global_13_1 {
  global @acc <i64: [0, 0]> : tile<2xi64>
  entry @bump() {
    %g = get_global @acc : tile<ptr<i64>>
    %one = constant <i64: 1> : tile<i64>
    %old, %t = atomic_rmw_tko relaxed device %g, add, %one : tile<ptr<i64>>, tile<i64> -> tile<i64>, token
    return
  }
}
