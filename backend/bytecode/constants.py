"""Dense constants (``constant`` values, ``global`` initializers) as raw bytes.

Bytecode stores MLIR's raw ``DenseElementsAttr`` buffer: elements
little-endian, each in its storage width rounded up to whole bytes (``tf32``
takes 3, ``i4`` and ``f4E2M1FN`` one), ``i1`` packed eight to a byte with the
first element in the lowest bit, and a constant whose elements are all equal
(a splat) stored as a single element (an ``i1`` splat as ``00`` or ``FF``).
The element type and shape come from the op's tile type.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import TileType

from .values import bit_width


def element_size(element: Attribute) -> int:
    """Bytes per stored element (``i1``: 1, before bit packing)."""
    return (bit_width(element) + 7) // 8


def tile_type_of(attr: Attribute) -> TileType:
    """The tile type of a dense constant attribute."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return TileType(attr.get_shape(), attr.get_element_type())
    raise ValueError(f"expected a dense elements attribute, got {attr}")


def elements_of(attr: Attribute, tile: TileType) -> list[bytes]:
    """The constant's elements, each as its little-endian storage bytes."""
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        raise ValueError(f"expected a dense elements attribute, got {attr}")
    if attr.get_element_type() != tile.element_type:
        raise ValueError(
            f"constant of {attr.get_element_type()} elements in a tile of " f"{tile.element_type}"
        )
    size = element_size(tile.element_type)
    data = attr.data.data
    return [data[i : i + size] for i in range(0, len(data), size)]


def raw_data(attr: Attribute, tile: TileType) -> bytes:
    """MLIR's raw buffer for the constant ``attr`` of type ``tile``."""
    elements = elements_of(attr, tile)
    is_bool = tile.element_type == IntegerType(1)
    if len(set(elements)) <= 1:  # splat
        if is_bool:
            return b"\xff" if elements and any(elements[0]) else b"\x00"
        return elements[0] if elements else b""
    if is_bool:
        bits = sum(1 << i for i, e in enumerate(elements) if any(e))
        return bits.to_bytes((len(elements) + 7) // 8, "little")
    return b"".join(elements)


def from_raw(raw: bytes, tile: TileType) -> Attribute:
    """The constant attribute for MLIR's raw buffer ``raw`` of type ``tile``.

    Raises ValueError if the buffer has neither one element (a splat) nor
    exactly the tile's element count.
    """
    n = tile.num_elements
    element = tile.element_type
    size = element_size(element)
    if element == IntegerType(1):
        if len(raw) == 1 and raw[0] in (0x00, 0xFF):
            data = bytes([raw[0] & 1]) * n
        elif len(raw) == (n + 7) // 8:
            bits = int.from_bytes(raw, "little")
            data = bytes((bits >> i) & 1 for i in range(n))
        else:
            raise ValueError(f"{len(raw)} bytes hold neither a splat nor {n} packed i1 values")
    elif len(raw) == size:
        data = raw * n
    elif len(raw) == size * n:
        data = raw
    else:
        raise ValueError(f"{len(raw)} bytes hold neither one nor {n} elements of {size} bytes")
    from xdsl.dialects.builtin import BytesAttr

    return DenseIntOrFPElementsAttr(TensorType(element, tile.shape), BytesAttr(data))
