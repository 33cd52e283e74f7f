"""A case's program: the values ``forward`` computes, each an op on inputs or earlier
values, drawn output-directed (mostly on the deepest value nothing reads yet) and aimed
at rare op x dtype pairs (``_program``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from . import engine
from .choices import choice, draw_stable, pick
from .drawing import choices_so_far, pad_to, spanned
from .operands import FedFamilies, Feeds, Scope, by_family, operand_candidates, operand_choices, vocabulary_of
from .ops import OPS, STRUCTURAL_FAMILIES, Type, domain_type, recorded, value_type
from .spec import Case, Input, Value
from .tensors import EVERY_DTYPE

__all__ = ["VALUE_CHOICES", "Aim", "aim_at", "chain_depth", "sinks_of"]

#: Choices each value of a program takes, padded up to (see ``_program``).
VALUE_CHOICES = 8
_VALUE_SPAN = engine.label("roundtrip span: a program's value")


def chain_depth(case: Case) -> int:
    """The most computing ops (outside ``STRUCTURAL_FAMILIES``) on one path from an input
    to a result (an output leaf, or state mutated in place); 0 for a case that computes
    nothing."""
    depth = _value_depths(case.values)
    return max((depth[i] for i in (*case.refs(), *case.mutations())), default=0)


def _value_depths(values: Sequence[Value]) -> list[int]:
    """Each value's chain depth: the most computing ops on one path to it."""
    depth: list[int] = []
    for value in values:
        before = max((depth[int(o[1:])] for o in value.operands if o.startswith("v")), default=0)
        depth.append(before + (OPS[value.op].family not in STRUCTURAL_FAMILIES))
    return depth


#: Families drawn more often than the rest (a family listed k times is k times as
#: likely): what the suite exists for are the leaves a model returns as they are
#: (inputs, parameters, views, tuple items) and the ones that are not tensors (None,
#: Python constants, shape ints; None, a family of its own), which 15 families of
#: computing ops would drown. PyTorch's own op database (``strategies.ops.opinfo`` and
#: ``strategies.ops.samples``: some 500 ops in six families, against some 190 in the other
#: twenty) is drawn in proportion to the ops it holds, so that a nightly's draws meet
#: its ops as often as the hand-written ones.
_WEIGHT = {"leaf": 3, "special": 3, "none": 2, "nonfinite": 6,
           "opinfo": 2, "opinfo_torch": 6, "opinfo_functional": 3, "opinfo_module": 3, "opinfo_math": 3}


def sinks_of(values: Sequence[Value], consumed: Collection[str]) -> tuple[int, ...]:
    """The computed values no computing op reads yet (a view or a shape int of a value
    leaves it a result), shallowest first: the last is the end of the longest chain."""
    depth = _value_depths(values)
    found = [i for i, v in enumerate(values)
             if f"v{i}" not in consumed and OPS[v.op].family not in STRUCTURAL_FAMILIES and v.pytype is None]
    return tuple(sorted(found, key=lambda i: (depth[i], i)))


class Aim(NamedTuple):
    """Coverage-directed choice (see ``cases``): the dtype a case aims at, the ops that
    may be aimed at it, and each op's first-operand dtypes left out (all but ``dtype``)."""

    dtype: str
    ops: tuple[str, ...]
    banned: dict[str, frozenset[str]]


@functools.lru_cache(maxsize=64)
def _cached_aim(ops: tuple[str, ...], banned_items: tuple, dtype: str) -> Aim:
    banned = dict(banned_items)
    others = frozenset(EVERY_DTYPE) - {dtype}
    return Aim(dtype, ops, {op: others | banned.get(op, frozenset()) for op in ops})


def aim_at(ops: tuple[str, ...], banned: dict[str, frozenset[str]], dtype: str) -> Aim:
    return _cached_aim(ops, tuple(sorted(banned.items())), dtype)



@spanned
def _program(draw: Callable, inputs: tuple[Input, ...], ops: tuple[str, ...], max_values: int,
             names: tuple[str, ...], banned: dict[str, frozenset[str]], every_op: tuple[str, ...],
             aim: Aim | None = None) -> tuple[Value, ...]:
    """A dataflow program: each value is an op on inputs or earlier values, mostly on the
    deepest computed value nothing reads yet (a chain that the output returns).

    With ``aim``, half the values apply an op drawn uniformly among ``aim.ops`` to a first
    operand of ``aim.dtype`` (the deepest sink when it has that dtype).

    Operands are drawn among ``names`` (every input name, then every value name, fixed
    for the strategy), so an operand that points at an earlier value shrinks toward
    pointing at an input, and the choices keep their meaning when a value is deleted.
    ``ops`` are the ops this case may use, among ``every_op`` of the strategy: a choice
    indexes ``every_op``, so it names the same op when the swarm lets more in.
    """
    types: dict[str, Type] = {i.name: domain_type(i.dtype, i.shape, i.domain) for i in inputs}
    every_family = tuple(dict.fromkeys(OPS[name].family for name in every_op))
    every_by_family, vocabulary = by_family(every_op), vocabulary_of(ops)
    aim_vocabulary = vocabulary_of(aim.ops) if aim else None
    families = tuple(f for f in every_family for _ in range(_WEIGHT.get(f, 1)))
    # A misaligned choice falls back to the first (see Choice). The first value puts the
    # leaves first: the simplest case returns an input as it is. After it, the computing
    # families come first: a choice out of step starts a chain, not one more input.
    # Reading a sink, every family is as likely (the weights are for the leaves).
    later_families = tuple(sorted(families, key=lambda f: f in STRUCTURAL_FAMILIES))
    focus_families = tuple(sorted(every_family, key=lambda f: f in STRUCTURAL_FAMILIES))
    values: list[Value] = []
    read: set[str] = set()
    consumed: set[str] = set()  # read by a computing op: no longer a sink
    mutated: set[str] = set()  # no longer an input as drawn
    # The length first, not a "one more" draw before each value: a case the engine
    # mutates (it copies a span of one choice over another) reads the choices after the
    # copy out of step, and a choice that does not fit becomes 0 (see Choice): a 0
    # that stopped the program would cut most mutated cases to one value. Shrinking still
    # ends at one value (the draw shrinks to 0), and an intermediate value goes away when
    # the value reading it reads an input instead (``Case.pruned`` drops it).
    length = min(max_values, 1 + draw(choice("program length", 0, 2 * max_values - 1)))
    for k in range(length):
        # Each value takes VALUE_CHOICES choices, padded: an op's attributes take more
        # or fewer, so where the shrinker puts a simpler op in a value's place, every value
        # after it would read its choices out of step and the shrink be rejected. A block of
        # fixed length keeps them in place (the rare op that draws more overruns it). The
        # block is a span: after the program's length shrinks, the shrinker deletes the
        # value it no longer draws (or any value) whole.
        with draw.span(_VALUE_SPAN):
            start = choices_so_far(draw)
            # Output-directed: 7 times in 8 the value reads the deepest sink (a computed value
            # nothing reads yet), so drawn ops chain instead of feeding nothing. 0, where the
            # draw shrinks to, is a free choice among the inputs and every earlier value.
            sinks = sinks_of(values, consumed)
            focus = f"v{sinks[-1]}" if sinks and draw(choice("read the deepest sink", 0, 7)) else None
            scope = Scope(types, frozenset(read), frozenset(mutated))
            feeds = Feeds(vocabulary, scope, banned, focus) if focus is not None else None
            if feeds is None or not feeds.any(computing=True):
                # Free, or nothing reads the sink: it stays an output candidate.
                focus, feeds = None, Feeds(vocabulary, scope, banned)
                if not feeds.any():
                    break
            # Family first, then the op: a family's chance does not grow with its number of
            # ops, so the few special leaves (None, constants) are not drowned.
            family = draw_stable(draw, "op family", focus_families if focus else later_families if k else families,
                                  FedFamilies(feeds))
            op_name = draw_stable(draw, "op", every_by_family[family], feeds)
            op_banned = banned.get(op_name, frozenset())
            # One choice in every value of an aiming case: below len(aim.ops) (and 0, where
            # it shrinks to) the value is not aimed, else it names the op aimed at.
            aimed_at = draw(choice("coverage: op aimed at, if any", 0, 2 * len(aim.ops) - 1)) - len(aim.ops) if aim else -1
            if aim and aimed_at >= 0:
                on_focus = focus if getattr(types.get(focus), "dtype", None) == aim.dtype else None
                aimed = Feeds(aim_vocabulary, scope, aim.banned, on_focus)
                if not aimed.any() and on_focus:
                    on_focus, aimed = None, Feeds(aim_vocabulary, scope, aim.banned)
                if aimed.any():
                    op_name = pick(aim.ops, aimed, aimed_at)
                    op_banned, focus = aim.banned[op_name], on_focus
            op = OPS[op_name]
            choices = operand_choices(op, scope, banned=op_banned, focus=focus if op.arity else None)
            operands = draw_stable(draw, "operands", operand_candidates(op.arity, names), choices)
            operand_types = tuple(types[n] for n in operands)
            attrs = op.draw_attrs(draw, operand_types) if op.draw_attrs else {}
            out = value_type(op_name, attrs, operand_types)
            types[f"v{k}"] = out
            read.update(operands)
            if op.family not in STRUCTURAL_FAMILIES:  # a view or a shape int of it leaves it a result
                consumed.update(operands)
            if op.mutates == "operand":
                types[operands[0]] = out  # later values read the input as mutated
                mutated.add(operands[0])
            dtype, shape, pytype = recorded(out)
            values.append(Value(op_name, operands, tuple(sorted(attrs.items())), dtype, shape, pytype))
            pad_to(draw, start, VALUE_CHOICES)
    return tuple(values)
