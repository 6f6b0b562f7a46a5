"""Fixtures shared by the unit tests."""

from __future__ import annotations

import os

# The unit tests are the CPU suite (`make test`): kernels run on the
# interpreter even on a machine with a GPU; test/gpu is the GPU suite.
os.environ.setdefault("SAFETILE_BACKEND", "cpu")

from collections.abc import Iterator

import pytest
from xdsl.context import Context

from safetile.passes import registry
from support import make_context


@pytest.fixture
def ctx() -> Context:
    """A fresh context with the builtin and ``cuda_tile`` dialects."""
    return make_context()


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let a test register passes without leaking them into other tests."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    yield
