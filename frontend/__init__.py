"""Frontend: Python kernel source (``ast``) to ``cuda_tile`` IR."""
