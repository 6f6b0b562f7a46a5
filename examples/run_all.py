"""Run every example (``make run``).

The Tile IR programs (``examples/tileir/*.mlir``) are parsed, verified and
printed back by ``tile-opt``, which must reproduce each file verbatim.  The
Python kernels (``examples/*.py``) are compiled by the frontend for the
specializations they declare, to verified plain Tile IR.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent


def run_tileir_example(path: Path) -> bool:
    """Print ``path`` through tile-opt; True if it comes back unchanged."""
    result = subprocess.run(
        ["tile-opt", str(path)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        print(f"  FAIL {path.name}: tile-opt exited {result.returncode}")
        print(result.stderr.rstrip())
        return False
    if result.stdout != path.read_text():
        print(f"  FAIL {path.name}: printed text differs from the file")
        return False
    print(f"  ok   {path.name}: verified and round-tripped verbatim")
    return True


def run_python_example(path: Path) -> bool:
    """Compile the kernels of ``path``; True if every specialization compiles."""
    from safetile.frontend.errors import CompileError
    from safetile.frontend.pyfile import compile_file

    try:
        module, errors = compile_file(path)
    except (CompileError, OSError) as err:
        errors, module = [err], None
    for err in errors:
        print(f"  FAIL {path.name}:\n{err}")
    if errors or module is None:
        return False
    entries = sum(1 for op in module.walk() if op.name == "cuda_tile.entry")
    print(f"  ok   {path.name}: {entries} specialization(s) compiled")
    return True


def main() -> int:
    files = sorted((EXAMPLES / "tileir").glob("*.mlir"))
    print(f"Tile IR examples ({len(files)}), through tile-opt:")
    ok = [run_tileir_example(f) for f in files]
    kernels = sorted(p for p in EXAMPLES.glob("*.py") if p.name != Path(__file__).name)
    print(f"Python kernels ({len(kernels)}), through the frontend:")
    ok += [run_python_example(f) for f in kernels]
    print(f"{sum(ok)} passed, {len(ok) - sum(ok)} failed")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
