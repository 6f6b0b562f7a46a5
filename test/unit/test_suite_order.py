"""The suite hands its files out longest first (conftest ``FILE_SECONDS``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import conftest


class _Cache:
    def __init__(self, stored: dict[str, Any]):
        self.stored = stored

    def get(self, key: str, default: object) -> object:
        return self.stored.get(key, default)

    def set(self, key: str, value: object) -> None:
        self.stored[key] = value


def _items(*ids: str) -> list[Any]:
    return [SimpleNamespace(nodeid=i) for i in ids]


def test_files_are_ordered_longest_first_and_keep_their_tests_order() -> None:
    seconds = {"a.py": 1.0, "b.py": 9.0, "c.py": 4.0}
    config: Any = SimpleNamespace(cache=_Cache({conftest.FILE_SECONDS: seconds}))
    items = _items("a.py::t1", "a.py::t2", "b.py::t", "c.py::t2", "c.py::t1", "new.py::t")
    conftest.pytest_collection_modifyitems(config, items)
    assert [i.nodeid for i in items] == ["b.py::t", "c.py::t2", "c.py::t1", "a.py::t1", "a.py::t2", "new.py::t"]


def test_a_worker_orders_by_the_record_its_controller_read() -> None:
    controller: Any = SimpleNamespace(config=SimpleNamespace(cache=_Cache({conftest.FILE_SECONDS: {"a.py": 2.0}})),
                                      workerinput={})
    conftest.pytest_configure_node(controller)
    worker: Any = SimpleNamespace(cache=_Cache({conftest.FILE_SECONDS: {"b.py": 5.0}}),
                                  workerinput=controller.workerinput)
    items = _items("b.py::t", "a.py::t")
    conftest.pytest_collection_modifyitems(worker, items)
    assert [i.nodeid for i in items] == ["a.py::t", "b.py::t"]


def test_without_a_record_the_order_is_left_alone() -> None:
    for config in (SimpleNamespace(cache=None), SimpleNamespace(cache=_Cache({conftest.FILE_SECONDS: "junk"}))):
        items = _items("b.py::t", "a.py::t")
        conftest.pytest_collection_modifyitems(config, items)  # type: ignore[arg-type]
        assert [i.nodeid for i in items] == ["b.py::t", "a.py::t"]


def test_the_controller_records_the_runs_file_times_over_the_earlier_ones(monkeypatch: Any) -> None:
    cache = _Cache({conftest.FILE_SECONDS: {"old.py": 3.0, "a.py": 8.0}})
    session: Any = SimpleNamespace(config=SimpleNamespace(cache=cache))
    monkeypatch.setattr(conftest, "_RUN_SECONDS", {})
    for nodeid, duration in (("a.py::t1", 0.5), ("a.py::t1", 1.25), ("b.py::t", 2.0)):
        conftest.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=duration))  # type: ignore[arg-type]
    conftest.pytest_sessionfinish(session)
    assert cache.stored[conftest.FILE_SECONDS] == {"old.py": 3.0, "a.py": 1.75, "b.py": 2.0}
    worker: Any = SimpleNamespace(config=SimpleNamespace(cache=_Cache({}), workerinput={}))
    conftest.pytest_sessionfinish(worker)
    assert worker.config.cache.stored == {}
