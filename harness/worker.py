"""A persistent worker process per pytest process: a crash or hang inside a frontend
becomes a finding, not a dead test session.

The worker imports torch and the frontends once and then runs case after case. When
it dies (segfault, abort, ``os._exit``) the case is a ``crash`` with the signal; when
it does not answer within the time limit it is killed and the case is a ``hang``.
Either way a fresh worker starts for the next case.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import traceback
import weakref
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from .backends.base import HarnessError
from .config import Config
from .registry import BUILTIN_BACKENDS, load_backend, preload_for
from .runner import execute
from .signature import Outcome, Stage
from .subjects import Subject, kind_of, subject_from_json, subject_to_json
from .verdict import Verdict

__all__ = ["Worker"]


def _quiet(log_path: str | None) -> None:
    """Send the frontends' C++ chatter to a log file instead of the test output."""
    if log_path is None:
        return
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)


def _serve(conn: Connection, log_path: str | None, config: Config | None) -> None:
    import logging
    import warnings

    import torch

    _quiet(log_path)
    # Ctrl-C and SIGTERM reach the whole process group: the pytest process decides what
    # to do with the case in flight; this one ends when its pipe closes.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    # One thread per worker: the suite runs one case per core (pytest -n), and the
    # models are tiny, so intra-op threads (torch, OpenMP, TVM's spinning pool) only
    # fight the other workers for the cores.
    torch.set_num_threads(1)
    os.environ.setdefault("TVM_NUM_THREADS", "1")
    conn.send(("ready", None))  # torch is imported: from here on, time counts against cases
    while True:
        request = conn.recv()
        if request is None:
            return
        backend_spec, case_json, options = request
        try:
            verdict = execute(load_backend(backend_spec, config), subject_from_json(case_json), options)
            conn.send(("verdict", verdict.to_dict()))
        except BaseException as exc:  # a harness bug: reported as such, never as a finding
            conn.send(("harness-error", f"{exc!r}\n{traceback.format_exc()}"))


#: What the fork server imports before it forks a worker, whatever the backends; each
#: backend adds its own (``Backend.preload``: checked to start no thread, as these: a
#: fork copies one thread; ONNX Runtime and OpenVINO start threads when imported, so each
#: worker imports them itself). Each is an import every worker would otherwise repeat:
#: torch.testing.assert_close imports torch.distributed.tensor on first use, and every
#: frontend but tvm-fx goes through dynamo. A name not installed is skipped by the server.
FORK_SERVER_PRELOAD = ["torch", "torch.distributed.tensor", "torch._dynamo", "torch.export", "strategies",
                       "harness.runner"]


def _context(backends: Sequence[str] | None) -> multiprocessing.context.BaseContext:
    """Workers fork from a server that has imported torch and the thread-free frontends of
    ``backends`` (None: every built-in one) once: a fresh worker after a crash starts its
    next case in a fraction of a second instead of importing them again (a crash being
    shrunk restarts it once per attempt). A run of one backend does not pay for the others'
    imports (TVM's frontend takes 3 s). The first worker of a process starts its server:
    later ones fork from that, and import what it lacks themselves."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(FORK_SERVER_PRELOAD + preload_for(BUILTIN_BACKENDS if backends is None else backends))
    return context


#: Every worker with a live process: killed at interpreter exit (see ``_kill_at_exit``).
_LIVE: weakref.WeakSet[Worker] = weakref.WeakSet()


@atexit.register
def _kill_at_exit() -> None:
    """Kill the workers a process leaves running (a Ctrl-C between cases, a script that
    never closed one). Registered after multiprocessing's own exit hook, so it runs first:
    that hook joins daemonic children after a SIGTERM the worker ignores, and would
    wait forever."""
    for worker in list(_LIVE):
        worker._stop(kill=True)


#: Exit codes of a process killed by a memory fault (heap corruption shows as SIGABRT).
_CORRUPTION_SIGNALS = {-signal.SIGSEGV, -signal.SIGABRT, -signal.SIGBUS}


class Worker:
    """Runs cases in a child process; restarts it after a crash or hang."""

    #: Seconds a fresh worker may take to import torch before the first case.
    startup_timeout = 300.0

    def __init__(self, *, timeout: float = 120.0, log_path: str | None = None,
                 max_rss_growth: int = 1 << 30, config: Config | None = None,
                 backends: Sequence[str] | None = None) -> None:
        self.timeout = timeout
        #: The backends it will run, whose imports its fork server makes once (None: all).
        self.backends = tuple(backends) if backends is not None else None
        self.log_path = log_path
        #: The run's settings, handed to the adapters in the worker process.
        self.config = config
        #: A worker whose memory grew this much past its size after its first case is
        #: replaced before the next one: a leaking frontend cannot exhaust the machine.
        self.max_rss_growth = max_rss_growth
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._rss_after_first_case = 0
        self._cases_in_process = 0
        self.restarts = 0
        self.recycled = 0
        #: Deaths by a memory fault in a worker that had run other cases: the case was run
        #: again in a fresh one, whose verdict counts (see ``run``).
        self.deaths_retried = 0

    def start(self) -> None:
        """Start the process now (it starts on the first case otherwise)."""
        if self._process is None:
            self._start()

    def _start(self) -> None:
        context = _context(self.backends)
        parent, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, self.log_path, self.config), daemon=True)
        self._process.start()
        _LIVE.add(self)
        child.close()
        self._conn = parent
        try:
            ready = parent.poll(self.startup_timeout) and parent.recv() == ("ready", None)
        except (EOFError, ConnectionResetError):
            ready = False
        if not ready:
            self._stop(kill=True)
            raise HarnessError(f"the worker process did not start within {self.startup_timeout:.0f} s "
                               f"(log: {self.log_path})")

    def _stop(self, *, kill: bool) -> None:
        if self._process is None:
            return
        if kill:
            self._process.kill()
        else:
            try:
                self._conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._conn.close()
        self._process = self._conn = None
        self._rss_after_first_case = 0
        self._cases_in_process = 0

    def close(self) -> None:
        self._stop(kill=False)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def rss_bytes(self) -> int:
        """The worker process's resident memory now (Linux), 0 when none is running."""
        if self.pid is None:
            return 0
        with open(f"/proc/{self.pid}/status") as status:
            kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return kib * 1024

    def run(self, backend_spec: str, case: Subject, options: dict[str, Any], *, timeout: float | None = None) -> Verdict:
        if self._process is None:
            self._start()
        assert self._conn is not None and self._process is not None
        limit = self.timeout if timeout is None else timeout
        ran_before = self._cases_in_process > 0
        self._cases_in_process += 1
        self._conn.send((backend_spec, subject_to_json(case), options))
        try:
            answered = self._conn.poll(limit)
            message = self._conn.recv() if answered else None
        except (EOFError, ConnectionResetError):
            answered, message = True, None
        if not answered:
            self._stop(kill=True)
            self.restarts += 1
            return Verdict(backend=load_backend(backend_spec, self.config).name, outcome=Outcome.HANG, stage=Stage.COMPILE_OR_RUN,
                           error_type="Timeout", message=f"no answer within {limit:.0f} s",
                           trigger=kind_of(case).trigger(case))
        if message is None:  # the worker died mid-case
            self._process.join(timeout=10)
            code = self._process.exitcode
            self._stop(kill=True)
            self.restarts += 1
            if ran_before and code in _CORRUPTION_SIGNALS:
                # A case that corrupts the heap without dying (a kernel writing out of
                # bounds) can kill the worker in the next case: a death by a memory
                # fault is the case's own only if it dies in a fresh process too. (A
                # SIGKILL is the OOM killer's or a person's: it counts as it came.)
                self.deaths_retried += 1
                return self.run(backend_spec, case, options, timeout=timeout)
            how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
            return Verdict(backend=load_backend(backend_spec, self.config).name, outcome=Outcome.CRASH, stage=Stage.COMPILE_OR_RUN,
                           error_type="WorkerDied", message=f"the worker process died: {how}",
                           trigger=kind_of(case).trigger(case))
        kind, payload = message
        if kind == "harness-error":
            raise HarnessError(f"the harness failed inside the worker: {payload}")
        self._recycle_if_grown()
        return Verdict.from_dict(payload)

    def _recycle_if_grown(self) -> None:
        rss = self.rss_bytes()
        if not self._rss_after_first_case:
            self._rss_after_first_case = rss
        elif rss - self._rss_after_first_case > self.max_rss_growth:
            self._stop(kill=False)
            self.recycled += 1
