"""helper-P session 19, call 1 (tree at 488fde7): bench/prefill.py's speed part at 512 tokens, the default and LENGTH_TILES[512] (waves 1-3)."""
import importlib.util
import sys
from pathlib import Path

root = Path.cwd()
sys.path.insert(0, str(root / "bench"))
spec = importlib.util.spec_from_file_location("prefill_bench", root / "bench" / "prefill.py")
B = importlib.util.module_from_spec(spec)
spec.loader.exec_module(B)
from qwen3.model import PrefillTiles  # noqa: E402

B.SPEED_TILES = {"default": PrefillTiles()}
B.SPEED_PROMPTS = (512,)
B.BREAKDOWN_PROMPTS = (512,)
if sys.argv[1] == "--build":
    B.build_speed(sys.argv[2])
    B.resources(sys.argv[2])
else:
    B.run(Path(sys.argv[1]), budget=float(sys.argv[2]), prompts=[512], skip=["check", "torch.compile", "decode"])
