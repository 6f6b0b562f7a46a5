// SINCE: 13.3
// pack and unpack (13.3): f16 data moved through i8 storage; i4 values unpacked from bytes.
cuda_tile.module @pack_unpack {
  entry @repack(%x: tile<ptr<f16>>, %y: tile<ptr<f16>>) {
    %i = iota : tile<64xi32>
    %x1 = reshape %x : tile<ptr<f16>> -> tile<1xptr<f16>>
    %x64 = broadcast %x1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %xp = offset %x64, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %v, %t1 = load_ptr_tko weak %xp : tile<64xptr<f16>> -> tile<64xf16>, token
    %bytes = pack %v : tile<64xf16> -> tile<128xi8>
    %back = unpack %bytes : tile<128xi8> -> tile<64xf16>
    %nib = unpack %bytes : tile<128xi8> -> tile<256xi4>
    %y1 = reshape %y : tile<ptr<f16>> -> tile<1xptr<f16>>
    %y64 = broadcast %y1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %yp = offset %y64, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %t2 = store_ptr_tko weak %yp, %back token = %t1 : tile<64xptr<f16>>, tile<64xf16> -> token
    return
  }
}
