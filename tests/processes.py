"""Starting a run the way a terminal does, for the tests that interrupt one."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_run(args: list[str], **kwargs: Any) -> subprocess.Popen:
    """``Popen`` with SIGINT at its default, so that Python turns Ctrl-C into
    KeyboardInterrupt. A CI runner may start the tests with SIGINT ignored (a
    background job of a non-interactive shell); a child inherits that, and then a
    Ctrl-C test would find a run that never stops."""
    return subprocess.Popen(args, preexec_fn=_sigint_default, **kwargs)
