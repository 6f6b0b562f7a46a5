"""Fixtures shared by the unit tests."""

from __future__ import annotations

import gc
import os

# The unit tests are the CPU suite (`make test`): kernels run on the
# interpreter even on a machine with a GPU; test/gpu is the GPU suite.
os.environ.setdefault("SAFETILE_BACKEND", "cpu")

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.expression import Expression
from xdsl.context import Context

from safetile.passes import registry

import support
from support import REPO_ROOT, make_context

CUBIN_CACHE_ENV = "SAFETILE_TEST_CUBIN_CACHE"
"""Names the suite's cubin cache folder (default ``build/test-cubins``)."""


GC_THRESHOLD = (100_000, 20, 10)
"""The collector's thresholds in a test process.  Python's default (700
allocations a young collection) made the suite spend about a tenth of its
CPU in the collector; 20,000 halved that, and 100,000 (a middle generation
every 20 young ones) took another 3% off pytest's CPU (two pairs of
``pytest -n 2`` runs, alternated).  The rest was full collections, each
walking every kernel compiled so far (``freeze_the_heap``)."""


def freeze_the_heap() -> None:
    """Collect the garbage, then set every live object aside (``gc.freeze``):
    no later collection walks them.  Done as each test file starts, and by
    ``young_heap``.  A full collection walks every object the collector
    tracks: after a few hundred tests on one worker (compiled kernels, modules,
    torch) about a CPU-second each, several times a run; frozen, what it walks
    is what the current file made.  An object that was alive at a freeze and
    becomes garbage later is still freed when nothing refers to it; only one in
    a cycle stays (the kernels, modules and caches of earlier files, which live
    all session anyway)."""
    gc.collect()
    gc.freeze()


_FROZEN_AT: list[object] = [None]
"""The test file that ``freeze_the_heap`` last ran at the start of."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.path != _FROZEN_AT[0]:
        _FROZEN_AT[0] = item.path
        freeze_the_heap()


def pytest_configure(config: pytest.Config) -> None:
    """Tell the property tests the tier (``support.FULL_TIER``): the full tier
    is any run whose ``-m`` expression selects a test marked ``full``.  Set
    the collector's thresholds (``GC_THRESHOLD``).  Where the last run's file
    times are known, hand the files out longest first (``FILE_SECONDS``)."""
    markexpr = config.getoption("markexpr")
    support.FULL_TIER = not markexpr or Expression.compile(markexpr).evaluate(lambda name: name == "full")
    gc.set_threshold(*GC_THRESHOLD)
    if _file_seconds(config) and hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # xdist keeps the order collected below


FILE_SECONDS = "safetile/file-seconds"
"""pytest's cache entry (``.pytest_cache``) holding each test file's seconds
in the runs before, summed over its tests' setup, call and teardown.

``make test`` gives each pytest-xdist worker whole files (``--dist
loadfile``), in the order they are collected (xdist's own order is by
number of tests).  The run ends when the last worker's last file does: a
heavy file handed out late runs alone while the other core idles.  Longest
first (the LPT rule) leaves only short files for the end; lit orders its
tests the same way from its own record (``.lit_test_times.txt``).  A fresh
clone has no record and keeps xdist's order."""


def _file_seconds(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    if cache is None:  # -p no:cacheprovider
        return {}
    found = cache.get(FILE_SECONDS, {})
    return found if isinstance(found, dict) else {}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each xdist worker the record the controller read: workers that read
    it themselves could collect in different orders if another run wrote it in
    between, and xdist refuses workers whose collections differ."""
    node.workerinput[FILE_SECONDS] = _file_seconds(node.config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the files longest first by ``FILE_SECONDS`` (a stable sort: a
    file's tests keep their order)."""
    worker = getattr(config, "workerinput", None)
    seconds = worker.get(FILE_SECONDS, {}) if worker is not None else _file_seconds(config)
    if seconds:
        items.sort(key=lambda item: -float(seconds.get(item.nodeid.partition("::")[0], 0.0)))


_RUN_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    file = report.nodeid.partition("::")[0]
    _RUN_SECONDS[file] = _RUN_SECONDS.get(file, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Record this run's file times (the controller of an xdist run sees every
    worker's reports; a worker records nothing)."""
    cache = getattr(session.config, "cache", None)
    if cache is None or hasattr(session.config, "workerinput") or not _RUN_SECONDS:
        return
    cache.set(FILE_SECONDS, {**_file_seconds(session.config), **{f: round(s, 2) for f, s in _RUN_SECONDS.items()}})


@pytest.fixture
def ctx() -> Context:
    """A fresh context with the builtin and ``cuda_tile`` dialects."""
    return make_context()


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let a test register passes without leaking them into other tests."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    yield


@pytest.fixture(scope="session")
def cubin_cache() -> Path:
    """The suite's one cubin cache: every test that builds cubins of shared kernels
    (the examples, the Tile IR kernels) builds them here, so each is built once.

    Kept between runs (``build/test-cubins``, or ``$SAFETILE_TEST_CUBIN_CACHE``):
    the cache is content-addressed (bytecode, options and toolchain make the
    key), so a hit is exactly the cubin ``tileiras`` would build again."""
    folder = Path(os.environ.get(CUBIN_CACHE_ENV) or REPO_ROOT / "build" / "test-cubins")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def young_heap() -> None:
    """Let a test's ``gc.collect()`` look only at the objects the test made:
    the objects alive when it starts are frozen (``freeze_the_heap``), so a
    collection inside the test finds its own garbage (cycles among objects it
    made) at the cost of those objects alone."""
    freeze_the_heap()
