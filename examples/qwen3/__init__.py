"""Qwen3 decode in safe kernels: ``kernels`` (the kernel library), ``model`` (the decoder, its
decode step recorded once as a graph and replayed per token) and ``reference`` (the same math
in numpy)."""
