"""Passes over ``cuda_tile`` IR, one module per pass, and the pass registry."""
