"""``--verify-diagnostics``: MLIR's expected-diagnostic annotations.

A test file states the diagnostics it expects in comments, as MLIR's
``SourceMgrDiagnosticVerifierHandler`` reads them::

    // expected-error {{text}}           on this line
    // expected-error@+1 {{text}}        N lines below (@-N: above)
    // expected-error@below {{text}}     the next line that is not an annotation
    // expected-error@above {{text}}     the last line that was not an annotation
    // expected-error@unknown {{text}}   a diagnostic with no location
    // expected-warning / -note / -remark {{...}}
    // expected-error-re {{lit {{regex}} lit}}

Every expected diagnostic must be produced (at its line, with its severity,
its text contained in the message) and every produced diagnostic must be
expected; either mismatch fails the run.  One safetile extension: a
diagnostic with no location (a pass that rejects a whole module) is also
matched by an annotation anywhere in its chunk, as if it were ``@unknown``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from safetile.dialects.cuda_tile.diagnostics import Diagnostic

_ANNOTATION = re.compile(
    r"expected-(error|warning|note|remark)(-re)?\s*"
    r"(?:@\s*([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}\s*$"
)


@dataclass(frozen=True)
class Expectation:
    """One ``expected-*`` annotation: what it expects, and where it is written."""

    severity: str
    line: int | None
    """The line the diagnostic must be at; ``None`` for ``@unknown``."""
    text: str
    pattern: re.Pattern[str]
    """``text`` as a regular expression (literal but for ``-re``'s ``{{...}}``)."""
    written_at: tuple[int, int]
    """Line and column of the annotation itself, for reporting it."""

    def matches(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.severity != self.severity:
            return False
        # A diagnostic with no location (line 0) is met at any line of its chunk.
        if diagnostic.line and self.line != diagnostic.line:
            return False
        return self.pattern.search(diagnostic.message) is not None


def _pattern(text: str, is_regex: bool) -> re.Pattern[str]:
    if not is_regex:
        return re.compile(re.escape(text))
    # ``-re``: literal text with ``{{regex}}`` parts, as MLIR's FileCheck-style syntax.
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile(
        "".join(part if i % 2 else re.escape(part) for i, part in enumerate(parts))
    )


class AnnotationError(Exception):
    """A malformed annotation: ``-re`` text that is not a regular expression."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column = line, column


def expectations(chunk: str, line_offset: int = 0) -> list[Expectation]:
    """The annotations of ``chunk``, with lines counted from ``line_offset``."""
    found: list[Expectation] = []
    last_plain_line = 0
    waiting_for_next_line: list[int] = []  # indices in ``found`` of @below annotations
    lines = chunk.splitlines()
    for index, text in enumerate(lines):
        number = index + 1 + line_offset
        match = _ANNOTATION.search(text)
        if match is None:
            last_plain_line = number
            for i in waiting_for_next_line:
                found[i] = _at(found[i], number)
            waiting_for_next_line.clear()
            continue
        severity, is_regex, where, body = match.groups()
        column = match.start() + 1
        try:
            pattern = _pattern(body, bool(is_regex))
        except re.error as err:
            raise AnnotationError(number, column, f"invalid regular expression: {err}") from None
        if where is None:
            target: int | None = number
        elif where == "unknown":
            target = None
        elif where == "above":
            target = last_plain_line
        elif where == "below":
            waiting_for_next_line.append(len(found))
            target = len(lines) + line_offset  # dangling until a plain line follows
        else:
            target = number + int(where)
        found.append(Expectation(severity, target, body, pattern, (number, column)))
    return found


def _at(expectation: Expectation, line: int) -> Expectation:
    return Expectation(
        expectation.severity, line, expectation.text, expectation.pattern, expectation.written_at
    )


def mismatches(
    expected: Sequence[Expectation], produced: Sequence[Diagnostic], file: str
) -> list[str]:
    """MLIR's report of a chunk: each unexpected diagnostic, each unmet expectation."""
    open_ = list(expected)
    report: list[str] = []
    for diagnostic in produced:
        met = next((e for e in open_ if e.matches(diagnostic)), None)
        if met is not None:
            open_.remove(met)
            continue
        where = f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}"
        report.append(
            f"{where}: error: unexpected {diagnostic.severity}: {diagnostic.message}"
        )
    for e in open_:
        line, column = e.written_at
        report.append(
            f'{file}:{line}:{column}: error: expected {e.severity} "{e.text}" was not produced'
        )
    return report
