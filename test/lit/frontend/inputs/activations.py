"""Device functions in their own module (the inter-module case of the seeds)."""

import safetile as st

NEGATIVE_SLOPE = 0.01


@st.function
def relu(x):
    return st.maximum(x, 0.0)


@st.function
def leaky_relu(x):
    # NEGATIVE_SLOPE resolves in this module, not in the caller's.
    return st.where(x > 0.0, x, x * NEGATIVE_SLOPE)


@st.function
def square(x):
    return x * x
