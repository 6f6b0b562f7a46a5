"""mlir-opt's command-line habits, read into tile-opt's options.

``mlir-opt`` and NVIDIA's ``cuda-tile-opt`` (both ``MlirOptMain``) read their
command line with LLVM's ``cl``, which differs from ``argparse`` in three ways
that users' RUN lines rely on:

* a long option takes one dash or two: ``-split-input-file``,
  ``-mlir-print-op-generic``, ``-Wunsupported-hints``;
* every registered pass is an option of its own, run in command-line order:
  ``--canonicalize``, ``--licm``, ``--bounds-check-elision="max-depth=2"``;
* ``--pass-pipeline`` (and ``-p``) nest passes under op anchors:
  ``builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))``.

``normalize`` rewrites such a command line into the ``argparse`` one tile-opt
reads (``--split-input-file``; the pass options become one ``-p`` list).
``pipeline_passes`` flattens an anchored pipeline into xDSL's pass list: every
tile-opt pass is a module pass that works on each op it applies to, so running
it on the whole module is the same as running it on each anchored op, as long
as the module holds only ops of those anchors (docs/tile-opt.md lists this as
a deliberate difference).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence

from xdsl.passes import ModulePass


class PipelineError(ValueError):
    """A malformed ``--pass-pipeline`` (a usage error)."""


_LONG = re.compile(r"-([A-Za-z][\w$.-]*)(=.*)?", re.DOTALL)


def normalize(
    argv: Sequence[str], long_options: Collection[str], passes: Collection[str]
) -> tuple[list[str], list[str]]:
    """``argv`` with one-dash long options spelled with two, and the passes
    given as options taken out: the new argv and the passes, in order.

    ``long_options`` are the names (without dashes) tile-opt's parser knows;
    ``passes`` the registered pass names.  A pass option's value is its
    options, MLIR's ``--pass="a=1 b=2"``, which become xDSL's ``pass{a=1 b=2}``.
    Everything after ``--`` is left alone.
    """
    out: list[str] = []
    pass_list: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            out += argv[i:]
            break
        match = _LONG.fullmatch(arg[1:]) if arg.startswith("--") else _LONG.fullmatch(arg)
        name = match[1] if match else None
        if name is not None and name in passes and name not in long_options:
            value = (match[2] or "")[1:].strip().strip("\"'") if match else ""
            pass_list.append(f"{name}{{{quote_option_values(value)}}}" if value else name)
        elif name is not None and not arg.startswith("--") and name in long_options:
            out.append("-" + arg)
        else:
            out.append(arg)
    return out, pass_list


def is_pipeline(text: str) -> bool:
    """Whether ``text`` is MLIR's anchored form (``builtin.module(...)``)
    rather than xDSL's plain pass list (``cse,canonicalize``)."""
    head = re.split(r"[{,]", text, maxsplit=1)[0]
    return "(" in head


def pipeline_passes(pipeline: str) -> str:
    """The pass list (xDSL's ``p1,p2{opt=v}``) of MLIR's anchored pipeline.

    The outermost anchor is ``builtin.module`` (the module tile-opt parses);
    nested anchors (``cuda_tile.module``, ``cuda_tile.entry``, any op name)
    are accepted and flattened.
    """
    text = pipeline.strip()
    anchor, body = _split_anchor(text, pipeline)
    if anchor != "builtin.module":
        raise PipelineError(
            f"--pass-pipeline: the outermost anchor must be 'builtin.module', got "
            f"'{anchor}' in '{pipeline}'"
        )
    return ",".join(_flatten(body, pipeline))


def _flatten(body: str, pipeline: str) -> list[str]:
    passes: list[str] = []
    for element in _split_elements(body, pipeline):
        if "(" in re.split(r"[{]", element, maxsplit=1)[0]:
            _, inner = _split_anchor(element, pipeline)
            passes += _flatten(inner, pipeline)
        else:
            name, brace, options = element.partition("{")
            passes.append(name + brace + quote_option_values(options) if brace else element)
    return passes


_OPTION = re.compile(r"""([\w-]+)=("[^"]*"|'[^']*'|[^\s}]+)""")
_PLAIN_VALUE = re.compile(r"[\w.+-]+")


def quote_option_values(options: str) -> str:
    """Pass options (``a=1 b=outer::inner``) with each value xDSL's option
    syntax cannot read bare quoted (``b="outer::inner"``): MLIR's options are
    strings to their parsers, so a symbol specifier needs no quotes there."""

    def quoted(match: re.Match[str]) -> str:
        key, value = match[1], match[2]
        if value[0] in "\"'" or _PLAIN_VALUE.fullmatch(value):
            return match[0]
        return f'{key}="{value}"'

    return _OPTION.sub(quoted, options)


def _split_anchor(element: str, pipeline: str) -> tuple[str, str]:
    """``anchor(body)`` -> (``anchor``, ``body``)."""
    head, paren, rest = element.partition("(")
    anchor = head.strip()
    if not paren or not rest.rstrip().endswith(")") or not re.fullmatch(r"[\w$.]+", anchor):
        raise PipelineError(
            f"--pass-pipeline: expected 'anchor(pass,pass,...)', got '{element}' in '{pipeline}'"
        )
    return anchor, rest.rstrip()[:-1]


def _split_elements(body: str, pipeline: str) -> list[str]:
    """The comma-separated elements of ``body``, commas inside (), {} and quotes kept."""
    elements: list[str] = []
    depth, quote, start = 0, "", 0
    for i, char in enumerate(body):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"--pass-pipeline: unbalanced '{char}' in '{pipeline}'")
        elif char == "," and depth == 0:
            elements.append(body[start:i].strip())
            start = i + 1
    if depth or quote:
        raise PipelineError(f"--pass-pipeline: unbalanced brackets or quotes in '{pipeline}'")
    last = body[start:].strip()
    if last or elements:
        elements.append(last)
    if any(not e for e in elements):
        raise PipelineError(f"--pass-pipeline: an empty pass in '{pipeline}'")
    return elements


def pass_options(pass_class: type[ModulePass]) -> list[tuple[str, str]]:
    """A pass's options as ``--help`` lists them: (kebab-case name, type)."""
    return [
        (field.name.replace("_", "-"), str(field.type))
        for field in dataclasses.fields(pass_class)
        if field.name != "name"
    ]
