"""Command-line tools (``tile-opt``)."""
