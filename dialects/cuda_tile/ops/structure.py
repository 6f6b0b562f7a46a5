"""Module structure: ``module``, ``entry`` and ``return``.

A Tile IR program is one ``cuda_tile.module`` holding kernels (``entry``) and
globals.  Inside the module, op and type names drop the ``cuda_tile.`` prefix;
``ModuleOp.print`` switches a ``TileIRPrinter`` into that mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ..attributes import ENTRY_HINTS, OptimizationHintsAttr
from ..syntax import TileIRPrinter
from ..types import TileType
from ._common import CudaTileOp


@irdl_op_definition
class ModuleOp(CudaTileOp):
    """``cuda_tile.module @name { ... }``: the unit of compilation."""

    name = "cuda_tile.module"
    sym_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolTable(), SymbolOpInterface())

    def __init__(self, sym_name: str, ops: Sequence[CudaTileOp] = ()):
        super().__init__(
            properties={"sym_name": StringAttr(sym_name)},
            regions=[Region(Block(ops))],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.create(properties={"sym_name": name}, regions=[region])
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        if isinstance(printer, TileIRPrinter):
            with printer.eliding_prefix():
                printer.print_region(self.body)
        else:
            printer.print_region(self.body)


@irdl_op_definition
class EntryOp(CudaTileOp):
    """``entry @k(%a: tile<ptr<f32>>, ...) [optimization_hints=<...>] { ... }``.

    A kernel.  Arguments are scalars (0-d tiles) or tensor views; the body is
    one block ending in ``return``.
    """

    name = "cuda_tile.entry"
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    optimization_hints = opt_prop_def(OptimizationHintsAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), HasParent(ModuleOp))

    def __init__(
        self,
        sym_name: str,
        arg_types: Sequence[Attribute],
        body: Region | None = None,
        optimization_hints: OptimizationHintsAttr | None = None,
    ):
        if body is None:
            body = Region(Block(arg_types=arg_types))
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "function_type": FunctionType.from_lists(arg_types, []),
                "optimization_hints": optimization_hints,
            },
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> EntryOp:
        name = parser.parse_symbol_name()
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
        )
        hints = None
        if parser.parse_optional_keyword("optimization_hints") is not None:
            parser.parse_punctuation("=")
            hints = OptimizationHintsAttr.new(OptimizationHintsAttr.parse_parameters(parser))
        region = parser.parse_region(args)
        if not region.blocks:
            region.add_block(Block(arg_types=[a.type for a in args]))
        body = region.block
        if body.last_op is None or not body.last_op.has_trait(IsTerminator):
            body.add_op(ReturnOp())
        attrs = parser.parse_optional_attr_dict()
        op = cls.create(
            properties={
                "sym_name": name,
                "function_type": FunctionType.from_lists([a.type for a in args], []),
            }
            | ({"optimization_hints": hints} if hints is not None else {}),
            regions=[region],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        with printer.in_parens():
            printer.print_list(
                self.body.block.args, lambda a: printer.print_block_argument(a)
            )
        hints = self.optimization_hints
        if hints is not None and hints.value.data:
            printer.print_string(" optimization_hints=")
            hints.print_parameters(printer)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        if self.function_type.outputs.data:
            raise VerifyException("entry op must not return values")
        for t in inputs:
            if isinstance(t, TileType) and t.rank != 0:
                raise VerifyException(
                    "entry op must have scalar types (rank 0 !cuda_tile.tile)"
                )
        arg_types = tuple(a.type for a in self.body.block.args)
        if arg_types != tuple(inputs):
            raise VerifyException(
                "entry block argument types must match the function type"
            )
        if self.optimization_hints is not None:
            self.optimization_hints.verify_for(self.name, ENTRY_HINTS)


@irdl_op_definition
class ReturnOp(CudaTileOp):
    """``return``: ends an ``entry`` body (kernels return no values)."""

    name = "cuda_tile.return"
    traits = traits_def(IsTerminator(), HasParent(EntryOp))
    assembly_format = "attr-dict"
