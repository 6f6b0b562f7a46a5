"""pyproject.toml lists every package of every stage folder.

The stage folders are mapped to ``safetile.<stage>`` with setuptools'
``package-dir``, which cannot discover subpackages by itself: a subpackage
missing from ``packages`` works in an editable install and vanishes from a
wheel.  This test keeps the list complete.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_subpackage_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = set()
    for package, folder in config["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join((package, *rel.parts)))
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - found == set(), "these listed packages have no folder"
