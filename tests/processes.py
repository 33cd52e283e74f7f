"""Running the conformance suite in a child process, for the tests of whole runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_suite(*args: str, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    """``pytest suites/test_conformance.py ARGS`` with ``env`` added to the environment."""
    return subprocess.run([sys.executable, "-m", "pytest", "suites/test_conformance.py::test_outputs_round_trip", "-q",
                           "-p", "no:cacheprovider", *args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=timeout)


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_run(args: list[str], **kwargs: Any) -> subprocess.Popen:
    """``Popen`` with SIGINT at its default, so that Python turns Ctrl-C into
    KeyboardInterrupt. A CI runner may start the tests with SIGINT ignored (a
    background job of a non-interactive shell); a child inherits that, and then a
    Ctrl-C test would find a run that never stops."""
    return subprocess.Popen(args, preexec_fn=_sigint_default, **kwargs)
