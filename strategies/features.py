"""What a case can be asked to leave out, by name: the features ``cases(exclude=...)`` and
a run's steer take, what calibration and the steer learn, and what each leaves out.

A feature is one of:

- ``container:<kind>``: the container kind (``dict``, ``plain_dict_subclass``...), or
  ``container:mapping``, every dict kind (a frontend that fails any dict output);
- ``op:<name>``: the op; ``op:<name>@<dtype>``: the op on a first operand of that dtype,
  or of a dtype of a class (``DTYPE_CLASSES``: ``op:log@integral``, a float function of
  any integer or bool tensor);
- ``mixed:<name>``: the op on tensor operands of two dtypes or more (a frontend that does
  not promote them as PyTorch does fails every binary op so, and each op also passes on
  operands of one dtype, so neither the op nor a dtype of it names the cause);
- ``output:no_tensor``: an output that holds no tensor (``return ()``, a None alone);
  ``output:empty``: one that holds no leaf at all (``return ()``, ``{"a": []}``);
- ``output:number``: a Python number or bool returned (``return x.shape[0]``, a constant);
- ``output:mutation``: state written in place (a buffer, an input), which is part of the
  result; a frontend that drops mutations drops every op that writes;
- ``output:repeated``: one tensor returned at two places (``return y, y``; an input
  returned twice, or through two values that return it as it is).

``case_features`` is what a drawn case holds; ``left_out`` reads a set of names into what
the generator leaves out of a case. Both are the one definition of the names.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from hypothesis.errors import InvalidArgument

from .ops import FLOATS, INTS, OPS, TensorType, Type
from .render import program_types
from .spec import CONTAINER_KINDS, DICT_KINDS, Case, Value
from .tensors import EVERY_DTYPE

__all__ = ["DTYPE_CLASSES", "MIXED", "NUMBERS", "OUTPUT_SHAPES", "LeftOut", "case_features", "left_out", "op_dtype_pairs",
           "operand_dtypes", "tensor_objects"]

#: What ``output:`` may name.
OUTPUT_SHAPES = ("no_tensor", "empty", "number", "mutation", "repeated")
#: Dtype classes ``op:<name>@<class>`` names: what a frontend that does not promote an
#: integer operand, or narrows a floating one, fails on whichever dtype of it.
DTYPE_CLASSES = {"integral": (*INTS, "bool"), "floating": FLOATS}
#: What an ``output:number`` leaf is (``Value.pytype``).
NUMBERS = ("int", "float", "bool")
#: In an op's banned first-operand dtypes (``LeftOut.banned``): its operands share one dtype.
MIXED = "mixed"


@dataclass(frozen=True)
class LeftOut:
    """What a set of features leaves out of a case: ops, each op's banned first-operand
    dtypes (``MIXED`` among them: operands of two dtypes), container kinds, output shapes."""

    ops: frozenset[str] = frozenset()
    banned: tuple[tuple[str, frozenset[str]], ...] = ()
    kinds: frozenset[str] = frozenset()
    outputs: frozenset[str] = frozenset()


def left_out(features: Collection[str], *, argument: str | None = "exclude") -> LeftOut:
    """``features`` read as names (module docstring); an unknown name raises
    ``InvalidArgument`` naming ``argument`` (None: it is skipped, as a steer skips what
    an older vocabulary taught it)."""
    ops: set[str] = set()
    banned: dict[str, set[str]] = {}
    kinds: set[str] = set()
    outputs: set[str] = set()
    for feature in sorted(features):
        kind, _, name = str(feature).partition(":")
        name, _, dtype = name.partition("@")
        if kind == "container" and (name in CONTAINER_KINDS or name == "mapping") and not dtype:
            kinds.update(DICT_KINDS if name == "mapping" else (name,))
        elif kind == "op" and name in OPS and name != "input" and (not dtype or dtype in EVERY_DTYPE
                                                                   or dtype in DTYPE_CLASSES):
            if dtype:
                banned.setdefault(name, set()).update(DTYPE_CLASSES.get(dtype, (dtype,)))
            else:
                ops.add(name)
        elif kind == "mixed" and name in OPS and name != "input" and not dtype:
            banned.setdefault(name, set()).add(MIXED)
        elif kind == "output" and name in OUTPUT_SHAPES and not dtype:
            outputs.add(name)
            if name == "mutation":
                ops |= {n for n, op in OPS.items() if op.mutates}
        elif argument is not None:
            raise InvalidArgument(f"{argument}={sorted(map(str, features))!r}: {feature!r} is not container:<kind>, "
                                  "op:<name>, op:<name>@<dtype>, mixed:<name> or "
                                  f"output:{'|'.join(OUTPUT_SHAPES)} (and 'input' stays)")
    return LeftOut(frozenset(ops), tuple(sorted((op, frozenset(d)) for op, d in banned.items())),
                   frozenset(kinds), frozenset(outputs))


def op_dtype_pairs(case: Case) -> set[str]:
    """The ``"<op>@<dtype>"`` pairs the case's output needs: each value of the pruned case
    whose first operand is a tensor, with that operand's dtype (``input`` left out: every
    case has it)."""
    case = case.pruned()
    types = program_types(case)
    pairs = set()
    for value in case.values:
        if value.op == "input" or not value.operands:
            continue
        first = types.get(value.operands[0])
        if isinstance(first, TensorType):
            pairs.add(f"{value.op}@{first.dtype}")
    return pairs


def tensor_objects(values: Sequence[Value], refs: Sequence[int]) -> list[str]:
    """The tensor objects output leaves ``refs`` return, by name: an input returned as it
    is is that input (``x0``), any other tensor value is its own (``v3``)."""
    return [values[i].operands[0] if values[i].op == "input" else f"v{i}" for i in refs if values[i].dtype is not None]


def operand_dtypes(value: Value, types: dict[str, Type]) -> list[str]:
    """The dtypes of ``value``'s tensor operands, in order (``types``: ``program_types``)."""
    return [t.dtype for t in (types.get(o) for o in value.operands) if isinstance(t, TensorType)]


def case_features(case: Case) -> set[str]:
    """Every feature ``case`` holds (its pruned program: what the output needs)."""
    case = case.pruned()
    found = {f"container:{c.kind}" for c in case.containers()}
    found |= {"container:mapping"} if any(c.kind in DICT_KINDS for c in case.containers()) else set()
    found |= {f"op:{value.op}" for value in case.values if value.op != "input"}  # every case needs input
    pairs = op_dtype_pairs(case)
    found |= {f"op:{pair}" for pair in pairs}
    found |= {f"op:{op}@{c}" for op, _, dtype in (p.partition("@") for p in pairs)
              for c, dtypes in DTYPE_CLASSES.items() if dtype in dtypes}
    types = program_types(case)
    found |= {f"mixed:{value.op}" for value in case.values if len(set(operand_dtypes(value, types))) > 1}
    refs = case.refs()
    if not any(case.values[i].dtype is not None for i in refs):
        found.add("output:no_tensor")
    if not refs:
        found.add("output:empty")
    if case.mutations():
        found.add("output:mutation")
    if any(case.values[i].pytype in NUMBERS for i in refs):
        found.add("output:number")
    if len(returned := tensor_objects(case.values, refs)) > len(set(returned)):
        found.add("output:repeated")
    return found
