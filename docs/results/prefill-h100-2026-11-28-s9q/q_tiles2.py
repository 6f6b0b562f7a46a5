"""helper-Q, session 19, call 2: the default (helper P's wave plans at 512 tokens, the rotary table)
against the computed rotation, and the cache write's block rows with the table (fewer blocks: the
grid is the cache's own tiles, 8 x max_positions / kv_rows, and the blocks past the prompt return)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import prefill  # noqa: E402
from qwen3.model import PrefillTiles  # noqa: E402

prefill.SPEED_TILES = {"default": PrefillTiles(), "sin/cos": PrefillTiles(rotary_table=False),
                       "kv_rows 32": PrefillTiles(kv_rows=32), "kv_rows 64": PrefillTiles(kv_rows=64)}
prefill.LENGTH_TILES = {}
prefill.SPEED_PROMPTS = (512, 2048)
prefill.BREAKDOWN_PROMPTS = (512, 2048)
