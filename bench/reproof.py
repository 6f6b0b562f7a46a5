"""What the re-proof of the IR that runs costs, against the whole compile of a variant.

For every specialization the shipped examples declare, compiles the variant to
IR (the frontend, the safety passes, the clean-ups and the re-proof, no
``tileiras``) in a fresh kernel, and times the re-proof alone
(``passes/analyses/reproof.py`` on the final module, as the driver runs it).
Prints one row per variant and the total: the re-proof's share of the compile
without it.  CPU only; the median of ``--rounds`` fresh compiles.

    python bench/reproof.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import safetile as st
from safetile.passes.analyses.reproof import reprove
from safetile.passes.analyses.safety_record import SafetyRecord

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def specializations() -> list[tuple[str, st.Kernel, dict[str, Any]]]:
    found = []
    for path in sorted(EXAMPLES.glob("*.py")):
        if path.stem == "run_all":
            continue
        spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        for value in vars(module).values():
            if isinstance(value, st.Kernel):
                found += [(f"{path.stem}:{value.name}:{n}", value, s) for n, s in enumerate(value.specializations)]
    return found


def measure(kernel: st.Kernel, values: dict[str, Any], rounds: int) -> tuple[float, float]:
    """(median compile seconds, median re-proof seconds) over fresh compiles."""
    compiles, proofs = [], []
    for _ in range(rounds):
        fresh = kernel.with_options()  # a new kernel: nothing memoized
        start = time.perf_counter()
        compiled = fresh.compile_variant(**values)
        compiles.append(time.perf_counter() - start)
        record = SafetyRecord.of(compiled.stage("frontend"))
        start = time.perf_counter()
        assert reprove(compiled.module, record, compiled.launch_checks) == []
        proofs.append(time.perf_counter() - start)
    return statistics.median(compiles), statistics.median(proofs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    total_compile = total_proof = 0.0
    print(f"{'variant':44} {'compile ms':>10} {'re-proof ms':>12} {'share':>6}")
    for name, kernel, values in specializations():
        compile_s, proof_s = measure(kernel, values, args.rounds)
        total_compile, total_proof = total_compile + compile_s, total_proof + proof_s
        print(f"{name:44} {compile_s * 1e3:10.1f} {proof_s * 1e3:12.1f} {proof_s / (compile_s - proof_s):6.1%}")
    share = total_proof / (total_compile - total_proof)
    print(f"{'all examples':44} {total_compile * 1e3:10.1f} {total_proof * 1e3:12.1f} {share:6.1%}")


if __name__ == "__main__":
    main()
