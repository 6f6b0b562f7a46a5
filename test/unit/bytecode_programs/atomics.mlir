// Pointer atomics: compare-and-swap and read-modify-write in several modes, masks and tokens.
cuda_tile.module @atomics {
  entry @histogram(%bins: tile<ptr<i32>>, %vals: tile<ptr<i32>>, %lock: tile<ptr<i32>>, %fsum: tile<ptr<f32>>) {
    %t0 = make_token : token
    %idx = iota : tile<64xi32>
    %vp0 = reshape %vals : tile<ptr<i32>> -> tile<1xptr<i32>>
    %vp1 = broadcast %vp0 : tile<1xptr<i32>> -> tile<64xptr<i32>>
    %vp = offset %vp1, %idx : tile<64xptr<i32>>, tile<64xi32> -> tile<64xptr<i32>>
    %v, %t1 = load_ptr_tko weak %vp token = %t0 : tile<64xptr<i32>> -> tile<64xi32>, token
    %c15 = constant <i32: 15> : tile<64xi32>
    %bin = andi %v, %c15 : tile<64xi32>
    %bp0 = reshape %bins : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bp1 = broadcast %bp0 : tile<1xptr<i32>> -> tile<64xptr<i32>>
    %bp = offset %bp1, %bin : tile<64xptr<i32>>, tile<64xi32> -> tile<64xptr<i32>>
    %one = constant <i32: 1> : tile<64xi32>
    %old, %t2 = atomic_rmw_tko relaxed device %bp, add, %one token = %t1 : tile<64xptr<i32>>, tile<64xi32> -> tile<64xi32>, token
    %zero = constant <i32: 0> : tile<64xi32>
    %pos = cmpi greater_than %v, %zero, signed : tile<64xi32> -> tile<64xi1>
    %mx, %t3 = atomic_rmw_tko acq_rel device %bp, max, %v, %pos token = %t2 : tile<64xptr<i32>>, tile<64xi32>, tile<64xi1> -> tile<64xi32>, token
    %x, %t4 = atomic_rmw_tko relaxed sys %bp, xchg, %old : tile<64xptr<i32>>, tile<64xi32> -> tile<64xi32>, token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %got, %t5 = atomic_cas_tko acquire device %lock, %c0, %c1 token = %t4 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %rel, %t6 = atomic_cas_tko release tl_blk %lock, %c1, %c0 token = %t5 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %f = constant <f32: 2.500000e-01> : tile<f32>
    %fo, %t7 = atomic_rmw_tko relaxed device %fsum, addf, %f token = %t6 : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    return
  }
}
