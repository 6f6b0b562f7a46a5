"""The one compiled part of safetile: ``safetile.runtime.cuda._launch`` (runtime/cuda/_launch.c).

Everything else is declared in pyproject.toml.  The extension is optional: where
no C compiler is found the install goes on and launches go through cuda-python.
It is built against the limited API of Python 3.11, so one wheel serves 3.11 and
later (the GPU machines run 3.12).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "safetile.runtime.cuda._launch",
            sources=["runtime/cuda/_launch.c"],
            py_limited_api=True,
            optional=True,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
