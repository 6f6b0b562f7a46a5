"""A lit test format that runs the suite's Python tools without starting Python each time.

Every RUN line goes through lit's own internal shell (``ShTest``): its parser,
pipes, redirections (``2>&1``, ``>/dev/null``, ``< file``), ``not``, ``env``,
substitutions and logs are lit's.  Only the last step changes: where lit's
shell would ``exec`` one of the *preloaded* tools (``tile-opt``, ``filecheck``:
console scripts of the interpreter lit itself runs on), the process is a
``fork`` of the lit worker, which imported the tool's module once, and the
child calls the tool's entry point the way its console script would.  Each
command is still its own process, with the file descriptors, working
directory, environment, ``sys.argv`` and ``sys.path`` the exec'd script
would have, and its exit status is the interpreter's (``SystemExit`` codes, 1
and a traceback for an uncaught exception, 120 when standard output cannot
be flushed).  Global state the tool changes (a ``--load``-ed pass in the pass
registry, ``sys.path``, warnings already shown) dies with the child.

What this saves: ``tile-opt`` spends ~0.5 CPU-s importing xDSL and safetile
before it reads its input; a forked child starts with all of it imported.

Invariants:

* a tool is preloaded only where its script's ``#!`` interpreter is the one
  running lit and it is a console-script entry point of that interpreter's
  environment; anything else (``diff``, ``sed``, another interpreter) is
  spawned as before;
* the module of a tool is imported in the worker with standard output and
  error replaced by non-terminals, as a child of lit sees them (pipes), so
  import-time checks such as ``isatty()`` agree;
* ``lit --param tools=spawn`` runs the plain ``ShTest`` (every tool spawned),
  for comparison: test/unit/test_lit_format.py runs RUN lines both ways and
  requires the same results and logs.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any

import lit.formats

HERE = os.path.dirname(os.path.abspath(__file__))

Entry = Callable[[], object]


def _interpreter(script: str) -> str | None:
    """The interpreter named by ``script``'s ``#!`` line, or None."""
    try:
        with open(script, "rb") as f:
            first = f.readline()
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode(errors="replace").split()
    return words[0] if len(words) == 1 else None


def preloadable(tools: Sequence[str], path: str) -> dict[str, str]:
    """The tools of ``tools`` found on ``path`` that can run in a fork of this
    interpreter: real script path -> the entry point (``module:attr``)."""
    found = {}
    for tool in tools:
        script = shutil.which(tool, path=path)
        points = entry_points(group="console_scripts", name=tool)
        if script is None or not points:
            continue
        interpreter = _interpreter(script)
        if interpreter is None or os.path.realpath(interpreter) != os.path.realpath(sys.executable):
            continue
        found[os.path.realpath(script)] = next(iter(points)).value
    return found


def _load(value: str) -> Entry:
    """Import the entry point ``module:attr`` as a pipe-connected process would see it."""
    module, _, attr = value.partition(":")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        target: Any = __import__(module, fromlist=[attr])
    for part in attr.split("."):
        target = getattr(target, part)
    return target


def _exit_status(code: object) -> int:
    """What the interpreter exits with for ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _fresh_stdio() -> None:
    """Standard streams on fds 0-2 as a new interpreter opens them; the worker's
    objects (and whatever they still buffer) are dropped, never flushed."""
    encoding = sys.stdout.encoding
    sys.stdin = sys.__stdin__ = open(0, "r", encoding=encoding, closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding=encoding, closefd=False)
    # Python's stderr is line-buffered and never fails to encode.
    sys.stderr = sys.__stderr__ = open(
        2, "w", encoding=encoding, errors="backslashreplace", closefd=False, buffering=1
    )


def _run_script(entry: Entry) -> int:
    """Run a console script's body, ``sys.exit(entry())``, as the interpreter would."""
    try:
        status = _exit_status(entry())
    except SystemExit as stop:
        status = _exit_status(stop.code)
    except BaseException:
        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
    except Exception:
        status = 120  # the interpreter's status when stdout cannot be flushed at exit
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    return status


def _child(entry: Entry, argv: list[str], cwd: str | None, env: Mapping[str, str] | None,
           fds: tuple[int, int, int, int, int, int]) -> None:
    """The forked child: set up fds, cwd and environment as ``subprocess`` does
    before ``exec``, then run the tool; never returns."""
    status = 255
    try:
        p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite = fds
        for parent_end in (p2cwrite, c2pread, errread):
            if parent_end != -1:
                os.close(parent_end)
        # As _posixsubprocess: move an fd out of the way of a lower dup2 target.
        if c2pwrite == 0:
            c2pwrite = os.dup(c2pwrite)
        while errwrite in (0, 1):
            errwrite = os.dup(errwrite)
        for source, target in ((p2cread, 0), (c2pwrite, 1), (errwrite, 2)):
            if source != -1 and source != target:
                os.dup2(source, target)
        for source in {p2cread, c2pwrite, errwrite} - {-1, 0, 1, 2}:
            os.close(source)
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        _fresh_stdio()
        sys.argv = argv
        # A script's own folder comes first on its path; the config's folder is not on it.
        sys.path[:] = [os.path.dirname(argv[0]), *(p for p in sys.path[1:] if p != HERE)]
        status = _run_script(entry)
    finally:
        os._exit(status)


class ToolPopen(subprocess.Popen):  # type: ignore[type-arg]
    """``subprocess.Popen`` that forks, rather than execs, the preloaded tools."""

    tools: dict[str, Entry] = {}
    """Real script path -> its loaded entry point (filled by ``PreloadedShTest``)."""

    def _execute_child(self, args: Any, executable: Any, preexec_fn: Any, close_fds: Any,
                       pass_fds: Any, cwd: Any, env: Any, startupinfo: Any, creationflags: Any,
                       shell: Any, p2cread: int, p2cwrite: int, c2pread: int, c2pwrite: int,
                       errread: int, errwrite: int, *rest: Any) -> None:
        entry = self.tools.get(os.path.realpath(executable)) if executable else None
        if entry is None or shell or preexec_fn is not None or pass_fds:
            super()._execute_child(  # type: ignore[misc]
                args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo,
                creationflags, shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, *rest)
            return
        argv = [os.fspath(executable), *map(os.fspath, list(args)[1:])]
        fds = (p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(entry, argv, cwd, env, fds)
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)  # type: ignore[attr-defined]


@contextlib.contextmanager
def _forking(tools: dict[str, Entry]) -> Iterator[None]:
    """``subprocess.Popen`` is ``ToolPopen`` for the preloaded ``tools`` (the lit
    worker runs one test at a time, in one thread)."""
    saved, saved_tools = subprocess.Popen, ToolPopen.tools
    subprocess.Popen, ToolPopen.tools = ToolPopen, tools  # type: ignore[misc]
    try:
        yield
    finally:
        subprocess.Popen, ToolPopen.tools = saved, saved_tools  # type: ignore[misc]


class PreloadedShTest(lit.formats.ShTest):
    """``ShTest`` whose preloaded tools run as forks of the worker (module docstring)."""

    def __init__(self, tools: dict[str, str]):
        super().__init__(execute_external=False)
        self.entry_points = tools  # real script path -> module:attr; picklable, for lit's workers
        self._loaded: dict[str, Entry] | None = None

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_loaded": None}  # each worker imports the tools itself

    def execute(self, test: Any, litConfig: Any) -> Any:
        if self._loaded is None:
            self._loaded = {script: _load(value) for script, value in self.entry_points.items()}
            # What the tools imported stays untouched by the collector from now on: a
            # collection in a child would otherwise write to (and so copy) every page
            # of the worker's heap it walks.
            gc.freeze()
        with _forking(self._loaded):
            return super().execute(test, litConfig)


def test_format(lit_config: Any, config: Any, tools: Sequence[str]) -> lit.formats.ShTest:
    """The suite's format: ``PreloadedShTest`` for ``tools``, or the plain
    ``ShTest`` under ``--param tools=spawn`` or where ``fork`` does not exist."""
    mode = lit_config.params.get("tools", "preloaded")
    if mode not in ("preloaded", "spawn"):
        lit_config.fatal(f"--param tools={mode}: use 'preloaded' (the default) or 'spawn'")
    if mode == "spawn" or not hasattr(os, "fork"):
        return lit.formats.ShTest()
    return PreloadedShTest(preloadable(tools, config.environment["PATH"]))
