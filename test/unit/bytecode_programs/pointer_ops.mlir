// Pointer tiles: offset, masked loads with padding, masked stores, int/ptr casts, join_tokens.
cuda_tile.module @pointer_ops {
  entry @masked_copy(%src: tile<ptr<f16>>, %dst: tile<ptr<f16>>, %n: tile<i32>) {
    %t0 = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %base = muli %bx, %c128 : tile<i32>
    %i = iota : tile<128xi32>
    %b1 = reshape %base : tile<i32> -> tile<1xi32>
    %b128 = broadcast %b1 : tile<1xi32> -> tile<128xi32>
    %idx = addi %i, %b128 : tile<128xi32>
    %n1 = reshape %n : tile<i32> -> tile<1xi32>
    %n128 = broadcast %n1 : tile<1xi32> -> tile<128xi32>
    %mask = cmpi less_than %idx, %n128, signed : tile<128xi32> -> tile<128xi1>
    %s1 = reshape %src : tile<ptr<f16>> -> tile<1xptr<f16>>
    %s128 = broadcast %s1 : tile<1xptr<f16>> -> tile<128xptr<f16>>
    %sp = offset %s128, %idx : tile<128xptr<f16>>, tile<128xi32> -> tile<128xptr<f16>>
    %pad = constant <f16: 0.000000e+00> : tile<128xf16>
    %v, %t1 = load_ptr_tko weak %sp, %mask, %pad token = %t0 : tile<128xptr<f16>>, tile<128xi1>, tile<128xf16> -> tile<128xf16>, token
    %w, %t2 = load_ptr_tko relaxed device %sp, %mask : tile<128xptr<f16>>, tile<128xi1> -> tile<128xf16>, token
    %sum = addf %v, %w : tile<128xf16>
    %as_int = ptr_to_int %dst : tile<ptr<f16>> -> tile<i64>
    %back = int_to_ptr %as_int : tile<i64> -> tile<ptr<f16>>
    %bytes = ptr_to_ptr %back : tile<ptr<f16>> -> tile<ptr<i8>>
    %again = ptr_to_ptr %bytes : tile<ptr<i8>> -> tile<ptr<f16>>
    %d1 = reshape %again : tile<ptr<f16>> -> tile<1xptr<f16>>
    %d128 = broadcast %d1 : tile<1xptr<f16>> -> tile<128xptr<f16>>
    %dp = offset %d128, %idx : tile<128xptr<f16>>, tile<128xi32> -> tile<128xptr<f16>>
    %t12 = join_tokens %t1, %t2 : token
    %t3 = store_ptr_tko weak %dp, %sum, %mask token = %t12 : tile<128xptr<f16>>, tile<128xf16>, tile<128xi1> -> token
    return
  }
}
