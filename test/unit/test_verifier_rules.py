"""Every verifier rule we encode from NVIDIA's ``Ops.td``/``Types.td``/``AttrDefs.td``
has an invalid-IR lit case.

A case is marked ``// RULE: <op>.<rule-id>`` in a ``test/lit/dialect/*-invalid.mlir``
chunk that also holds the ``expected-error`` proving the rule fires (the lit
run checks the error itself).  ``RULES`` lists the rules encoded so far; a rule
without a case, a case naming no listed rule, or a marked chunk without an
expected error fails.
"""

from __future__ import annotations

import re

from support import LIT_DIR

RULES = {
    # NVIDIA's DebugInfoVerifier (CudaTile.cpp) and the #cuda_tile.di_* parameters (AttrDefs.td)
    "entry.debug-info-not-call-site",
    "entry.debug-info-subprogram-scope",
    "entry.debug-info-linkage-name",
    "op.debug-info-scope-needs-function-scope",
    "op.debug-info-scope-matches-function",
    "global.debug-info-no-scope",
    "di_loc.scope-is-local-scope",
    "di_loc.source-is-file-location",
    "di_compile_unit.file-is-di-file",
    "di_subprogram.file-is-di-file",
    "di_subprogram.compile-unit-is-di-compile-unit",
    "di_subprogram.required-parameters",
    "di_subprogram.parameters-once",
    "di_lexical_block.scope-is-local-scope",
    "di_lexical_block.unknown-parameter",
}

_RULE = re.compile(r"^// RULE: (\S+)$", re.MULTILINE)


def _cases() -> dict[str, list[str]]:
    """Rule id -> the chunks marking it."""
    found: dict[str, list[str]] = {}
    for path in sorted((LIT_DIR / "dialect").glob("*-invalid.mlir")):
        for chunk in path.read_text().split("// -----"):
            for rule in _RULE.findall(chunk):
                found.setdefault(rule, []).append(chunk)
    return found


def test_every_rule_has_a_case() -> None:
    missing = sorted(RULES - _cases().keys())
    assert not missing, f"rules without a lit case: {missing}"


def test_every_case_names_a_listed_rule() -> None:
    unknown = sorted(_cases().keys() - RULES)
    assert not unknown, f"RULE comments naming no rule of RULES: {unknown}"


def test_every_case_expects_an_error() -> None:
    for rule, chunks in _cases().items():
        for chunk in chunks:
            assert re.search(r"// expected-error", chunk), f"{rule}: no expected-error in its chunk"
