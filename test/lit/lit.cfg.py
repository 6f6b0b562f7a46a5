# lit configuration for safetile's FileCheck tests.
import os
import shutil

import lit.formats

config.name = "safetile"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "inputs"]
config.test_source_root = os.path.dirname(__file__)

# Tools come from the environment lit runs in (the project's .venv).
config.environment["PATH"] = os.environ["PATH"]
for tool in ("tile-opt", "filecheck"):
    if shutil.which(tool) is None:
        lit_config.fatal(f"'{tool}' is not on PATH: run the tests with 'make test'")

# Short RUN lines: %opt prints canonical Tile IR; %roundtrip prints it too, after
# checking in the same process (tile-opt --verify-roundtrip) that printing is
# stable through the canonical, fully qualified and generic forms.
config.substitutions.append(("%roundtrip", "tile-opt --verify-roundtrip"))
config.substitutions.append(("%opt", "tile-opt"))
config.substitutions.append(
    ("%examples", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
)
