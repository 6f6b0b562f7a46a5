"""The lead's closing prefill run (session 19): bench/prefill.py's speed part at 512, 2,048 and 8,192
tokens on the shipped default against session 17's tiling, transformers and torch.compile at every
length, both GEMM bounds, all in one process.  ``--build ARCH`` compiles the same variants here."""
import importlib.util
import sys
from pathlib import Path

root = Path.cwd()
sys.path.insert(0, str(root / "bench"))
spec = importlib.util.spec_from_file_location("prefill_bench", root / "bench" / "prefill.py")
B = importlib.util.module_from_spec(spec)
spec.loader.exec_module(B)

B.SPEED_TILES = {name: B.SPEED_TILES[name] for name in ("default", "session 17")}
B.LENGTH_TILES = {}
if sys.argv[1] == "--build":
    B.build_speed(sys.argv[2])
else:
    B.run(Path(sys.argv[1]), budget=float(sys.argv[2]), prompts=[512, 2048, 8192], skip=["check", "decode"],
          compile_prompts=[512, 2048, 8192])
