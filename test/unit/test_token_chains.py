"""The token-chain check (``passes/analyses/token_chains.py``) on hand-written IR.

Each case is a loop or a branch around accesses to one output, written with
tokens that order them (accepted) or with one token carried wrong (refused),
so the check is shown apart from the passes that thread tokens."""

from __future__ import annotations

import pytest

from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.passes.analyses.token_chains import unordered_accesses
from support import make_context

VIEW = "partition_view<tile=(16), tensor_view<?xf32, strides=[?]>>"

HEAD = f"""cuda_tile.module @m {{
  entry @k(%z: tile<ptr<f32>>, %z_shape0: tile<i32>, %z_stride0: tile<i32>, %n: tile<i32>, %c: tile<i1>) {{
    %token = make_token : token
    %id:3 = get_tile_block_id : tile<i32>
    %tv = make_tensor_view %z, shape = [%z_shape0], strides = [%z_stride0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
    %v = make_partition_view %tv : {VIEW}
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %ones = constant <f32: 1.000000e+00> : tile<16xf32>
"""
TAIL = """    return
  }
}
"""


def load(name: str, token: str) -> str:
    return f"    %{name}:2 = load_view_tko weak %v[%id#0] token = %{token} : {VIEW}, tile<i32> -> tile<16xf32>, token\n"


def store(name: str, token: str) -> str:
    return f"    %{name} = store_view_tko weak %ones, %v[%id#0] token = %{token} : tile<16xf32>, {VIEW}, tile<i32> -> token\n"


def loop(body: str, carried_out: str) -> str:
    return (f"    %out = for %i in (%zero to %n, step %one) : tile<i32> iter_values(%t = %s0) -> (token) {{\n"
            f"{body}      continue %{carried_out} : token\n    }}\n")


def pairs(body: str) -> list[tuple[str, str, bool]]:
    module = parse_tile_ir(make_context(), HEAD + body + TAIL, "k.mlir")
    entry = next(o for o in module.walk() if isinstance(o, EntryOp))
    found = unordered_accesses(entry, lambda op: "z" if "view" in op.name else None, lambda op: False)
    return [(p.earlier.name, p.later.name, p.across_iterations) for p in found]


CASES = {
    "a chain in order": (store("s0", "token") + load("l1", "s0") + store("s2", "l1#1"), []),
    "a load that skips the store before it": (
        store("s0", "token") + load("l1", "token"),
        [("cuda_tile.store_view_tko", "cuda_tile.load_view_tko", False)]),
    "two loads need no order": (store("s0", "token") + load("l1", "s0") + load("l2", "s0"), []),
    "a loop that carries its store's token": (
        store("s0", "token") + loop(store("s1", "t").replace("    %", "      %"), "s1") + load("l2", "out"), []),
    "a loop that carries a stale token": (
        store("s0", "token") + loop(store("s1", "t").replace("    %", "      %"), "t") + load("l2", "out"),
        [("cuda_tile.store_view_tko", "cuda_tile.store_view_tko", True),
         ("cuda_tile.store_view_tko", "cuda_tile.load_view_tko", False)]),
    "a branch that yields its store's token": (
        store("s0", "token")
        + f"    %b = if %c -> (token) {{\n{store('s1', 's0').replace('    %', '      %')}      yield %s1 : token\n"
        f"    }} else {{\n      yield %s0 : token\n    }}\n" + load("l2", "b"), []),
    "a branch that drops its store's token": (
        store("s0", "token")
        + f"    %b = if %c -> (token) {{\n{store('s1', 's0').replace('    %', '      %')}      yield %s0 : token\n"
        f"    }} else {{\n      yield %s0 : token\n    }}\n" + load("l2", "b"),
        [("cuda_tile.store_view_tko", "cuda_tile.load_view_tko", False)]),
    # A counting loop (a ``for`` that breaks) returns its token, not its counter; the branch
    # that breaks passes its store's token out, the other yields the chain on.
    "a branch that breaks with its store's token": (
        store("s0", "token")
        + "    %out = loop iter_values(%i = %zero, %t = %s0) : tile<i32>, token -> token {\n"
        + "      %b = if %c -> (token) {\n" + store("s1", "t").replace("    %", "        %")
        + "        break %s1 : token\n      } else {\n        yield %t : token\n      }\n"
        + store("s2", "b").replace("    %", "      %")
        + "      %j = addi %i, %one : tile<i32>\n      continue %j, %s2 : tile<i32>, token\n    }\n"
        + load("l3", "out"), []),
    "a branch that continues with its store's token": (
        store("s0", "token")
        + "    %out = for %i in (%zero to %n, step %one) : tile<i32> iter_values(%t = %s0) -> (token) {\n"
        + load("l1", "t").replace("    %", "      %")
        + "      %b = if %c -> (token) {\n" + store("s1", "l1#1").replace("    %", "        %")
        + "        continue %s1 : token\n      } else {\n        yield %l1#1 : token\n      }\n"
        + store("s2", "b").replace("    %", "      %") + "      continue %s2 : token\n    }\n"
        + load("l3", "out"), []),
    # The path that skips the store carries the token from before the loop: a store of an
    # earlier iteration is not ordered before the next one's.
    "a branch that skips its store and carries a stale token": (
        store("s0", "token")
        + "    %out = for %i in (%zero to %n, step %one) : tile<i32> iter_values(%t = %s0) -> (token) {\n"
        + "      %b = if %c -> (token) {\n" + store("s1", "t").replace("    %", "        %")
        + "        yield %s1 : token\n      } else {\n        yield %s0 : token\n      }\n"
        + "      continue %b : token\n    }\n",
        [("cuda_tile.store_view_tko", "cuda_tile.store_view_tko", True)]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_chains_of_hand_written_ir(case: str) -> None:
    body, expected = CASES[case]
    assert pairs(body) == expected
