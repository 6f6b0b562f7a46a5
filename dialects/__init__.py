"""Dialects: ``cuda_tile`` (NVIDIA Tile IR) and its text syntax."""
