// NVIDIA's hint flags, in cuda-tile-opt's one-dash spelling: by default any
// hint is accepted; -Wunsupported-hints warns; -Werr-hints fails the op.
// RUN: %opt %s -split-input-file | filecheck %s --check-prefix=SILENT
// RUN: %opt %s -Wunsupported-hints -verify-diagnostics -split-input-file
// RUN: not %opt %s -Wunsupported-hints -Werr-hints -split-input-file 2>&1 | filecheck %s --check-prefix=ERR

// SILENT: optimization_hints=<sm_100a = {num_cta_in_cga = 2}>
// ERR: warning: unknown hint key sm_100a
// ERR: error: 'cuda_tile.entry' op Optimization hints verification failed
cuda_tile.module @m {
  // expected-warning@below {{unknown hint key sm_100a}}
  entry @k() optimization_hints=<sm_100a={num_cta_in_cga=2}> {
    return
  }
}

// -----

// Every problem of one architecture is reported (without -Werr-hints).
cuda_tile.module @m {
  // expected-warning@below {{expected 1 for sm_80.num_cta_in_cga}}
  // expected-warning@below {{integer value in the range [1, 32] is expected for sm_80.occupancy}}
  // expected-warning@below {{allow_tma is not known hint for current Operation}}
  entry @k() optimization_hints=<sm_80={num_cta_in_cga=2, occupancy=0, allow_tma=true}> {
    return
  }
}

// -----

// Valid hints: no warning.
cuda_tile.module @m {
  entry @k() optimization_hints=<sm_100={num_cta_in_cga=4, num_worker_warps_per_cta=8, occupancy=2}, default={occupancy=1}> {
    return
  }
}
