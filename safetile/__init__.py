"""safetile: safe GPU tile kernels in Python, compiled through NVIDIA Tile IR.

The stages of the compiler are subpackages: ``safetile.frontend``,
``safetile.dialects``, ``safetile.passes``, ``safetile.backend``,
``safetile.runtime`` and ``safetile.tools``.  This module is the public
facade; today it exposes the Tile IR text API.
"""

from importlib.metadata import PackageNotFoundError, version

from safetile.dialects.cuda_tile.diagnostics import Diagnostic, TileIRError
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir

try:
    __version__ = version("safetile")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = ["Diagnostic", "TileIRError", "parse_tile_ir", "print_tile_ir", "__version__"]
