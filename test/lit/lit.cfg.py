# lit configuration for safetile's FileCheck tests.
import os
import shutil
import sys

config.name = "safetile"
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "preloaded_tools.py", "inputs"]
config.test_source_root = os.path.dirname(__file__)

# Tools come from the environment lit runs in (the project's .venv).
config.environment["PATH"] = os.environ["PATH"]
TOOLS = ("tile-opt", "filecheck")
for tool in TOOLS:
    if shutil.which(tool) is None:
        lit_config.fatal(f"'{tool}' is not on PATH: run the tests with 'make test'")

# lit's internal shell runs every RUN line; tile-opt and filecheck run as forks of
# the worker, which imported them once (preloaded_tools.py; --param tools=spawn
# starts a new interpreter for each, as plain ShTest does).
sys.path.insert(0, config.test_source_root)
import preloaded_tools  # noqa: E402

config.test_format = preloaded_tools.test_format(lit_config, config, TOOLS)

# Short RUN lines: %opt prints canonical Tile IR; %roundtrip prints it too, after
# checking in the same process (tile-opt --verify-roundtrip) that printing is
# stable through the canonical, fully qualified and generic forms.
config.substitutions.append(("%roundtrip", "tile-opt --verify-roundtrip"))
config.substitutions.append(("%opt", "tile-opt"))
config.substitutions.append(
    ("%examples", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
)
