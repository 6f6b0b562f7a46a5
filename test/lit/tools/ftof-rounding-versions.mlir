// ftof with a rounding mode other than nearest_even (f32 -> f64 here) is valid
// from Tile IR 13.4 on (tileiras 13.4.92); NVIDIA's verifier for 13.1-13.3
// refuses it, so bytecode for those versions is refused.
// RUN: tile-opt %s -t 'tileirbc{version=13.4}' -o %t.13.4.tileirbc
// RUN: tile-opt %t.13.4.tileirbc | filecheck %s
// RUN: not tile-opt %s -t 'tileirbc{version=13.3}' -o %t.13.3.tileirbc 2>&1 | filecheck %s --check-prefix=OLD
// nearest_even (the default) is fine for 13.3:
// RUN: sed 's/ rounding<zero>//' %s | tile-opt - -t 'tileirbc{version=13.3}' -o %t.nearest.tileirbc

// CHECK: ftof %{{.*}} rounding<zero> : tile<2xf32> -> tile<2xf64>
// OLD: error: 'cuda_tile.ftof' from '!cuda_tile.tile<2xf32>' to '!cuda_tile.tile<2xf64>' with rounding<zero> requires bytecode version 13.4
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %x = constant <f32: [1.0, 2.0]> : tile<2xf32>
    %y = ftof %x rounding<zero> : tile<2xf32> -> tile<2xf64>
    %t = print_tko "%f", %y : tile<2xf64> -> token
    return
  }
}
