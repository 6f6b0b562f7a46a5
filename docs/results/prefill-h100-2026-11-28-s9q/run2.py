"""helper-Q, session 19, on the GPU: bench/prefill.py's speed part (default vs the rotary table) at 512
and 2,048 tokens, the shape-by-shape bound in the same process, the per-kernel profile."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import q_tiles2  # noqa: E402

q_tiles2.prefill.run(Path(sys.argv[1]), budget=150.0, skip=["check", "torch.compile", "decode"])
