// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s
//
// Every use of a value must come after its definition (MLIR's dominance
// rule): the parser accepts a forward reference, the verifier refuses it.

// A use before the definition, in the same block.
// CHECK: error: 'cuda_tile.addf' op operand #0 does not dominate this use
// CHECK: note: operand defined here (op in the same block)
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@+1 {{operand #0 does not dominate this use}}
    %1 = addf %2, %a : tile<f32>
    // expected-note@+1 {{operand defined here (op in the same block)}}
    %2 = addf %a, %a : tile<f32>
    return
  }
}

// -----

// A use inside an `if`, of a value defined after the `if`.
// CHECK: error: 'cuda_tile.negf' op operand #0 does not dominate this use
// CHECK: note: operand defined here (op in a parent region)
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %c: tile<i1>) {
    if %c {
      // expected-error@+1 {{operand #0 does not dominate this use}}
      %1 = negf %2 : tile<f32>
    }
    // expected-note@+1 {{operand defined here (op in a parent region)}}
    %2 = addf %a, %a : tile<f32>
    return
  }
}

// -----

// The second operand is the culprit: the message names its index.
// CHECK: error: 'cuda_tile.addf' op operand #1 does not dominate this use
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %lb: tile<i32>) {
    for %i in (%lb to %lb, step %lb) : tile<i32> {
      // expected-error@+1 {{operand #1 does not dominate this use}}
      %1 = addf %a, %2 : tile<f32>
    }
    // expected-note@+1 {{operand defined here (op in a parent region)}}
    %2 = negf %a : tile<f32>
    return
  }
}

// -----

// A use, after an `if`, of a name defined inside it: the name is out of
// scope there, so it is undeclared (MLIR's parser message).
// CHECK: error: use of undeclared SSA value name
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %c: tile<i1>) {
    if %c {
      %2 = negf %a : tile<f32>
    }
    // expected-error@+1 {{use of undeclared SSA value name}}
    %1 = negf %2 : tile<f32>
    return
  }
}

// -----

// An op's operand defined only inside the op's own region.
// CHECK: error: use of undeclared SSA value name
cuda_tile.module @m {
  entry @k(%lb: tile<i32>) {
    // expected-error@+1 {{use of undeclared SSA value name}}
    for %i in (%lb to %ub, step %lb) : tile<i32> {
      %ub = addi %lb, %lb : tile<i32>
    }
    return
  }
}

// -----

// The same for `loop`'s initial values and `if`'s condition.
// CHECK: error: use of undeclared SSA value name
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{use of undeclared SSA value name}}
    %r = loop iter_values(%v = %init) : tile<i32> -> tile<i32> {
      %init = constant <i32: 1> : tile<i32>
      break %v : tile<i32>
    }
    return
  }
}

// -----

// CHECK: error: use of undeclared SSA value name
cuda_tile.module @m {
  entry @k() {
    // expected-error@+1 {{use of undeclared SSA value name}}
    if %c {
      %c = constant <i1: true> : tile<i1>
    }
    return
  }
}
