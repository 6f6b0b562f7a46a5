"""helper-P session 19, call 2: bench/prefill.py's speed part at 512 and 2,048 tokens, the default
(the rotary table and WAVE_PLANS) against session 17's tiling (no split columns, no wave plans)."""
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
B.SPEED_PROMPTS = (512, 2048)
B.BREAKDOWN_PROMPTS = (512, 2048)
if sys.argv[1] == "--build":
    B.build_speed(sys.argv[2])
    B.resources(sys.argv[2])
else:
    B.run(Path(sys.argv[1]), budget=float(sys.argv[2]), prompts=[512, 2048], skip=["check", "torch.compile", "decode"])
