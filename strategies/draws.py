"""The same draws in every process, whatever else it imported, every case a fresh draw,
and no threads spinning beside a draw.

Two settings of Hypothesis's engine that no ``settings`` option reaches, and one of
torch's. The suite, its tools and its benchmarks apply all three
(``draw_as_the_suite_does``) before they draw:

* Hypothesis mixes into its draws (one in twenty) integer, float and string constants it
  harvests from every module of the project the process has imported
  (``providers._get_local_constants``). A derandomised ``ci`` run then draws other cases
  after an edit of any imported module (one more known row, a changed message), and a
  process that ran other tests first draws other cases than a fresh one. Off: a case
  depends on the strategy and the seed alone.
* The engine follows each freshly drawn case with up to six mutations of it, which copy
  one span's choices over another span of the same label
  (``ConjectureRunner.generate_mutations_from``): in a 2000-case run only about 300
  cases were drawn afresh, and the rest repeated their parent's swarm, aim and ops, so
  a nightly run met 63-69% of the op x dtype pairs the generator admits where 2000
  fresh cases meet 95% (``benchmarks/bench_coverage.py``). The generator draws its own
  repetition where it matters (an op reads the value before it; output leaves repeat
  values), so the copies bought little. Off (``fresh_draws_only``): every generated
  case is a fresh draw. Shrinking is the engine's own, unchanged.
* The generator learns a value's dtype and shape by running its op on tensors of a few
  elements (``strategies.ops.value_type``), where torch's intra-op threads have nothing
  to share and spin after each call: on 2 cores they burned about 1 ms of CPU a draw
  beside its 10 (process time over thread time), and in a ``pytest -n`` run they take
  cores from the other workers. One thread (``one_torch_thread``), as the worker that
  compiles and runs a case has (``suites/worker.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["draw_as_the_suite_does", "fresh_draws_only", "ignore_local_constants", "one_torch_thread"]


def draw_as_the_suite_does() -> None:
    """The settings the suite draws with, for the rest of the process."""
    ignore_local_constants()
    fresh_draws_only()
    one_torch_thread()


def ignore_local_constants() -> None:
    """From now on, no constants of the project's own modules in Hypothesis's draws."""
    from hypothesis.internal.conjecture import providers

    providers._get_local_constants = providers.Constants


def one_torch_thread() -> None:
    """From now on, torch computes on one thread in this process."""
    import torch

    torch.set_num_threads(1)


def fresh_draws_only() -> None:
    """From now on, no mutations of drawn cases in Hypothesis's generate phase."""
    from hypothesis.internal.conjecture.engine import ConjectureRunner

    if not callable(getattr(ConjectureRunner, "generate_mutations_from", None)):
        # A Hypothesis without the hook: say so rather than run with mutations unnoticed.
        raise RuntimeError("hypothesis.internal.conjecture.engine.ConjectureRunner has no generate_mutations_from: "
                           "strategies/draws.py must learn how this Hypothesis mutates cases")
    ConjectureRunner.generate_mutations_from = _no_mutations


def _no_mutations(self: Any, data: Any) -> None:
    """``generate_mutations_from`` that mutates nothing: the next case is drawn afresh."""
