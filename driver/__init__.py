"""The compile driver: the one place that turns a kernel variant into what runs.

``compile_variant(kernel, variant, target, options)`` takes a specialized
kernel (``frontend``) through the pipeline (``passes/pipeline.py``, with the
user's passes where they asked) and, for an arch target, to a cubin
(``backend``), and returns a ``CompiledVariant``: the lowered module, its
entry symbol, the parameter layout, the launch checks as data, the IR after
each stage and the cache key.  ``Kernel.compile``, every launch, ``warm_up``
and ahead-of-time builds, the autotuner and ``tile-opt kernel.py`` call it;
nothing else assembles passes.

Stage order: dialects <- frontend, passes <- backend <- driver <- runtime.
"""

from .compile import CompiledVariant, CompileOptions, compile_kernels, compile_variant
from .files import compile_file
from .user_passes import PIPELINE_POINTS, PassRequest, register_pipeline_pass, registered_pipeline_passes, trusted

__all__ = [
    "PIPELINE_POINTS",
    "CompileOptions",
    "CompiledVariant",
    "PassRequest",
    "compile_file",
    "compile_kernels",
    "compile_variant",
    "register_pipeline_pass",
    "registered_pipeline_passes",
    "trusted",
]
