"""helper-Q, session 19: build the speed variants of q_tiles2' subset."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import q_tiles2  # noqa: E402

q_tiles2.prefill.build_speed("sm_90")
q_tiles2.prefill.resources("sm_90")
