"""Run every example (``make run``).

Today the examples are Tile IR programs (``examples/tileir/*.mlir``): each is
parsed, verified and printed back by ``tile-opt``, which must reproduce the
file verbatim.  Kernels written in Python join this script with the frontend.
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


def main() -> int:
    files = sorted((EXAMPLES / "tileir").glob("*.mlir"))
    print(f"Tile IR examples ({len(files)}), through tile-opt:")
    ok = [run_tileir_example(f) for f in files]
    print(f"{sum(ok)} passed, {len(ok) - sum(ok)} failed")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
