"""Mutation fuzzing: tile-opt never crashes, whatever the input.

Seeds are the chunks of every ``.mlir`` file under ``test/lit`` (read at test
time, so new lit tests become seeds automatically) and ``examples/*.mlir``.
Each case applies a few deterministic random edits (lines, characters,
numbers, type and op names, brackets, tokens, truncation) and runs tile-opt
in-process.  Every run must either succeed, or fail with status 1 and a
``file:line:col: error:`` diagnostic that points into the file; never status 2
(internal error), an uncaught exception or a traceback.  When a run succeeds,
its output must parse again and print identically.

A failure prints each offending mutated input in full, so it can be
reproduced with ``tile-opt FILE``.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest

from safetile.dialects.cuda_tile.ops import ALL_OPS
from support import EXAMPLES_DIR, LIT_DIR, TileOptRun, run_tile_opt

FUZZ_SEED = 0x5AFE711E
"""Seed of the mutations; case ``i`` uses ``random.Random(f"{FUZZ_SEED}:{i}")``."""

FUZZ_CASES = 1500
"""Number of mutated inputs fed to tile-opt."""

BATCH = 100
"""Cases per pytest test (failures are reported per batch)."""

CASE_TIMEOUT_S = 5
"""A single tile-opt run taking longer than this counts as a hang."""

MAX_SHOWN = 4
"""Mutated inputs printed in full per failing batch (the rest are summarised)."""


# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Seed:
    name: str
    text: str


def seed_files() -> list[Path]:
    """Every ``.mlir`` under test/lit (not lit's Output folders) and examples/."""
    files = [p for p in LIT_DIR.rglob("*.mlir") if "Output" not in p.parts]
    if EXAMPLES_DIR.is_dir():
        files += EXAMPLES_DIR.glob("*.mlir")
    return sorted(files)


def load_seeds() -> list[Seed]:
    """The ``// -----`` chunks of every seed file, each a seed of its own."""
    seeds: list[Seed] = []
    for path in seed_files():
        text = path.read_text(errors="replace")
        for i, chunk in enumerate(text.split("// -----")):
            if chunk.strip():
                seeds.append(Seed(f"{path.relative_to(LIT_DIR.parent.parent)}#{i}", chunk))
    return seeds


# --------------------------------------------------------------------------
# Mutations
# --------------------------------------------------------------------------

NUMBER = re.compile(r"-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b|\b0x[0-9A-Fa-f]+\b")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
SSA = re.compile(r"%[A-Za-z0-9_]+")
BRACKETS = "<>()[]{}"

REPLACEMENT_NUMBERS = (
    "0", "-1", "1", "3", "-0", "2147483647", "2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "340282366920938463463374607431768211457", "1" + "0" * 40,
    "1.5", "-0.0", "1e309", "1.0e-400", "0x7FC00000", "0xFFFFFFFFFFFFFFFFFF", "nan",
    "inf", "-inf", "16777217", "65536",
)
TYPE_NAMES = (
    "i1", "i4", "i8", "i16", "i32", "i64", "i128", "i0", "si32", "ui8", "index",
    "f16", "bf16", "f32", "f64", "tf32", "f80", "f8E4M3FN", "f8E5M2", "f8E8M0FNU",
    "f4E2M1FN", "f8E5M3FNU", "ptr", "tile", "token", "tensor_view", "partition_view",
    "strided_view", "gather_scatter_view", "none", "vector", "tensor",
)
TOKENS = (
    "{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "=", "->", "?", "x", "%", "@",
    "!", "#", "^bb0:", "%0", "%a", "%undefined", "@k", "@m", "\"", "\"text\"", "\\",
    "// -----\n", "//", "\n", "\t", " ", "\x00", "\udcff", "\udc80", "é", "∞", "...",
    "tile<4xf32>", "tile<f32>", "tile<ptr<f32>>", "!cuda_tile.tile<2xi32>", "token",
    "tensor_view<?xf32, strides=[1]>", "rounding<zero>", "rounding<approx>",
    "flush_to_zero", "signed", "unsigned", "attributes {}", "{a = 1 : i32}",
    "<{}>", "loc(unknown)", "dense<1>", "#cuda_tile.rounding<zero>", "cuda_tile.",
    "!cuda_tile.", "builtin.module", "cuda_tile.module @n {}", "entry @e() {}",
    "return", "yield", "optimization_hints=<sm_100 = {num_cta_in_cga = 2}>",
    "<f32: 1.0>", "<i32: [1, 2]>", "-> token", ": tile<i1>", "true", "false",
)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def delete_line(r: random.Random, text: str) -> str:
    lines = _lines(text)
    if lines:
        del lines[r.randrange(len(lines))]
    return "".join(lines)


def duplicate_line(r: random.Random, text: str) -> str:
    lines = _lines(text)
    if lines:
        i = r.randrange(len(lines))
        lines.insert(i, lines[i])
    return "".join(lines)


def swap_lines(r: random.Random, text: str) -> str:
    lines = _lines(text)
    if len(lines) > 1:
        i, j = r.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def delete_chars(r: random.Random, text: str) -> str:
    if not text:
        return text
    i = r.randrange(len(text))
    return text[:i] + text[i + r.randint(1, 12):]


def insert_char(r: random.Random, text: str) -> str:
    i = r.randint(0, len(text))
    return text[:i] + r.choice("<>()[]{}%@!#:,=?x\"-+.0123456789 \n\\'`$^*/") + text[i:]


def duplicate_span(r: random.Random, text: str) -> str:
    if not text:
        return text
    i = r.randrange(len(text))
    j = min(len(text), i + r.randint(1, 40))
    return text[:j] + text[i:j] + text[j:]


def _replace_match(r: random.Random, text: str, pattern: re.Pattern[str], new: str) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = r.choice(matches)
    return text[: m.start()] + new + text[m.end():]


def replace_number(r: random.Random, text: str) -> str:
    return _replace_match(r, text, NUMBER, r.choice(REPLACEMENT_NUMBERS))


def swap_type_name(r: random.Random, text: str) -> str:
    names = "|".join(sorted(map(re.escape, TYPE_NAMES), key=len, reverse=True))
    return _replace_match(r, text, re.compile(rf"\b(?:{names})\b"), r.choice(TYPE_NAMES))


OP_NAMES = tuple(sorted(op.name.removeprefix("cuda_tile.") for op in ALL_OPS))


def swap_op_name(r: random.Random, text: str) -> str:
    names = "|".join(sorted(map(re.escape, OP_NAMES), key=len, reverse=True))
    new = r.choice(OP_NAMES)
    return _replace_match(r, text, re.compile(rf"(?<![\w.%@<]){names}(?![\w<])"), new)


def replace_word(r: random.Random, text: str) -> str:
    words = WORD.findall(text)
    return _replace_match(r, text, WORD, r.choice(words)) if words else text


def replace_ssa(r: random.Random, text: str) -> str:
    names = SSA.findall(text) + ["%nope", "%0", "%1000000"]
    return _replace_match(r, text, SSA, r.choice(names))


def truncate(r: random.Random, text: str) -> str:
    return text[: r.randint(0, len(text))]


def flip_bracket(r: random.Random, text: str) -> str:
    spots = [i for i, c in enumerate(text) if c in BRACKETS]
    if not spots:
        return text
    i = r.choice(spots)
    return text[:i] + r.choice(BRACKETS + " ") + text[i + 1:]


def insert_token(r: random.Random, text: str) -> str:
    spots = [m.start() for m in re.finditer(r"[\s,(<\[{:=]", text)] or [0]
    i = r.choice(spots)
    return text[:i] + " " + r.choice(TOKENS) + " " + text[i:]


MUTATIONS: tuple[Callable[[random.Random, str], str], ...] = (
    delete_line,
    duplicate_line,
    swap_lines,
    delete_chars,
    insert_char,
    duplicate_span,
    replace_number,
    replace_number,
    replace_number,
    swap_type_name,
    swap_type_name,
    swap_op_name,
    swap_op_name,
    replace_word,
    replace_ssa,
    truncate,
    flip_bracket,
    insert_token,
    insert_token,
)


@dataclass(frozen=True)
class Case:
    index: int
    seed: str
    mutations: tuple[str, ...]
    text: str


def make_case(index: int, seeds: list[Seed]) -> Case:
    """The deterministic mutated input number ``index``."""
    r = random.Random(f"{FUZZ_SEED}:{index}")
    seed = r.choice(seeds)
    text = seed.text
    applied: list[str] = []
    for _ in range(r.choice((1, 1, 1, 2, 2, 3))):
        mutation = r.choice(MUTATIONS)
        text = mutation(r, text)
        applied.append(mutation.__name__)
    return Case(index, seed.name, tuple(applied), text)


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


class CaseTimeout(BaseException):
    """Raised in a run that hangs; a BaseException so tile-opt cannot swallow it."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise CaseTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def problem_with(run: TileOptRun, path: Path, text: str) -> str | None:
    """Why ``run`` on ``path`` is not acceptable, or None if it is."""
    if "Traceback" in run.out + run.err:
        return "traceback"
    if run.status == 0:
        return None
    if run.status != 1:
        return f"exit status {run.status}"
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", run.err)
    if not match:
        return "status 1 without a file:line:col diagnostic"
    if not match.group(3).strip():
        return "diagnostic without a message"
    line, col = int(match.group(1)), int(match.group(2))
    if not 1 <= line <= text.count("\n") + 1 or col < 1:
        return f"diagnostic points outside the file ({line}:{col})"
    return None


@dataclass(frozen=True)
class Failure:
    case: Case
    problem: str
    run: TileOptRun

    def signature(self) -> str:
        """The kind of failure, for grouping (numbers and paths removed)."""
        first = (self.run.err.strip().splitlines() or [""])[0]
        first = re.sub(r"^\S+?:\d+:\d+: ", "", first)
        return f"{self.problem}: {re.sub(r'[0-9]+', 'N', first)[:160]}"

    def describe(self, full: bool) -> str:
        # Raw bytes that are not UTF-8 are carried as lone surrogates; show them escaped.
        text = self.case.text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        head = (
            f"case {self.case.index} (seed {self.case.seed}, "
            f"mutations {', '.join(self.case.mutations)}): {self.problem}\n"
            f"  stderr: {self.run.err.strip()[:800]}"
        )
        if not full:
            return head
        return f"{head}\n  ---- mutated input ----\n{text}\n  ---- end ----"


def _run_limited(path: Path) -> TileOptRun | None:
    """tile-opt on ``path``, or None if it takes longer than ``CASE_TIMEOUT_S``."""
    try:
        with time_limit(CASE_TIMEOUT_S):
            return run_tile_opt([str(path)])
    except CaseTimeout:
        return None


def run_case(case: Case, workdir: Path) -> Failure | None:
    path = workdir / f"case{case.index}.mlir"
    path.write_bytes(case.text.encode("utf-8", "surrogateescape"))
    hang = f"no result within {CASE_TIMEOUT_S} s"
    if (run := _run_limited(path)) is None:
        return Failure(case, hang, TileOptRun(-1, "", ""))
    if (problem := problem_with(run, path, case.text)) is not None:
        return Failure(case, problem, run)
    if run.status == 0:
        # Accepted input: the output must be accepted too, and print the same.
        out = workdir / f"case{case.index}.out.mlir"
        out.write_text(run.out)
        if (again := _run_limited(out)) is None:
            return Failure(case, f"re-parsing the output: {hang}", TileOptRun(-1, "", ""))
        if again.status != 0:
            return Failure(case, "output of an accepted input does not parse", again)
        if again.out != run.out:
            return Failure(case, "printing is not stable", again)
    return None


SEEDS = load_seeds()

# Small inputs that once broke tile-opt (found by the fuzzer); each must be
# rejected with a diagnostic like any other bad input.
REGRESSIONS: dict[str, str] = {
    "lexer-error-on-first-token": "`\ncuda_tile.module @m {\n}\n",
    "lexer-error-after-whitespace": "\n \\ \ncuda_tile.module @m {\n}\n",
    "bad-suffix-identifier-first": " ! \ncuda_tile.module @m {\n}\n",
    # xDSL's string-literal regex backtracks exponentially without a closing quote.
    "unterminated-string": (
        "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n"
        '    %0 = addf" %a, %a : tile<f32> -> tile<f32>, tile<f32>\n'
        "    return\n  }\n}\n"
    ),
    "parameters-on-a-parameterless-type": (
        "cuda_tile.module @m {\n  entry @k(%a: fnv8E5M3FNU<f32>) {\n    return\n  }\n}\n"
    ),
    **{
        f"reduce-identity-{name}": (
            "cuda_tile.module @m {\n  entry @k() {\n"
            "    %x = constant <f32: 1.0> : tile<8xf32>\n"
            f"    %r = reduce %x dim=0 identities=[{value} : f32] : tile<8xf32> -> tile<f32>\n"
            "    (%a: tile<f32>, %b: tile<f32>) {\n"
            "      %s = addf %a, %b : tile<f32>\n"
            "      yield %s : tile<f32>\n"
            "    }\n    return\n  }\n}\n"
        )
        for name, value in (
            ("beyond-f32", "1.0e39"),
            ("huge-integer", "340282366920938463463374607431768211457"),
            ("wide-hex", "0xFFFFFFFFFFFFFFFFFF"),
        )
    },
    # xDSL cannot hold dense arrays of elements wider than 64 bits.
    "dense-array-i128": (
        "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) {\n"
        "    %t = make_tensor_view %p, shape = [%n], strides = [1] {tile_safety.partition = array<i128: 16>}"
        " : tile<i32> -> tensor_view<?xf32, strides=[1]>\n    return\n  }\n}\n"
    ),
    # Custom parsers asked a two-block region for its only block.
    "two-blocks-in-entry": (
        "cuda_tile.module @m {\n  entry @k() {\n    return\n  ^bb1:\n    return\n  }\n}\n"
    ),
    "two-blocks-in-if": (
        "cuda_tile.module @m {\n  entry @k(%c: tile<i1>) {\n    if %c {\n      yield\n"
        "    } else {\n      yield\n    ^bb1:\n      yield\n    }\n    return\n  }\n}\n"
    ),
    "two-blocks-in-for": (
        "cuda_tile.module @m {\n  entry @k(%lb: tile<i32>) {\n"
        "    for %i in (%lb to %lb, step %lb) : tile<i32> {\n      continue\n"
        "    ^bb1:\n      continue\n    }\n    return\n  }\n}\n"
    ),
    **{
        f"permute-{name}": (
            "cuda_tile.module @m {\n  entry @k() {\n"
            "    %t = constant <f32: 0.0> : tile<1x2xf32>\n"
            f"    %0 = permute %t [{perm}] : tile<1x2xf32> -> tile<2x1xf32>\n"
            "    return\n  }\n}\n"
        )
        for name, perm in (("beyond-i32", "0, 4294967296"), ("wide-hex", "0xFFFFFFFFFFFFFFFFFF, 0"))
    },
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_known_crashers(name: str, tmp_path: Path) -> None:
    case = Case(-1, name, (), REGRESSIONS[name])
    failure = run_case(case, tmp_path)
    if failure is not None:
        pytest.fail(failure.describe(full=True), pytrace=False)


def test_there_are_seeds() -> None:
    assert SEEDS, f"no .mlir files under {LIT_DIR}"


def test_mutations_are_deterministic() -> None:
    assert make_case(7, SEEDS) == make_case(7, SEEDS)
    assert len({make_case(i, SEEDS).text for i in range(50)}) > 40


QUICK_BATCHES = 2
"""Batches ``make test`` runs; ``make test-full`` runs all ``FUZZ_CASES // BATCH``."""


@pytest.mark.parametrize(
    "batch", [b if b < QUICK_BATCHES else pytest.param(b, marks=pytest.mark.full) for b in range(FUZZ_CASES // BATCH)]
)
def test_mutated_inputs_never_crash(batch: int, tmp_path: Path) -> None:
    failures = [
        f
        for i in range(batch * BATCH, (batch + 1) * BATCH)
        if (f := run_case(make_case(i, SEEDS), tmp_path)) is not None
    ]
    if not failures:
        return
    groups: dict[str, list[Failure]] = {}
    for f in failures:
        groups.setdefault(f.signature(), []).append(f)
    report = [f"{len(failures)} of {BATCH} mutated inputs broke tile-opt:"]
    for signature, members in groups.items():
        report.append(f"\n== {signature} ({len(members)} cases)")
        report += [m.describe(full=k < MAX_SHOWN) for k, m in enumerate(members)]
    pytest.fail("\n".join(report), pytrace=False)
