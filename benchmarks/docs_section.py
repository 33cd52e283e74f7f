"""Each benchmark writes its own section of ``docs/benchmarks.md`` (``--write-docs``).

A section sits between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``; writing it
replaces only that part of the file, so that one benchmark (or one part of
``bench_suite.py``) can be measured again without touching the others. Every section is
stamped with what a reader needs to trust or redo it: the exact command, the commit
(``+dirty`` when tracked files differ from it), the date, the machine and the versions,
and how long it took. ``scripts/lint_docs.py`` checks that every section carries a stamp
and that its commit exists.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DOCS", "Measurement", "capture", "replace_section", "stamp"]

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
#: New sections go just above this line (or at the end of the file when it is missing).
ANCHOR = "<!-- new sections go above this line -->"


class _Tee(io.TextIOBase):
    def __init__(self, *streams: io.TextIOBase) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


@contextlib.contextmanager
def capture() -> Iterator[io.StringIO]:
    """What is printed inside the block, still printed, and kept in the yielded buffer."""
    kept = io.StringIO()
    previous = sys.stdout
    sys.stdout = _Tee(previous, kept)
    try:
        yield kept
    finally:
        sys.stdout = previous


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def commit() -> str:
    """``git rev-parse --short HEAD``, with ``+dirty`` when tracked files differ from it."""
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+dirty" if _git("status", "--porcelain", "--untracked-files=no") else "")


def _version(distribution: str) -> str:
    from harness.versions import installed

    return installed([distribution]).get(distribution, "not installed")


def machine_line() -> str:
    """Cores, load and versions, read now (at the start of a measurement)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    niceness = os.nice(0) if hasattr(os, "nice") else 0
    load = f", load average {os.getloadavg()[0]:.1f} at the start" if hasattr(os, "getloadavg") else ""
    # Inductor's and OpenVINO's kernels follow the instruction set: a figure is this CPU's.
    from harness.versions import cpu_features

    features = " ".join(cpu_features()) or "kernel features unread"
    return (f"{platform.machine()} ({features}), {os.cpu_count()} cores ({usable} usable, niceness {niceness}{load}); "
            f"Python {platform.python_version()}, torch {_version('torch')}, apache-tvm {_version('apache-tvm')}, "
            f"Hypothesis {_version('hypothesis')}")


def command(script: str, argv: list[str]) -> str:
    """The command as it was typed, from the repository root."""
    path = Path(script).resolve()
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    return shlex.join(["python", str(shown), *argv])


def stamp(script: str, argv: list[str], seconds: float, machine: str, at: str | None = None) -> str:
    """The stamp of a run of ``seconds`` at commit ``at`` (default: the checkout now)."""
    minutes, rest = divmod(round(seconds), 60)
    took = f"{minutes} min {rest} s" if minutes else f"{rest} s"
    return "\n".join([
        f"- command: `{command(script, argv)}`",
        f"- commit: `{at or commit()}`",
        f"- date: {datetime.datetime.now(datetime.UTC).date().isoformat()}",
        f"- machine: {machine}",
        f"- took: {took}",
    ])


def replace_section(text: str, name: str, section: str) -> str:
    """``text`` with the part between NAME's markers replaced by ``section`` (markers
    kept), or with the marked section added above the anchor when it has none yet."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    block = f"{begin}\n{section.strip()}\n{end}"
    found = re.search(rf"{re.escape(begin)}.*?{re.escape(end)}", text, flags=re.S)
    if found:
        return text[:found.start()] + block + text[found.end():]
    if ANCHOR in text:
        return text.replace(ANCHOR, f"{block}\n\n{ANCHOR}", 1)
    return text.rstrip("\n") + f"\n\n{block}\n"


@dataclass
class Measurement:
    """One benchmark run, started now (the machine's load is read at the start), that
    writes its sections of ``docs/benchmarks.md`` when done."""

    script: str
    argv: list[str]
    machine: str = field(default_factory=machine_line)
    start: float = field(default_factory=time.perf_counter)
    #: The code that ran: a commit made while a long run goes on is not it.
    at: str = field(default_factory=commit)

    def write(self, name: str, title: str, body: str, *, path: Path = DOCS) -> None:
        seconds = time.perf_counter() - self.start
        section = f"## {title}\n\n{stamp(self.script, self.argv, seconds, self.machine, self.at)}\n\n{body.strip()}\n"
        text = path.read_text() if path.exists() else "# Benchmarks\n"
        path.write_text(replace_section(text, name, section))
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: section {name} written", file=sys.stderr)
