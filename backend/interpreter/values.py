"""Runtime values of the interpreter besides tiles: tokens and views.

A tile is a numpy array of the tile's shape (0-d for a scalar) in the
*carrier* dtype of its element type (``backend/elements.py``).  Tiles are
never modified in place once made.  The other values are a ``Token``
(typed, no contents), ``TensorView`` and ``TileView``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import TensorViewType, TileViewType



@dataclass(frozen=True)
class Token:
    """A ``cuda_tile.token``: orders memory operations; carries no data.

    The interpreter runs a tile block's operations in program order, which is
    one valid order of every token chain, so tokens only keep their type.
    """


TOKEN = Token()


@dataclass(frozen=True)
class TensorView:
    """A ``tensor_view``: ``shape`` elements at ``base``, ``strides`` in elements."""

    type: TensorViewType
    base: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    @property
    def element_type(self) -> Attribute:
        return self.type.element_type


@dataclass(frozen=True)
class TileView:
    """A partition, strided or gather/scatter view of a ``TensorView``."""

    type: TileViewType
    tensor: TensorView
    index_space: tuple[int, ...] = field(compare=False)
    """Valid indices per index dimension (``get_index_space_shape``)."""
