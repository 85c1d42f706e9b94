"""Waiting for the detached SessionEnd worker, which outlives the hook on purpose (Linux)."""

from __future__ import annotations

import os
import time
from pathlib import Path

HOME_ENV = "ARTIBOT_MEMORY_HOME"


def wait_for_workers(home: Path, timeout: float = 120.0) -> None:
    """Wait until no process started for ``home`` runs (the detached SessionEnd worker).

    The worker outlives the hook on purpose; a test must not look at (or delete) the
    home while it still writes. Its environment names the home, so /proc finds it.
    """
    marker = f"{HOME_ENV}={home}\0".encode()
    deadline = time.monotonic() + timeout
    while any(marker in environ_of(pid) for pid in os.listdir("/proc") if pid.isdigit()):
        assert time.monotonic() < deadline, "a worker is still running"
        time.sleep(0.05)


def environ_of(pid: str) -> bytes:
    try:
        return Path("/proc", pid, "environ").read_bytes()
    except OSError:
        return b""
