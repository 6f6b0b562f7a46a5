"""Every verifier rule we encode from NVIDIA's ``Ops.td``/``Types.td``/``AttrDefs.td``
has an invalid-IR lit case.

The rules are those of NVIDIA/cuda-tile v13.3.2 (the newest published
``Ops.td``/``Types.td``/``AttrDefs.td``; 13.5's are not public): each op's
ODS constraint clauses (``type-constraints`` for its operand and result type
constraints, ``all-types-match``, ``all-shapes-match``, ... for its traits),
the checks of its ``verify()``/``verifyRegions()`` (with those of the shared
verifiers it calls, ``SharedVerifiers.h``), the ``verifyWithAssumeOp`` checks
of the assume predicates (``AttrDefs.td``), the type verifiers (``Types.cpp``)
and the debug-info rules (``DebugInfoVerifier``, ``#cuda_tile.di_*``).

A case is marked ``// RULE: <op>.<rule-id>`` in a ``test/lit/dialect/*-invalid.mlir``
chunk that also holds the ``expected-error`` proving the rule fires (the lit
run checks the error itself, in NVIDIA's words).  ``RULES`` lists the rules
encoded so far; a rule without a case, a case naming no listed rule, or a
marked chunk without an expected error fails.
"""

from __future__ import annotations

import re

from support import LIT_DIR

_DEBUG_INFO_RULES = {
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

# Per op (Ops.td, the assume predicates of AttrDefs.td): ODS clauses, then verify().
_OP_RULES: dict[str, tuple[str, ...]] = {
    "absf": ("all-types-match", "type-constraints"),
    "absi": ("all-types-match", "type-constraints"),
    "addf": ("all-types-match", "type-constraints", "rounding-ieee", "flush-to-zero-f32"),
    "addi": ("all-types-match", "type-constraints"),
    "alloca": (
        "type-constraints", "alignment-power-of-two", "alignment-natural-size",
        "attribute-constraints",
    ),
    "andi": ("all-types-match", "type-constraints"),
    "assert": ("type-constraints",),
    "assume": (
        "type-constraints", "div-by-power-of-2", "div-by-not-too-large",
        "div-by-no-along-on-tensor-view", "div-by-value-types", "div-by-no-along-on-0d",
        "div-by-along-in-rank", "div-by-every-in-dim", "same-elements-value-types",
        "same-elements-rank", "same-elements-in-dim", "bounded-value-types",
        "bounded-lower-in-range", "bounded-upper-in-range", "bounded-lower-le-upper",
    ),
    "atan2": ("all-types-match", "type-constraints"),
    "atomic_cas_tko": (
        "all-shapes-match", "all-types-match", "type-constraints", "memory-ordering",
        "pointee-matches-val", "32-or-64-bit", "mask-shape",
    ),
    "atomic_red_view_tko": (
        "type-constraints", "view-is-tile-view", "integer-index", "mode-integer-types",
        "addf-float-types", "no-gather-scatter-view", "no-padding-value", "element-types-match",
        "shapes-match", "no-xchg", "relaxed-only", "no-sys-scope", "memory-scope-required",
        "index-count", "scalar-index",
    ),
    "atomic_rmw_tko": (
        "all-shapes-match", "all-types-match", "type-constraints", "pointee-matches-arg",
        "mask-shape", "mode-integer-types", "addf-float-types", "xchg-types", "memory-ordering",
    ),
    "bitcast": ("all-shapes-match", "type-constraints", "equal-width"),
    "break": ("parent-one-of", "ancestor-chain", "operand-types"),
    "broadcast": (
        "same-operands-and-result-element-type", "all-ranks-match", "type-constraints",
        "compatible-shape",
    ),
    "cat": (
        "all-ranks-match", "all-element-types-match", "type-constraints", "dim-in-range",
        "concat-dim-sum", "lhs-rhs-shapes", "lhs-result-shapes",
    ),
    "ceil": ("all-types-match", "type-constraints"),
    "cmpf": ("all-types-match", "result-is-i1-of-operand-shape", "type-constraints"),
    "cmpi": ("all-types-match", "result-is-i1-of-operand-shape", "type-constraints"),
    "constant": ("all-types-match", "type-constraints"),
    "continue": ("parent-one-of", "ancestor-chain", "loop-operand-types", "for-operand-types"),
    "cos": ("all-types-match", "type-constraints"),
    "cosh": ("all-types-match", "type-constraints"),
    "divf": (
        "all-types-match", "type-constraints", "flush-to-zero-f32", "approx-f32", "full-f32",
        "rounding-mode",
    ),
    "divi": ("all-types-match", "type-constraints", "rounding-mode", "unsigned-not-negative-inf"),
    "entry": ("no-results", "scalar-arguments", "optimization-hints-dictionary"),
    "exp": ("all-types-match", "type-constraints", "approx-f32", "rounding-mode"),
    "exp2": ("all-types-match", "type-constraints", "flush-to-zero-f32"),
    "exti": ("all-shapes-match", "type-constraints", "wider-result"),
    "extract": (
        "all-ranks-match", "type-constraints", "element-types-match", "divisible-shape",
        "index-count",
    ),
    "floor": ("all-types-match", "type-constraints"),
    "fma": ("all-types-match", "type-constraints", "rounding-ieee", "flush-to-zero-f32"),
    "for": (
        "all-types-match-bounds", "all-types-match-results", "type-constraints", "iter-value-count",
        "no-tensor-view-carried", "no-tile-view-carried", "iter-value-types", "induction-variable",
        "induction-variable-type",
    ),
    "ftof": (
        "all-shapes-match", "type-constraints", "not-a-no-op", "f8e8m0fnu-rounding",
        "rounding-mode",
    ),
    "ftoi": ("all-shapes-match", "type-constraints", "rounding-mode"),
    "get_global": ("type-constraints", "references-global", "pointee-matches-global"),
    "get_index_space_shape": ("type-constraints", "result-count"),
    "get_num_tile_blocks": ("type-constraints",),
    "get_tensor_shape": ("type-constraints", "result-count"),
    "get_tile_block_id": ("type-constraints",),
    "global": ("rank-1",),
    "if": (
        "type-constraints", "else-yields", "no-result-no-yield", "yield-types",
        "no-tensor-view-result", "no-tile-view-result", "else-branch-required",
    ),
    "int_to_ptr": ("all-shapes-match", "type-constraints"),
    "iota": ("type-constraints", "rank-1", "fits-element-type"),
    "itof": ("all-shapes-match", "type-constraints", "no-f8e8m0fnu", "rounding-mode"),
    "join_tokens": ("type-constraints", "two-or-more"),
    "load_ptr_tko": (
        "type-constraints", "source-points-to-result", "mask-shape", "padding-type",
        "memory-ordering", "weak-no-scope", "scope-required",
    ),
    "load_view_tko": (
        "type-constraints", "memory-ordering", "weak-no-scope", "scope-required", "view-type",
        "index-count", "tile-type", "inbounds-size", "index-same-type", "index-scalar",
        "gather-index-1d", "gather-index-size", "gather-other-index-scalar",
        "gather-scalar-index-types",
    ),
    "log": ("all-types-match", "type-constraints"),
    "log2": ("all-types-match", "type-constraints"),
    "loop": (
        "iter-value-count", "no-tensor-view-carried", "no-tile-view-carried", "iter-value-types",
        "no-tensor-view-result", "no-tile-view-result",
    ),
    "make_gather_scatter_view": ("type-constraints", "tensor-view-type"),
    "make_partition_view": ("type-constraints", "tensor-view-type"),
    "make_strided_view": ("type-constraints", "tensor-view-type"),
    "make_tensor_view": (
        "type-constraints", "pointee-type", "dynamic-shape-count", "dynamic-stride-count",
        "dynamic-shape-types", "dynamic-stride-types",
    ),
    "maxf": ("all-types-match", "type-constraints", "flush-to-zero-f32"),
    "maxi": ("all-types-match", "type-constraints"),
    "minf": ("all-types-match", "type-constraints", "flush-to-zero-f32"),
    "mini": ("all-types-match", "type-constraints"),
    "mmaf": (
        "all-types-match", "all-element-types-match", "all-ranks-match", "type-constraints",
        "rank-2-or-3", "batch-dims", "k-dims", "m-dims", "n-dims", "element-type-combination",
    ),
    "mmaf_scaled": (
        "all-types-match", "all-element-types-match", "all-element-types-match", "all-ranks-match",
        "type-constraints", "rank-2-or-3", "batch-dims", "k-dims", "m-dims", "n-dims",
        "lhs-scale-dims", "rhs-scale-dims", "scale-k-dims", "scale-type-combination",
        "scale-divides-k", "f8-block-32", "f4-e4m3-block-16", "f4-e8m0-block-16-or-32",
        "f4-e5m3-block-16-or-32",
    ),
    "mmai": (
        "all-types-match", "all-ranks-match", "type-constraints", "rank-2-or-3", "batch-dims",
        "k-dims", "m-dims", "n-dims",
    ),
    "mulf": ("all-types-match", "type-constraints", "rounding-ieee", "flush-to-zero-f32"),
    "mulhii": ("all-types-match", "type-constraints"),
    "muli": ("all-types-match", "type-constraints"),
    "negf": ("all-types-match", "type-constraints"),
    "negi": ("all-types-match", "type-constraints", "no-unsigned-wrap"),
    "offset": ("same-operands-and-result-shape", "all-types-match", "type-constraints"),
    "ori": ("all-types-match", "type-constraints"),
    "pack": (
        "all-ranks-match", "type-constraints", "rank-1", "different-widths", "byte-aligned",
        "same-size",
    ),
    "permute": (
        "all-element-types-match", "all-ranks-match", "type-constraints", "rank-2",
        "permutation-size", "unique", "in-bounds", "result-shape",
    ),
    "pow": ("all-types-match", "type-constraints"),
    "print_tko": ("terminated-format", "operand-count"),
    "ptr_to_int": ("all-shapes-match", "type-constraints"),
    "ptr_to_ptr": ("all-shapes-match", "type-constraints"),
    "reduce": (
        "same-operands-shape", "non-empty-block", "block-argument-count", "rank-0-block-arguments",
        "block-argument-element-types", "block-argument-types", "terminator-operand-count",
        "terminator-operand-types", "pure-body", "one-or-more-operands", "operand-result-count",
        "identity-count", "identity-types", "dim-in-range", "single-block-body", "result-types",
        "dim-attribute",
    ),
    "remf": ("all-types-match", "type-constraints"),
    "remi": ("all-types-match", "type-constraints"),
    "reshape": ("same-operands-and-result-element-type", "type-constraints", "element-count"),
    # "entry-no-operands" cannot fire: an entry with results fails its own verifier first (MLIR's order).
    "return": ("parent-one-of", "operand-count", "parent"),
    "rsqrt": ("all-types-match", "type-constraints", "flush-to-zero-f32"),
    "scan": (
        "same-operands-shape", "non-empty-block", "block-argument-count", "rank-0-block-arguments",
        "block-argument-element-types", "block-argument-types", "terminator-operand-count",
        "terminator-operand-types", "pure-body", "one-or-more-operands", "operand-result-count",
        "identity-count", "identity-types", "dim-in-range", "single-block-body", "result-types",
        "dim-attribute",
    ),
    "select": ("all-types-match", "all-shapes-match", "type-constraints", "no-f4e2m1fn"),
    "shli": ("all-types-match", "type-constraints"),
    "shri": ("all-types-match", "type-constraints"),
    "sin": ("all-types-match", "type-constraints"),
    "sinh": ("all-types-match", "type-constraints"),
    "sqrt": (
        "all-types-match", "type-constraints", "flush-to-zero-f32", "approx-f32", "rounding-mode",
    ),
    "store_ptr_tko": (
        "type-constraints", "destination-points-to-value", "mask-shape", "memory-ordering",
        "weak-no-scope", "scope-required",
    ),
    "store_view_tko": (
        "type-constraints", "memory-ordering", "weak-no-scope", "scope-required", "view-type",
        "index-count", "tile-type", "inbounds-size", "index-same-type", "index-scalar",
        "gather-index-1d", "gather-index-size", "gather-other-index-scalar",
        "gather-scalar-index-types",
    ),
    "subf": ("all-types-match", "type-constraints", "rounding-ieee", "flush-to-zero-f32"),
    "subi": ("all-types-match", "type-constraints"),
    "tan": ("all-types-match", "type-constraints"),
    "tanh": ("all-types-match", "type-constraints", "approx-f32", "rounding-mode"),
    "trunci": ("all-shapes-match", "type-constraints", "narrower-result"),
    "unpack": (
        "all-ranks-match", "type-constraints", "rank-1", "different-widths", "byte-aligned",
        "same-size",
    ),
    "xori": ("all-types-match", "type-constraints"),
    "yield": ("parent-one-of",),
}
# Per type (Types.td, Types.cpp).
_TYPE_RULES: dict[str, tuple[str, ...]] = {
    "gather_scatter_view": (
        "gather-dim-in-range", "tile-rank-nonzero", "tile-rank-matches", "positive-tile-dims",
        "power-of-two-tile-dims", "padding-float-only", "tile-dims-fit-i32",
    ),
    "partition_view": (
        "tile-rank-nonzero", "tile-rank-matches", "dim-map-size", "positive-tile-dims",
        "power-of-two-tile-dims", "dim-map-non-negative", "dim-map-in-range", "dim-map-unique",
        "padding-float-only", "tile-dims-fit-i32",
    ),
    "ptr": ("pointee-type",),
    "strided_view": (
        "tile-rank-nonzero", "tile-rank-matches", "dim-map-size", "positive-tile-dims",
        "power-of-two-tile-dims", "dim-map-non-negative", "dim-map-in-range", "dim-map-unique",
        "padding-float-only", "tile-dims-fit-i32", "traversal-stride-count",
        "positive-traversal-strides",
    ),
    "tensor_view": ("shape-stride-rank", "positive-sizes", "positive-strides"),
    "tile": (
        "positive-dims", "power-of-two-dims", "max-elements", "element-type", "f4e2m1fn-even",
    ),
}

RULES = _DEBUG_INFO_RULES | {
    f"{owner}.{rule}"
    for table in (_OP_RULES, _TYPE_RULES)
    for owner, rules in table.items()
    for rule in rules
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
