"""Re-running an entry's reproducer standalone, as a maintainer would, and saying whether
the recorded bug still shows: ``python -m reports.corpus verify``, the audit, the issue.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.registry import load_backend
from harness.signature import Signature
from harness.versions import cpu_flags

from .entries import Entry

__all__ = ["HANG_REPLAY_SECONDS", "Run", "cpu_reason", "expected_error", "last_error", "run_reproducer"]


def cpu_reason(meta: dict[str, Any], cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """Why an entry's bug cannot show on this CPU (a kernel only some instruction sets
    take, meta ``cpu_flags``; one they replace, ``cpu_flags_absent``), or empty where it can
    or the CPU cannot be read."""
    wanted = meta.get("cpu_flags") or []
    flags = cpu_flags(cpuinfo)
    if flags is None:
        return ""
    missing = [f for f in wanted if f not in flags]
    if missing:
        return f"reproduces only on CPUs with {', '.join(wanted)}; this one lacks {', '.join(missing)}"
    # A kernel the instruction set replaces (OpenVINO's bf16 path on AVX512-BF16): meta ``cpu_flags_absent``.
    present = [f for f in meta.get("cpu_flags_absent") or [] if f in flags]
    return f"reproduces only on CPUs without {', '.join(present)}; this one has it" if present else ""


@dataclass(frozen=True)
class Run:
    """One run of an entry's ``repro.py``: what it printed and what that means."""

    verdict: str  # "reproduces" | "gone" | "broken" | "skipped"
    returncode: int | None
    output: str
    why: str = ""


#: Seconds a recorded hang is given to answer when its case is replayed
#: (suites/test_corpus.py) or its reproducer run: the case is a few ops and, once fixed,
#: answers within seconds; the whole case timeout (minutes) would make each hang the
#: slowest entry to check.
HANG_REPLAY_SECONDS = 30.0


def run_reproducer(entry: Entry, timeout: float = 600) -> Run:
    """Run ``repro.py`` standalone and say whether the recorded bug reproduces: the same
    error (crash), the failed comparison (mismatch), the same signal (a native crash),
    or no end (hang, within ``HANG_REPLAY_SECONDS``). Any other error is a broken reproducer."""

    reason = load_backend(entry.meta["backend"]).unavailable_reason() or cpu_reason(entry.meta)
    if reason:
        return Run("skipped", None, "", reason)
    hang = entry.meta["outcome"] == "hang"
    limit = min(timeout, HANG_REPLAY_SECONDS) if hang else timeout
    # Its own session: a reproducer runs the frontend in a child of its own, which a
    # timeout must end too.
    with subprocess.Popen([sys.executable, "repro.py"], cwd=entry.path, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as done:
        try:
            stdout, stderr = done.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(done.pid, signal.SIGKILL)
            stdout, _ = done.communicate()
            return Run("reproduces" if hang else "broken", None, _quiet(stdout), f"no end within {limit:.0f} s")
    output = _quiet(stdout + stderr)
    if done.returncode == 0:
        return Run("gone", 0, output, "ran to the end: no error, no difference")
    expected = expected_error(entry.meta)
    last = last_error(output)
    ended = re.search(r"the frontend's process ended with (SIG\w+)", output)  # see reproducer._IN_A_CHILD
    if ended or done.returncode < 0:
        name = ended.group(1) if ended else signal.Signals(-done.returncode).name
        ok = f"signal {name}" in entry.meta.get("message", "")
        return Run("reproduces" if ok else "broken", done.returncode, output, f"died of signal {name}")
    if entry.meta["outcome"] == "hang":
        ok = "TimeoutExpired" in output
        return Run("reproduces" if ok else "broken", done.returncode, output, last_error(output))
    if entry.meta["outcome"] == "mismatch":
        ok = last.startswith("AssertionError")
    else:
        ok = bool(expected) and expected in output  # a long message (every overload tried) pushes it far up
    return Run("reproduces" if ok else "broken", done.returncode, output,
               last if ok else f"expected {expected or 'a failed comparison'}, got {last or 'no error'}")


def _quiet(output: str) -> str:
    """Without TVM's per-build warnings, which say nothing about the bug."""
    return "\n".join(line for line in output.splitlines()
                     if not re.search(r"Warning: (BlockBuilder destroyed|Fast mode segfaults)", line)) + "\n"


def expected_error(meta: dict[str, Any]) -> str:
    """The error type a crash entry recorded (``backend/stage/crash/Type: ...``)."""
    signature = Signature.from_text(meta["signature"])
    return signature.raised if signature.difference is None and signature.said is not None else ""


def last_error(output: str) -> str:
    """The last ``module.Type: message`` line of a traceback, as ``Type: message``."""
    found = ""
    for line in output.splitlines():
        match = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Failure|Failed|Interrupt))\b(.*)$", line)
        if match:
            found = match.group(1).rsplit(".", 1)[-1] + match.group(2)
    return found
