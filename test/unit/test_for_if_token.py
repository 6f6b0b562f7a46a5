"""test/gpu/for_if_token.py's run mode without a GPU: a stand-in driver "runs"
the reproducer in numpy (``z = x * 2**n - 1``; the cubin named ``racy``
doubles the first warp of tile 0 once more, as 13.4.92 was seen to), so the
launches, the counting and the report are checked before a GPU run."""

from __future__ import annotations

import ctypes
import hashlib
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from support import REPO_ROOT

pytest.importorskip("cuda.bindings", reason="cubin_launch.py needs cuda-python")
sys.path.insert(0, str(REPO_ROOT / "test" / "gpu"))
import cubin_launch  # noqa: E402
import for_if_token as script  # noqa: E402

WARP = 32
RACY = b"\x7fELF racy"
SOUND = b"\x7fELF sound"


class StandInDriver:
    """The driver calls cubin_launch and the script make; memory is host memory."""

    CUresult = SimpleNamespace(CUDA_SUCCESS=0)
    CUdevice_attribute = SimpleNamespace(
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR=75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR=76
    )
    CUstream = int

    def __init__(self) -> None:
        self.buffers: dict[int, ctypes.Array[ctypes.c_char]] = {}
        self.modules: dict[int, bytes] = {}
        self.launches = 0

    def ok(self, *values: Any) -> tuple[Any, ...]:
        return (0, *values)

    def cuInit(self, flags: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok()

    def cuDeviceGet(self, ordinal: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok(ordinal)

    def cuDevicePrimaryCtxRetain(self, dev: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok(1)

    def cuDevicePrimaryCtxRelease(self, dev: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok()

    def cuCtxSetCurrent(self, ctx: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok()

    def cuCtxSynchronize(self) -> tuple[Any, ...]:  # noqa: N802
        return self.ok()

    def cuDeviceGetName(self, length: int, dev: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok(b"Stand-in\0")

    def cuDeviceGetAttribute(self, attribute: int, dev: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok(9 if attribute == 75 else 0)

    def cuDriverGetVersion(self) -> tuple[Any, ...]:  # noqa: N802
        return self.ok(13000)

    def cuModuleLoadData(self, image: int) -> tuple[Any, ...]:  # noqa: N802
        handle = len(self.modules) + 1
        self.modules[handle] = ctypes.string_at(image, len(RACY))
        return self.ok(handle)

    def cuModuleGetFunction(self, module: int, symbol: bytes) -> tuple[Any, ...]:  # noqa: N802
        assert symbol == b"v"
        return self.ok(module)

    def cuModuleUnload(self, module: int) -> tuple[Any, ...]:  # noqa: N802
        return self.ok()

    def cuMemAlloc(self, nbytes: int) -> tuple[Any, ...]:  # noqa: N802
        buffer = ctypes.create_string_buffer(nbytes)
        self.buffers[ctypes.addressof(buffer)] = buffer
        return self.ok(ctypes.addressof(buffer))

    def cuMemFree(self, address: int) -> tuple[Any, ...]:  # noqa: N802
        del self.buffers[address]
        return self.ok()

    def cuMemcpyHtoD(self, dst: int, src: int, nbytes: int) -> tuple[Any, ...]:  # noqa: N802
        ctypes.memmove(dst, src, nbytes)
        return self.ok()

    cuMemcpyDtoH = cuMemcpyHtoD  # noqa: N815

    def cuLaunchKernel(self, function: int, gx: int, gy: int, gz: int,  # noqa: N802
                       bx: int, by: int, bz: int,
                       shared: int, stream: int, params: int, extra: int) -> tuple[Any, ...]:
        assert (gx, gy, gz, bx, by, bz) == (script.GRID, 1, 1, 1, 1, 1)
        values = (ctypes.c_uint64 * len(script.PARAMS)).from_address(params)
        arg = dict(zip(script.PARAMS, values, strict=True))
        size = ctypes.c_int32.from_address(arg["z_shape0"]).value
        n = ctypes.c_int32.from_address(arg["n"]).value
        z, x = (np.ctypeslib.as_array((ctypes.c_float * size).from_address(
            ctypes.c_uint64.from_address(arg[name]).value)) for name in ("z", "x"))
        z[:] = x * np.float32(2.0**n) - np.float32(1.0)
        if self.modules[function] == RACY:
            z[:WARP] = x[:WARP] * np.float32(2.0 ** (n + 1)) - np.float32(1.0)
        self.launches += 1
        return self.ok()


def cubins(folder: Path) -> None:
    """A manifest of two stand-in cubins, as ``build`` writes one."""
    kernels = {}
    for name, image in (("racy", RACY), ("sound", SOUND)):
        (folder / f"{name}.cubin").write_bytes(image)
        kernels[name] = {
            "symbol": "v",
            "tileiras": name,
            "cubin": f"{name}.cubin",
            "cubin_sha256": hashlib.sha256(image).hexdigest(),
            "params": script.expected_params(),
            "scalars": script.SCALARS,
            "outputs": ["z"],
            "grid": [script.GRID, 1, 1],
            "block": [1, 1, 1],
        }
    (folder / script.MANIFEST).write_text(json.dumps({"format": 1, "kernels": kernels}))


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> StandInDriver:
    fake = StandInDriver()
    import cuda.bindings

    monkeypatch.setattr(cubin_launch, "driver", fake)
    monkeypatch.setattr(cuda.bindings, "driver", fake)
    return fake


@pytest.mark.parametrize("n", [1, 2])
def test_run_counts_the_elements_stored_twice(
    stand_in: StandInDriver, tmp_path: Path, capsys: pytest.CaptureFixture[str], n: int
) -> None:
    cubins(tmp_path)
    status = script.main(["run", str(tmp_path), str(tmp_path / "out"), "--launches", "3", "--n", str(n)])
    assert status == 0 and stand_in.launches == 2 * 3 * (1 + cubin_launch.TIMED_LAUNCHES)  # each timed too
    report = json.loads((tmp_path / "out" / script.RESULT).read_text())
    assert (report["launches"], report["n"], report["device"]) == (3, n, "Stand-in (sm_90)")
    racy, sound = report["cubins"]["racy"], report["cubins"]["sound"]
    assert racy["wrong_per_launch"] == [WARP] * 3 and racy["launches_with_wrong"] == 3
    assert (racy["doubled_once_more"], racy["never_written"], racy["other"]) == (3 * WARP, 0, 0)
    assert racy["wrong_by_position"] == [3] * WARP + [0] * (script.TILE - WARP)
    assert sound["wrong"] == 0 and sound["launches_with_wrong"] == 0
    out = capsys.readouterr().out
    assert f"racy: wrong in 3/3 launches, {3 * WARP} elements" in out
    assert "sound: wrong in 0/3 launches, 0 elements" in out


def test_an_altered_cubin_is_refused(
    stand_in: StandInDriver, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cubins(tmp_path)
    (tmp_path / "sound.cubin").write_bytes(SOUND + b"!")
    assert script.main(["run", str(tmp_path), str(tmp_path / "out")]) == 1
    assert "sound.cubin does not match its manifest" in capsys.readouterr().err
    assert stand_in.launches == 0


def test_tally_tells_the_kinds_apart() -> None:
    x = np.full(2 * script.TILE, 1.5, np.float32)
    z = x * 2 - 1
    z[0], z[1], z[script.TILE + 1] = 5.0, 0.0, 7.0  # doubled once more, never written, other
    counts = script.tally(z, x, 1)
    assert {k: counts[k] for k in ("wrong", "doubled_once_more", "never_written", "other")} == {
        "wrong": 3, "doubled_once_more": 1, "never_written": 1, "other": 1}
    assert list(counts["by_position"][:3]) == [1, 2, 0]
