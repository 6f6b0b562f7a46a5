"""Module structure: ``module``, ``entry``, ``return``, ``global`` and ``get_global``.

A Tile IR program is one ``cuda_tile.module`` holding kernels (``entry``) and
globals.  Inside the module, op and type names drop the ``cuda_tile.`` prefix;
``ModuleOp.print`` switches a ``TileIRPrinter`` into that mode.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Self

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ..attributes import OptimizationHintsAttr, SymbolVisibility, SymbolVisibilityAttr
from ..debuginfo import (
    verify_body_debug_info,
    verify_entry_debug_info,
    verify_global_debug_info,
)
from ..diagnostics import quoted
from ..dominance import verify_dominance
from ..literals import format_dense_values, parse_dense_literal
from ..syntax import TileIRPrinter
from ..types import PointerType, TileType, element_type_of
from ._common import CudaTileOp, ScalarPointerTile
# ``control`` as a module: ALL_OPS collects the op classes named in this one.
from . import control
from .control import ImplicitTerminator, ParentOneOf, ensure_terminator


UNNAMED_MODULE = "kernels"
"""The name of a module whose source gives none: bytecode (which keeps no
module name), and the unwrapped entries ``tileirdisasm`` prints."""


@irdl_op_definition
class ModuleOp(CudaTileOp):
    """``cuda_tile.module @name [attributes {producer = "..."}] { ... }``: the unit of compilation.

    ``producer`` (13.3) is free-form text naming the tool that wrote the module;
    as in MLIR it is written in the keyword attribute dictionary.
    """

    name = "cuda_tile.module"
    sym_name = prop_def(StringAttr)
    producer = opt_prop_def(StringAttr)  # 13.3
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolTable(), SymbolOpInterface())

    def __init__(
        self, sym_name: str, ops: Sequence[CudaTileOp] = (), producer: str | None = None
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "producer": None if producer is None else StringAttr(producer),
            },
            regions=[Region(Block(ops))],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        name = parser.parse_symbol_name()
        attr_dict = parser.parse_optional_attr_dict_with_keyword()
        attrs = dict(attr_dict.data) if attr_dict is not None else {}
        properties: dict[str, Attribute] = {"sym_name": name}
        if "producer" in attrs:
            properties["producer"] = attrs.pop("producer")
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.create(properties=properties, regions=[region])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        attrs = dict(self.attributes)
        if self.producer is not None:
            attrs = {"producer": self.producer, **attrs}
        printer.print_op_attributes(attrs, print_keyword=True)
        printer.print_string(" ")
        if isinstance(printer, TileIRPrinter):
            with printer.eliding_prefix():
                printer.print_region(self.body, print_empty_block=False)
        else:
            printer.print_region(self.body, print_empty_block=False)


class FunctionOp(CudaTileOp):
    """``@f(%a: T, ...) [-> R] [optimization_hints=<...>] { ... }``: what
    ``entry`` and the test-only ``testing$func`` share (fields, syntax).

    The body is one block ending in ``return`` (added when omitted, and always
    printed, as NVIDIA's tools do).
    """

    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    optimization_hints = opt_prop_def(OptimizationHintsAttr)
    body = region_def("single_block")
    traits = traits_def(
        IsolatedFromAbove(), SymbolOpInterface(), ImplicitTerminator("cuda_tile.return")
    )

    def __init__(
        self,
        sym_name: str,
        arg_types: Sequence[Attribute],
        body: Region | None = None,
        optimization_hints: OptimizationHintsAttr | None = None,
        result_types: Sequence[Attribute] = (),
    ):
        if body is None:
            body = Region(Block(arg_types=arg_types))
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "function_type": FunctionType.from_lists(arg_types, result_types),
                "optimization_hints": optimization_hints,
            },
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        name = parser.parse_symbol_name().data
        located = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN,
            lambda: (parser.parse_argument(expect_type=True), parser.parse_optional_location()),
        )
        args = [arg for arg, _ in located]
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is None:
                result_types = [parser.parse_type()]
            elif parser.parse_optional_punctuation(")") is None:
                result_types = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
        hints = OptimizationHintsAttr.parse_optional_assignment(parser)
        arg_types = [a.type for a in args]
        region = parser.parse_region(args)
        if not region.blocks:
            region.add_block(Block(arg_types=arg_types))
        # ``loc(...)`` after an argument's type, as --mlir-print-debuginfo prints it.
        for block_arg, (_, location) in zip(region.blocks[0].args, located):
            if location is not None:
                block_arg.location = location
        ensure_terminator(parser, region, ReturnOp, start)
        op = cls(name, arg_types, region, hints, result_types)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        with printer.in_parens():
            printer.print_list(self.body.block.args, printer.print_block_argument)
        outputs = self.function_type.outputs.data
        if len(outputs) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(outputs[0])
        elif outputs:
            printer.print_string(" -> (")
            printer.print_list(outputs, printer.print_attribute)
            printer.print_string(")")
        hints = self.optimization_hints
        if hints is not None and hints.value.data:
            printer.print_string(" optimization_hints=")
            hints.print_parameters(printer)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


    def verify_signature(self) -> None:
        """The body's arguments are the function type's inputs."""
        inputs = self.function_type.inputs.data
        args = self.body.block.args
        if len(args) != len(inputs):
            raise VerifyException(
                f"entry block must have {len(inputs)} arguments to match function "
                "signature"
            )
        for i, (arg, t) in enumerate(zip(args, inputs)):
            if arg.type != t:
                raise VerifyException(
                    f"type of entry block argument #{i}({quoted(arg.type)}) must match the "
                    f"type of the corresponding argument in function signature({quoted(t)})"
                )


@irdl_op_definition
class EntryOp(FunctionOp):
    """``entry @k(%a: tile<ptr<f32>>, ...) [optimization_hints=<...>] { ... }``.

    A kernel.  Arguments are scalars (0-d tiles) or views; it returns nothing.
    """

    name = "cuda_tile.entry"

    def verify_(self) -> None:
        # NVIDIA checks hint *values* only under -Werr-hints; by default any
        # architecture key and hint name is accepted (entry_opt_hints_default_silent).
        if self.function_type.outputs.data:
            raise VerifyException("entry op must not return values")
        inputs = self.function_type.inputs.data
        for t in inputs:
            if isinstance(t, TileType) and t.rank != 0:
                raise VerifyException(
                    "entry op must have scalar types (rank 0 !cuda_tile.tile)"
                )
        self.verify_signature()
        verify_entry_debug_info(self, self.sym_name.data)

    def verify_regions(self) -> None:
        verify_body_debug_info(self)
        # Last, as MLIR checks dominance once every op holds: so that
        # ``module.verify()`` refuses a use before its definition too.
        verify_dominance(self)


TESTING_FUNC = "cuda_tile.testing$func"
"""NVIDIA's test-only function (``ops/testing.py``), a parent ``return`` accepts."""


def entries(op: Operation) -> Iterator[EntryOp]:
    """The entries in ``op`` (a ``builtin.module``, a ``cuda_tile.module``, or an entry
    itself), in order, without walking into their bodies: a pass that looks for its
    entries this way does not visit every op of every kernel to find them."""
    if isinstance(op, EntryOp):
        yield op
        return
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from entries(inner)


@irdl_op_definition
class ReturnOp(control.TerminatorOp):
    """``return``: end the kernel, from its body or from an ``if`` inside it.

    Kernels return no values; ``return`` is not allowed inside loops.
    """

    name = "cuda_tile.return"
    operands_ = var_operand_def()
    traits = traits_def(
        IsTerminator(),
        ReturnLike(),
        ParentOneOf((TESTING_FUNC, EntryOp.name, control.IfOp.name)),
    )

    def verify_(self) -> None:
        parent = self.parent_op()
        while isinstance(parent, control.IfOp):
            parent = parent.parent_op()
        if parent is None:
            return
        if not isinstance(parent, FunctionOp):
            raise VerifyException(
                f"must be used within a {TESTING_FUNC}, cuda_tile.entry, or cuda_tile.if "
                "operation"
            )
        count = len(self.operands_)
        results = parent.function_type.outputs.data
        if count != len(results):
            raise VerifyException(
                f"has {count} operands, but enclosing function "
                f"(@{parent.sym_name.data}) returns {len(results)}"
            )
        if count and isinstance(parent, EntryOp):
            raise VerifyException(
                f"has {count} operands, but entry function must return 0 operands"
            )
        for i, (value, t) in enumerate(zip(self.operands_, results)):
            if value.type != t:
                raise VerifyException(
                    f"type of return operand {i} ({quoted(value.type)}) doesn't match "
                    f"function result type ({quoted(t)}) in function @{parent.sym_name.data}"
                )



@irdl_op_definition
class GlobalOp(CudaTileOp):
    """``global [private] [constant] @g [alignment = N] <E: [...]> : tile<NxE>``.

    A 1-d buffer in global memory, initialised with ``value`` when the CUDA
    module loads; ``get_global`` gives a pointer to it.
    """

    name = "cuda_tile.global"
    sym_name = prop_def(StringAttr)
    value = prop_def(DenseIntOrFPElementsAttr)
    alignment = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, 64))
    constant = opt_prop_def(UnitAttr)  # 13.3
    symbol_visibility = prop_def(  # 13.3
        SymbolVisibilityAttr,
        default_value=SymbolVisibilityAttr(SymbolVisibility.PUBLIC),
    )
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        value: DenseIntOrFPElementsAttr,
        alignment: int = 0,
        constant: bool = False,
        visibility: SymbolVisibility = SymbolVisibility.PUBLIC,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "value": value,
                "alignment": IntegerAttr(alignment, 64),
                "constant": UnitAttr() if constant else None,
                "symbol_visibility": SymbolVisibilityAttr(visibility),
            }
        )

    @property
    def tile_type(self) -> TileType:
        """The type the value is written with (``tile<NxE>``)."""
        t = self.value.type
        return TileType(t.get_shape(), t.get_element_type())

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        # ``custom<SymbolVisibility>``: only these two words, so that a
        # misspelt one reads as a missing symbol name, as in NVIDIA's parser.
        word = parser.parse_optional_keyword_in([v.value for v in SymbolVisibility])
        visibility = SymbolVisibility(word or SymbolVisibility.PUBLIC)
        constant = parser.parse_optional_keyword("constant") is not None
        name = parser.parse_symbol_name().data
        alignment = 0
        if parser.parse_optional_keyword("alignment") is not None:
            parser.parse_punctuation("=")
            alignment = parser.parse_integer(allow_boolean=False, allow_negative=False)
        attrs = parser.parse_optional_attr_dict()
        value, _ = parse_dense_literal(parser)
        op = cls(name, value, alignment, constant, visibility)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.symbol_visibility.data != SymbolVisibility.PUBLIC:
            printer.print_string(f"{self.symbol_visibility.data.value} ")
        if self.constant is not None:
            printer.print_string("constant ")
        printer.print_symbol_name(self.sym_name.data)
        if self.alignment.value.data:
            printer.print_string(f" alignment = {self.alignment.value.data}")
        printer.print_op_attributes(self.attributes)
        t = self.tile_type
        printer.print_string(" <")
        printer.print_attribute(t.element_type)
        printer.print_string(f": {format_dense_values(self.value, t.shape)}> : ")
        printer.print_attribute(t)

    def verify_(self) -> None:
        if len(self.value.type.get_shape()) != 1:
            raise VerifyException("type must have rank 1")
        verify_global_debug_info(self)


class _ReferencesGlobal(SymbolUserOpInterface):
    """``GetGlobalOp::verifySymbolUses``: the symbol is a ``global`` of the pointee type."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GetGlobalOp)
        name = op.global_name.root_reference.data
        try:
            target = SymbolTable.lookup_symbol(op, op.global_name)
        except ValueError:  # no enclosing symbol table
            target = None
        if not isinstance(target, GlobalOp):
            raise VerifyException(f"'{name}' does not reference a valid global")
        pointer = element_type_of(op.result.type)
        element = target.value.get_element_type()
        assert isinstance(pointer, PointerType)
        if pointer.pointee != element:
            raise VerifyException(
                f"pointee type of result type {quoted(pointer)} does not match type "
                f"{quoted(element)} of the global @{name}"
            )


@irdl_op_definition
class GetGlobalOp(CudaTileOp):
    """``get_global @g : tile<ptr<E>>``: a pointer to the first element of global ``@g``."""

    name = "cuda_tile.get_global"
    global_name = prop_def(FlatSymbolRefAttrConstr, prop_name="name")
    result = result_def(ScalarPointerTile)
    traits = traits_def(Pure(), _ReferencesGlobal())
    assembly_format = "$name attr-dict `:` type($result)"

    def __init__(self, global_name: str, result_type: TileType):
        super().__init__(
            properties={"name": SymbolRefAttr(global_name)}, result_types=[result_type]
        )
