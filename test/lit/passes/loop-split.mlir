// RUN: %opt %s --pass-pipeline='builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))' --split-input-file | filecheck %s
// RUN: %opt %s -loop-split="split-threshold=3" --split-input-file | filecheck %s --check-prefix=THRESHOLD

// iv >= n with step 1: the loop runs to min(n, ub) on the else branch, then
// from max(n, lb) on the then branch; the second starts from the first's result.
// CHECK-LABEL: entry @ge(
// CHECK-NOT: addi
// CHECK: %[[END:.*]] = mini %n, %ub signed : tile<i32>
// CHECK-NEXT: %[[START:.*]] = maxi %n, %lb signed : tile<i32>
// CHECK-NEXT: %[[FIRST:.*]] = for %i in (%lb to %[[END]], step %one) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
// CHECK-NEXT: %[[NO:.*]] = addi %acc, %i : tile<i32>
// CHECK-NEXT: continue %[[NO]] : tile<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[SECOND:.*]] = for %[[IV:.*]] in (%[[START]] to %ub, step %one) : tile<i32> iter_values(%[[ACC:.*]] = %[[FIRST]]) -> (tile<i32>) {
// CHECK-NEXT: %[[SQ:.*]] = muli %[[IV]], %[[IV]] : tile<i32>
// CHECK-NEXT: %[[YES:.*]] = addi %[[ACC]], %[[SQ]] : tile<i32>
// CHECK-NEXT: continue %[[YES]] : tile<i32>
// CHECK-NEXT: }
// CHECK-NEXT: store_ptr_tko weak %out, %[[SECOND]]
// THRESHOLD-LABEL: entry @ge(
// THRESHOLD: if %c
cuda_tile.module @m {
  entry @ge(%out: tile<ptr<i32>>, %n: tile<i32>, %lb: tile<i32>, %ub: tile<i32>) {
    %one = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %r = for %i in (%lb to %ub, step %one) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
      %c = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
      %v = if %c -> (tile<i32>) {
        %m = muli %i, %i : tile<i32>
        yield %m : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %a = addi %acc, %v : tile<i32>
      continue %a : tile<i32>
    }
    %t = store_ptr_tko weak %out, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}

// -----

// n < iv is iv > n: the split point is n + 1, aligned to the step (not 1):
// lb + ceil((p - lb) / step) * step.
// CHECK-LABEL: entry @gt_step(
// CHECK: %[[ONE:.*]] = constant <i32: 1> : tile<i32>
// CHECK-NEXT: %[[P:.*]] = addi %n, %[[ONE]] : tile<i32>
// CHECK-NEXT: %[[D:.*]] = subi %[[P]], %lb : tile<i32>
// CHECK-NEXT: %[[K:.*]] = divi %[[D]], %s signed rounding<positive_inf> : tile<i32>
// CHECK-NEXT: %[[KS:.*]] = muli %[[K]], %s : tile<i32>
// CHECK-NEXT: %[[AL:.*]] = addi %lb, %[[KS]] : tile<i32>
// CHECK-NEXT: mini %[[AL]], %ub signed
// CHECK-NEXT: maxi %[[AL]], %lb signed
// CHECK-NOT: if
cuda_tile.module @m {
  entry @gt_step(%out: tile<ptr<i32>>, %n: tile<i32>, %lb: tile<i32>, %ub: tile<i32>, %s: tile<i32>) {
    %zero = constant <i32: 0> : tile<i32>
    %r = for %i in (%lb to %ub, step %s) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
      %c = cmpi less_than %n, %i, signed : tile<i32> -> tile<i1>
      %v = if %c -> (tile<i32>) {
        yield %n : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %a = addi %acc, %v : tile<i32>
      continue %a : tile<i32>
    }
    %t = store_ptr_tko weak %out, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}

// -----

// Not split: `cuda_tile.loop_split = 0` on the if (then the for, then the
// entry, override split-threshold), an unsigned comparison in a signed loop,
// and an equality.
// CHECK-LABEL: entry @kept(
// CHECK-COUNT-3: if %
// THRESHOLD-LABEL: entry @kept(
cuda_tile.module @m {
  entry @kept(%out: tile<ptr<i32>>, %n: tile<i32>, %lb: tile<i32>, %ub: tile<i32>) {
    %one = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %r = for %i in (%lb to %ub, step %one) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
      %c = cmpi less_than %i, %n, signed : tile<i32> -> tile<i1>
      %v = if %c -> (tile<i32>) {
        yield %n : tile<i32>
      } else {
        yield %i : tile<i32>
      } {cuda_tile.loop_split = 0}
      %u = cmpi less_than %i, %n, unsigned : tile<i32> -> tile<i1>
      %w = if %u -> (tile<i32>) {
        yield %n : tile<i32>
      } else {
        yield %v : tile<i32>
      }
      %e = cmpi equal %i, %n, signed : tile<i32> -> tile<i1>
      %x = if %e -> (tile<i32>) {
        yield %n : tile<i32>
      } else {
        yield %w : tile<i32>
      }
      %a = addi %acc, %x : tile<i32>
      continue %a : tile<i32>
    }
    %t = store_ptr_tko weak %out, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
