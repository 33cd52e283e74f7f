"""What a run learns to draw less, as it goes: the features of cases a row keeps explaining.

A case a frontend rejects cleanly, or one that meets a bug already on file, is a case not
compared. The learner here watches each backend's verdicts in a run and, every
``CHECK_EVERY`` cases, moves to the run's steer (``strategies.Steer``) the features that
explain a row's verdicts by themselves (``learn``): a container kind, an op, an op on a
first operand of one dtype, an op on operands of two dtypes, an output with no tensor or
one tensor returned twice (``strategies.features.case_features``: a known bug's cause is
often a structure, not an op). The steer then draws them only in its
free share (``strategies.steering.FREE_ONE_IN``), so the rest of the run is spent where
the frontend converts and the bugs are not on file yet, and the free share still shows
each rejection and each known bug (and an upstream fix).

A feature is demoted when every case of the run holding it was explained by one row, at
least ``MIN_CASES[kind]`` of them: two clean rejections, three known bugs ("a few"); a
shape (a container kind, an output shape), when every case holding it that no
demoted feature explains was explained by some row, twice as many (it is put down to the
row of most). A feature seen where outputs were compared (a pass, a mismatch no row
names) stays, and so does a row whose verdicts share no such feature; a demoted feature
the free share brings to the judge is drawn freely again (a lesson of a few cases can be
wrong, and an upstream fix shows so).

A clean rejection that names the op it refused ("Unsupported function types
['logcumsumexp.default']", "conversion of operation scaled_dot_product_attention"), or a
call the op's code or its harvested graph makes, demotes that op at once (``named_ops``):
the frontend said which, and the long tail of ops a frontend never converts, each met a
few times in a run, would otherwise cost two cases apiece.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from strategies import OPS, Case, Steer
from strategies.features import DTYPE_CLASSES, case_features, operand_dtypes
from strategies.ops import TensorType, render_op
from strategies.render import program_types

from .known import Known
from .signature import Outcome
from .subjects import kind_of
from .verdict import Verdict

__all__ = ["CHECK_EVERY", "MIN_CASES", "Learner", "case_features", "learn", "named_ops"]

#: The features of a case's shape rather than its ops (``Learner.observe``).
SHAPES = ("container:", "output:")
#: Cases between two lessons: ``learn`` reads every record so far.
CHECK_EVERY = 10
#: Verdicts of one row a feature must explain before it is demoted, by the row's kind.
MIN_CASES = {"unsupported": 2, "bug": 3, "documented": 3}


def learn(records: list[tuple[frozenset[str], str | None]],
          min_cases: int | Callable[[str], int] = 2, *, one_row: bool = True) -> dict[str, dict[str, Any]]:
    """feature -> {"row", "cases"} from (features of a case, the row that explained it, or
    None for any other verdict): features chosen greedily, the one that explains the most
    not-yet-explained cases first (coarser before finer: an op before the op on one
    dtype), each explaining at least ``min_cases`` (of its row) cases and met in no case no
    row explained. With ``one_row`` (calibration), all its cases are of one row; without
    (a run's steer, whose free share keeps every row in sight), its cases may be of
    several, and it is put down to the row of most of them: a dict output that one
    frontend crashes on, or rejects when an op before it is unsupported, is spent either
    way."""
    need = min_cases if callable(min_cases) else lambda row: min_cases
    tainted = {f for features, row in records if row is None for f in features}
    unexplained = [(features, row) for features, row in records if row is not None]
    chosen: dict[str, dict[str, Any]] = {}
    while True:
        counts: Counter = Counter()
        rows: dict[str, Counter] = {}
        for features, row in unexplained:
            for f in features - tainted:
                counts[f] += 1
                rows.setdefault(f, Counter())[row] += 1
        main = {f: rows[f].most_common(1)[0][0] for f in counts}
        eligible = [f for f in counts if (len(rows[f]) == 1 or not one_row) and counts[f] >= need(main[f])]
        if not eligible:
            return chosen
        best = max(eligible, key=lambda f: (counts[f], -f.count("@"), f))
        chosen[best] = {"row": main[best], "cases": counts[best]}
        unexplained = [(features, row) for features, row in unexplained if best not in features]


@functools.cache
def _callable_name(op: str) -> str:
    """The name a frontend calls a generator op by: ``sample_nn_functional_x``,
    ``sample_x_`` and ``x_`` are ``x`` (``sample_nn_Conv2d`` is ``Conv2d``)."""
    return op.removeprefix("sample_").removeprefix("nn_").removeprefix("special_").rstrip("_")


def _calls(case: Case) -> dict[str, set[str]]:
    """op -> the names its code in ``case`` calls, rendered as the model's source renders
    it (``strategies.render.class_source``): what a frontend that refuses a call names,
    whatever the generator calls the op (``.long()``, an in-place form's ``.add_(``)."""
    types = program_types(case)
    found: dict[str, set[str]] = {}
    for value in case.values:
        if value.op != "input":
            code = render_op(value.op, value.operands, dict(value.attrs), tuple(types[o] for o in value.operands), "self")
            found.setdefault(value.op, set()).update(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", code))
    return found


def named_ops(case: Case, message: str, graphs: dict[str, list[frozenset[str]]] | None = None) -> set[str]:
    """The ops of ``case`` that a frontend's message names as a word of its own: the op's
    name (an overload's before its dot: ``logcumsumexp`` in ``'logcumsumexp.default'``),
    a name its code calls (``long`` in "Unsupported function target long"), or, given the
    graphs the frontend is handed (``harness.optables.calls``), a name every one of the op's
    samples calls there (``amax`` for ``logsumexp``)."""
    # Lower case: ONNX and OpenVINO name an op as their own (HardSigmoid, Reshape).
    words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", message) if len(w) > 2}
    case = case.pruned()
    code = _calls(case)
    graphs = graphs or {}

    def always_calls(op: str) -> set[str]:
        samples = graphs.get(op)
        return set(frozenset.intersection(*samples)) if samples else set()

    return {v.op for v in case.values if v.op in OPS and v.op != "input"
            and (_callable_name(v.op).lower() in words or {c.lower() for c in code.get(v.op, set())} & words
                 or {c.lower() for c in always_calls(v.op)} & words)}


def _fed(case: Case, ops: set[str], tainted: set[str]) -> set[str]:
    """What each of ``ops`` was fed in ``case``, the coarsest feature of it ``tainted``
    (what reached the judge) lacks: the op on operands of two dtypes (``mixed:<op>``)
    where they differ, else the op on its first operand's dtype class, or that dtype."""
    case = case.pruned()
    types = program_types(case)
    found = set()
    for value in case.values:
        if value.op in ops and value.operands:
            if len(set(operand_dtypes(value, types))) > 1:
                candidates = [f"mixed:{value.op}"]
            elif isinstance(first := types.get(value.operands[0]), TensorType):
                candidates = [f"op:{value.op}@{c}" for c, dtypes in DTYPE_CLASSES.items() if first.dtype in dtypes]
                candidates.append(f"op:{value.op}@{first.dtype}")
            else:
                continue
            found |= {next((f for f in candidates if f not in tainted), candidates[-1])}
    return found - tainted


class Learner:
    """Feeds one backend's verdicts in a run to its steer."""

    def __init__(self, steer: Steer, graphs: dict[str, list[frozenset[str]]] | None = None) -> None:
        self.steer = steer
        #: What each op calls in the graphs this frontend is handed (``named_ops``).
        self.graphs = graphs
        self.records: list[tuple[frozenset[str], str | None]] = []
        self.kinds: dict[str, str] = {}
        #: Cases each row explained so far, and the features of every judged case.
        self.met: Counter = Counter()
        self.tainted: set[str] = set()

    def observe(self, case: Any, known: Known | None, verdict: Verdict) -> None:
        """One case, its verdict and the row that explained it (None: none did). A case
        that passed, or whose mismatch no row explains, taints its features: they reach
        the judge. A new crash or hang no row explains says nothing either way of the
        features beside its cause, and is not learned from."""
        if not kind_of(case).generated:  # a user's model, an architecture: no generator features
            return
        judged = verdict.outcome in (Outcome.PASS, Outcome.MISMATCH)
        if known is None and not judged:
            return
        features = frozenset(case_features(case))
        if known is None:
            # Judged: a demoted feature the free share drew reached the judge (it is tainted
            # from now on and never demoted again).
            self.steer.restore(features & self.steer.demoted.keys())
            self.tainted |= features
        else:
            self.kinds[known.id] = known.kind
            named = named_ops(case, verdict.message, self.graphs) if verdict.message else set()
            if known.kind == "unsupported":
                # The op, unless it reached the judge in this run: then what this case fed
                # it (a kernel missing for one dtype is not a converter missing).
                whole = {f"op:{op}" for op in named if f"op:{op}" not in self.tainted}
                fed = _fed(case, {op for op in named if f"op:{op}" in self.tainted}, self.tainted)
                self.steer.demote({f: {"row": known.id, "cases": 1} for f in whole | fed if f not in self.steer.demoted})
            elif self.met[known.id] >= MIN_CASES.get(known.kind, 3):
                # A bug row met a few times already: the op its verdict names (in the
                # message, or the differing leaf's), on what this case fed it, at once. A
                # row of a class (a unary float op of an integer, any binary op of two
                # dtypes) otherwise costs a few cases per op and dtype.
                named |= {v.op for v in case.pruned().values if v.op in verdict.trigger.ops}
                self.steer.demote({f: {"row": known.id, "cases": 1} for f in _fed(case, named, self.tainted)
                                   if f not in self.steer.demoted})
            self.met[known.id] += 1
        self.records.append((features, known.id if known is not None else None))
        if len(self.records) % CHECK_EVERY == 0:
            # Cases a demoted feature explains are accounted for: what is left is learned from.
            left = [(f, row) for f, row in self.records if row is None or not f & self.steer.demoted.keys()]
            need = lambda row: MIN_CASES.get(self.kinds.get(row, ""), 3)  # noqa: E731
            # Every feature is first put down to one row only (an op met beside a cause it
            # is not); a dtype class only where a row names its op (below), since a class
            # met beside a cause it is not costs every dtype of it. A shape (a container
            # kind, an output shape) is then put down to the row of most of the cases
            # left, if it holds twice as many: an output one frontend crashes on, or
            # rejects, is spent either way (a tuple blamed for the dict inside it comes
            # back with the free share's first pass).
            learned = learn([(frozenset(x for x in f if x.partition("@")[2] not in DTYPE_CLASSES), row)
                             for f, row in left], need)
            rest = [(frozenset(x for x in f if x.startswith(SHAPES)), row) for f, row in left
                    if row is None or not f & learned.keys()]
            learned |= learn(rest, lambda row: 2 * need(row), one_row=False)
            self.steer.demote(learned)
