"""Errors of the host runtime (ownership and launch refusals)."""

from __future__ import annotations


class RuntimeModelError(Exception):
    """Base of the runtime's errors."""


class OwnershipError(RuntimeModelError):
    """A tensor handle was used while (or after) something else owns it: it
    was moved into a partition, a ``DeviceOp`` or a shared handle."""


class LaunchRefused(RuntimeModelError):
    """A launch was refused before anything ran (overlapping outputs,
    mismatched grids, a failed launch check, a bad argument).  Every tensor
    keeps its data and stays usable."""


class DeviceOpError(RuntimeModelError):
    """A ``DeviceOp`` was driven twice, or its work failed."""
