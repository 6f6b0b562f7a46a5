"""Reading a decorated Python function: its AST, its place in the file, its names.

Kernels are never traced: the compiler reads their source with ``inspect``
and ``ast`` (as Triton and cuTile Python do) and resolves every free name
the way Python would, through the function's closure, its module's
globals, then Python's builtins.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import CompileError, Source

_MISSING = object()


@dataclass(frozen=True)
class ParsedFunction:
    """A function's AST (``tree``) and where its free names come from."""

    python: Callable[..., Any]
    tree: ast.FunctionDef
    source: Source
    closure: dict[str, Any]

    @property
    def name(self) -> str:
        return self.tree.name

    def lookup_global(self, name: str) -> Any:
        """The value of a free ``name``, or ``_MISSING``."""
        if name in self.closure:
            return self.closure[name]
        module_globals = getattr(self.python, "__globals__", {})
        if name in module_globals:
            return module_globals[name]
        return getattr(builtins, name, _MISSING)


MISSING = _MISSING


def parse_function(fn: Callable[..., Any]) -> ParsedFunction:
    """Parse ``fn``'s source; raise ``CompileError`` if it cannot be read."""
    file = inspect.getsourcefile(fn) or "<unknown>"
    try:
        raw_lines, first_line = inspect.getsourcelines(fn)
    except (OSError, TypeError) as err:
        raise CompileError(
            f"cannot read the source of '{fn.__name__}': {err}",
            file,
            hint="kernels must be defined in a .py file (not typed at an interactive prompt)",
        ) from None
    text = "".join(raw_lines)
    dedented = textwrap.dedent(text)
    indent = len(raw_lines[0]) - len(raw_lines[0].lstrip()) if raw_lines else 0
    indent -= len(dedented.splitlines()[0]) - len(dedented.splitlines()[0].lstrip())
    module = ast.parse(dedented)
    lines = tuple(linecache.getlines(file)) or tuple(raw_lines)
    # inspect counts the decorator lines as the start; ast numbers from the
    # first line of the text, which is the same line.
    source = Source(file, lines, first_line - 1, indent)
    tree = next((n for n in module.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)), None)
    if tree is None:
        raise source.error(
            module.body[0] if module.body else module,
            f"'{fn.__name__}' is not written with 'def'",
            "write kernels and device functions as 'def name(...):' functions",
        )
    if isinstance(tree, ast.AsyncFunctionDef):
        raise source.error(
            tree,
            f"'{fn.__name__}' is an 'async def'; kernels and device functions are plain functions",
            "write 'def': launches are already asynchronous (a launch is a DeviceOp you may await)",
        )
    closure = dict(inspect.getclosurevars(fn).nonlocals) if fn.__closure__ else {}
    return ParsedFunction(fn, tree, source, closure)


class DeviceFunction:
    """A ``@st.function``: a device function, inlined wherever a kernel calls it.

    Its source is parsed on first use; its free names resolve in its own
    module, so kernels may call device functions of other modules.
    """

    def __init__(self, fn: Callable[..., Any]):
        self.python = fn
        self._parsed: ParsedFunction | None = None
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__

    @property
    def name(self) -> str:
        return self.python.__name__

    @property
    def parsed(self) -> ParsedFunction:
        if self._parsed is None:
            self._parsed = parse_function(self.python)
        return self._parsed

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"device function '{self.name}' can only be called inside a @st.kernel or @st.function"
        )

    def __repr__(self) -> str:
        return f"<st.function {self.__qualname__}>"
