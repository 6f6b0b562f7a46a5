// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{undefined symbol alias '#nowhere'}}
    return loc(#nowhere)
  }
}
// CHECK: error: undefined symbol alias '#nowhere'

// -----

cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{expected location, but '#three' is 3 : i64}}
    return loc(#three)
  }
}
#three = 3
// CHECK: error: expected location, but '#three' is 3 : i64
