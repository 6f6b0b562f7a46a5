# Python the kernel language does not have, names that do not exist, and
# control flow that cannot be compiled: each reported where it is written.
# RUN: not %opt %s 2>&1 | filecheck %s
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def undefined(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:13: error: name 'w' is not defined
    # CHECK: help: define it before use, or pass it as a parameter or generic
    z.store(w)


@st.kernel(specialize=[dict()])
def try_statement(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:5: error: unsupported Python construct in a kernel: 'try' statement
    # CHECK: help: kernels support assignments, calls, if, for, while, with st.unsafe(), assert and return
    try:
        z.store(0.0)
    except ValueError:
        pass


@st.kernel(specialize=[dict()])
def comprehension(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:13: error: unsupported Python expression in a kernel: list comprehension
    parts = [i for i in range(3)]
    z.store(0.0)


@st.kernel(specialize=[dict()])
def store_by_index(z: st.Mut[f32, (16,)]):
    t = st.zeros((16,), f32)
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:5: error: cannot assign to an indexed element
    # CHECK: help: tiles and tensors are immutable in kernels; store tiles with z.store(tile)
    t[0] = 1.0
    z.store(t)


def plain_helper(x):
    return x * 2.0


@st.kernel(specialize=[dict()])
def undecorated_call(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:13: error: 'plain_helper' is not a kernel function
    # CHECK: help: decorate 'plain_helper' with @st.function to call it with tiles
    z.store(plain_helper(st.zeros((16,), f32)))


@st.function
def odd(n, x):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:12: error: recursive call of device function 'even' (even -> odd -> even)
    # CHECK: help: device functions are inlined, so they cannot recurse; rewrite it as a loop
    return even(n, x)


@st.function
def even(n, x):
    # CHECK: note: inlined from {{.*}}errors-python.py:[[# @LINE + 1]]:12
    return odd(n, x)


@st.kernel(specialize=[dict()])
def mutual_recursion(z: st.Mut[f32, (16,)], n: i32):
    # CHECK: note: inlined from {{.*}}errors-python.py:[[# @LINE + 1]]:13
    z.store(even(n, st.zeros((16,), f32)))


@st.kernel(specialize=[dict()])
def return_in_loop(z: st.Mut[f32, (16,)], n: i32):
    for i in range(n):
        # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:13: error: return inside a loop is not supported
        if i > 3:
            return
    z.store(0.0)


@st.kernel(specialize=[dict()])
def kernel_returns_value(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:5: error: kernels return nothing
    return 1.0


@st.kernel(specialize=[dict()])
def one_branch_name(z: st.Mut[f32, (16,)], n: i32):
    if n > 0:
        t = st.zeros((16,), f32)
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:13: error: 't' is assigned on only some paths of the if at line [[# @LINE - 2]]
    z.store(t)


@st.kernel(specialize=[dict()])
def loop_local(z: st.Mut[f32, (16,)], n: i32):
    for i in range(n):
        last = i.astype(f32)
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:13: error: 'last' is assigned inside the loop at line [[# @LINE - 2]]; only names assigned before a loop are available after it
    z.store(last)


@st.kernel(specialize=[dict(B=24)])
def static_assert(z: st.Mut[f32, (16,)], *, B: int):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 2]]:5: error: static assertion failed: B must be a power of two
    # CHECK: help: this assert is checked at compile time for this specialization
    assert B & (B - 1) == 0, "B must be a power of two"
    z.store(0.0)


@st.kernel(specialize=[dict()])
def calls_kernel(z: st.Mut[f32, (16,)]):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:5: error: a kernel cannot be called from a kernel
    undefined(z)


@st.kernel(specialize=[dict()])
def for_else(z: st.Mut[f32, (16,)], n: i32):
    # CHECK: {{.*}}errors-python.py:[[# @LINE + 1]]:5: error: for ... else is not supported
    for i in range(n):
        pass
    else:
        pass
    z.store(0.0)


# CHECK: error: 13 kernel(s) failed to compile
