"""helper-Q, session 19: bench/prefill.py's speed part on the default and the rotary-table candidates only."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import prefill  # noqa: E402

prefill.SPEED_TILES = {k: prefill.SPEED_TILES[k] for k in
                       ("default", "rotary table", "rotary table, rotated queries", "rotated queries")}
prefill.LENGTH_TILES = {}
prefill.SPEED_PROMPTS = (512, 2048)
prefill.BREAKDOWN_PROMPTS = (512, 2048)
