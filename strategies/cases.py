"""``cases()``: whole cases, composed of their parts (inputs, a program over them, an
output tree over its values, the trees ``forward`` takes the inputs in, dynamic dims).

Everything is built valid by construction (no ``assume``/``filter``), and every part
shrinks to its simplest form: one input, float32, shape ``()``, the input returned
as it is, no container.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .arguments import checked_int, checked_names, dtype_names
from .choices import choice
from .drawing import Named, direct_draws
from .dynamic import dynamic_specs
from .features import left_out
from .inputs import _inputs, parameter_trees
from .ops import COMPLEX, FAMILIES, OPS, STRUCTURAL_FAMILIES
from .outputs import distinct_keys, output_trees, reshaped
from .programs import _program, aim_at, sinks_of
from .spec import CONTAINER_KINDS, Case, Container, Tree
from .steering import FREE_ONE_IN, Steer
from .tensors import ALL_DTYPES, EVERY_DTYPE, SIZE_CLASSES, large_shapes, shapes

__all__ = ["cases"]


def cases(
    *,
    dtypes: Sequence[str] | None = None,
    include_complex: bool = False,
    containers: Sequence[str] | None = None,
    op_families: Sequence[str] | None = None,
    ops: Sequence[str] | None = None,
    max_ops: int = 8,
    max_depth: int = 4,
    max_leaves: int = 6,
    max_inputs: int = 3,
    max_rank: int = 4,
    max_side: int = 3,
    sizes: Sequence[str] | None = None,
    exportable: bool | None = None,
    exclude: Collection[str] | None = None,
    input_trees: bool = False,
    dynamic: bool = False,
    steer: Steer | None = None,
) -> st.SearchStrategy[Case]:
    """Random models, drawn as :class:`~strategies.spec.Case` data.

    ``dtypes``, ``containers``, ``op_families`` and ``ops`` focus a run on some names;
    ``max_ops`` bounds the program's length (values computed in ``forward``);
    ``sizes`` are the size classes a case draws its input shapes from: ``small`` (sides
    up to ``max_side``; three cases in four, and where a case shrinks to) and ``large``
    (``large_shapes``: sides up to 127, where compilers vectorize, tile and split
    reductions);
    ``exportable=True`` leaves out outputs that ``torch.export`` itself rejects (an
    unregistered dict subclass), ``False`` keeps only cases that contain one;
    ``exclude`` leaves out features a frontend is known to reject cleanly
    (``harness.calibration``): ``container:<kind>``, ``op:<name>``, ``op:<name>@<dtype>``
    (the op on a first operand of that dtype, or of a dtype class), ``mixed:<name>`` (the
    op on operands of two dtypes), ``output:<shape>`` (``strategies.features``);
    ``input_trees=True`` also draws how ``forward`` takes its inputs: in trees (tuples,
    lists, dicts, a tuple of pairs like a KV cache), beside ``None`` and Python flags and
    numbers, positional or keyword (``parameter_trees``); it shrinks to flat tensor inputs;
    ``dynamic=True`` declares input dimensions dynamic where the program allows
    (the ops that read sizes, ``strategies.ops.sizes``, then compute on symbols; in a
    static case they compute on the sizes as Python ints)
    (``strategies.dynamic.dynamic_specs``): the case is compiled once and run at several
    sizes; it shrinks to fewer dynamic dimensions and to the static case;
    ``steer`` (a :class:`~strategies.steering.Steer`) leaves the features it holds out of
    every case but one in ``FREE_ONE_IN`` (where a case shrinks to), as ``exclude`` does
    for all: a run fills it with what it learns.
    """
    given_dtypes = dtypes
    dtypes = dtype_names(dtypes)
    # A complex dtype named outright is asked for; include_complex widens the default pool.
    named_complex = dtypes is not None and not isinstance(dtypes, str) and any(d in COMPLEX for d in dtypes)
    dtype_pool = checked_names("dtypes", dtypes, EVERY_DTYPE if include_complex or named_complex else ALL_DTYPES)
    kinds = checked_names("containers", containers, CONTAINER_KINDS)
    families = checked_names("op_families", op_families, FAMILIES)
    if "leaf" not in families:
        # Without the leaf family a drawn input may have no applicable op at all.
        raise InvalidArgument(f"op_families={list(op_families or ())!r} must include 'leaf'")
    op_names = tuple(n for n in checked_names("ops", ops, tuple(OPS)) if OPS[n].family in families)
    if "input" not in op_names:
        op_names = ("input", *op_names)  # an input can always be returned as it is
    out = left_out(exclude or ())
    op_names = tuple(n for n in op_names if n not in out.ops)
    kinds = tuple(k for k in kinds if k not in out.kinds)
    banned = dict(out.banned)
    outputs_out = out.outputs
    if not kinds:
        max_depth = 0
    if steer is not None and not isinstance(steer, Steer):
        raise InvalidArgument(f"steer={steer!r} must be a strategies.Steer or None")
    checked_int("max_ops", max_ops, 1, 64)
    checked_int("max_inputs", max_inputs, 1, 8)
    names = tuple(f"x{i}" for i in range(max_inputs)) + tuple(f"v{i}" for i in range(max_ops))
    if exportable not in (None, True, False):
        raise InvalidArgument(f"exportable={exportable!r} must be None, True or False")
    if exportable is True:
        kinds = tuple(k for k in kinds if k != "plain_dict_subclass")
        if not kinds:
            max_depth = 0
    if exportable is False and "plain_dict_subclass" not in kinds:
        raise InvalidArgument(f"exportable=False needs 'plain_dict_subclass' in containers={list(kinds)!r}")
    checked_int("max_depth", max_depth, 0, 16)
    checked_int("max_leaves", max_leaves, 1, 64)
    case_families = tuple(dict.fromkeys(OPS[n].family for n in op_names))
    aim_ops = tuple(n for n in op_names if OPS[n].arity and not OPS[n].takes_tuples
                    and OPS[n].family not in STRUCTURAL_FAMILIES)
    small_shape, large_shape = shapes(max_rank=max_rank, max_side=max_side), large_shapes(max_rank=max_rank)
    size_classes = checked_names("sizes", sizes, SIZE_CLASSES)

    @st.composite
    def draw_case(draw: Callable) -> Case:
        draw = direct_draws(draw)
        seed = draw(choice("seed", 0, 2**31 - 1))
        # The size class: small three times in four, and where the draw shrinks to.
        large = "large" in size_classes and ("small" not in size_classes or draw(choice("size class", 0, 3)) == 3)
        # Swarm testing (Groce et al., ISSTA 2012): each case leaves out a random part of
        # the op families and of the input dtypes, so that the ones it keeps meet more often than
        # a draw over everything lets them (an int16 clamp, a where over two dtypes).
        # 0, where each mask shrinks to, leaves nothing out; an op keeps its choice index.
        families_out = draw(choice("swarm: op families left out", 0, 2 ** len(case_families) - 1))
        dtypes_out = draw(choice("swarm: input dtypes left out", 0, 2 ** len(dtype_pool) - 1))
        left_out = {f for i, f in enumerate(case_families) if families_out >> i & 1}
        case_ops = tuple(n for n in op_names if n == "input" or OPS[n].family not in left_out)
        case_dtypes = tuple(d for i, d in enumerate(dtype_pool) if not dtypes_out >> i & 1) or dtype_pool
        case_banned, case_kinds, case_outputs = banned, kinds, outputs_out
        # The steer's free share is 0, where the draw shrinks to: a shrunk case draws freely.
        if steer is not None and draw(choice("steer: drawn freely (0) or steered", 0, FREE_ONE_IN - 1)) and steer.demoted:
            case_ops, case_banned, case_kinds, case_outputs = _steered(steer.demoted, case_ops, banned, kinds,
                                                                       outputs_out)
        # Coverage-directed: most cases aim at one dtype, the first input's, and half their
        # values apply an op drawn uniformly among all (the swarm aside) to a value of it,
        # so that a rare op x dtype pair (cumsum of an int32, sign of a bool) is met as
        # often as a common one. 0, where the draw shrinks to, aims at nothing. The aim
        # follows the first input's drawn dtype, so that dtype still shrinks on its own.
        aiming = draw(choice("coverage: aim at the first input's dtype", 0, len(dtype_pool))) > 0
        inputs = draw(_inputs(dtype_pool, case_dtypes, large_shape if large else small_shape, max_inputs))
        aim = aim_at(aim_ops, case_banned, inputs[0].dtype) if aiming and aim_ops else None
        values = draw(_program(inputs, case_ops, max_ops, names, case_banned, op_names, aim))
        value_kinds = tuple(v.pytype if v.dtype is None else f"{v.dtype}{v.shape}" for v in values)
        structural = tuple(k for k, v in enumerate(values) if OPS[v.op].family in STRUCTURAL_FAMILIES)
        consumed = {o for v in values if OPS[v.op].family not in STRUCTURAL_FAMILIES for o in v.operands}
        sinks = sinks_of(values, consumed)
        if exportable is False:
            # At least one unregistered dict subclass, at the root (the simplest place).
            items = draw(st.lists(output_trees(len(values), containers=case_kinds, max_depth=max(0, max_depth - 1),
                                               max_leaves=max_leaves, value_kinds=value_kinds, sinks=sinks,
                                       structural=structural), max_size=3))
            keys = distinct_keys(draw, len(items))
            output: Tree = Container("plain_dict_subclass", tuple(items), keys)
        else:
            output = draw(output_trees(len(values), containers=case_kinds or ("tuple",), max_depth=max_depth,
                                       max_leaves=max_leaves, value_kinds=value_kinds, sinks=sinks,
                                       structural=structural))
        if case_outputs:
            output = reshaped(output, values, sinks, case_outputs)
        params = draw(parameter_trees(inputs)) if input_trees else ()
        case = Case(inputs=inputs, values=values, output=output, seed=seed, params=params)
        return draw(dynamic_specs(case)) if dynamic else case

    strategy = draw_case()
    arguments = {k: v for k, v in dict(
        dtypes=given_dtypes, include_complex=include_complex, containers=containers, op_families=op_families,
        ops=ops, max_ops=max_ops, max_depth=max_depth, max_leaves=max_leaves, max_inputs=max_inputs, max_rank=max_rank,
        max_side=max_side, sizes=sizes,
        exportable=exportable, exclude=exclude, input_trees=input_trees, dynamic=dynamic, steer=steer).items()
        if v != _DEFAULTS[k]}
    return Named(strategy, "cases(" + ", ".join(f"{k}={v!r}" for k, v in arguments.items()) + ")")


def _steered(demoted: Collection[str], ops: tuple[str, ...], banned: dict[str, frozenset[str]], kinds: tuple[str, ...],
             outputs: frozenset[str]
             ) -> tuple[tuple[str, ...], dict[str, frozenset[str]], tuple[str, ...], frozenset[str]]:
    """A steered case's ops, first-operand dtypes left out per op, container kinds and
    output shapes left out: the demoted features left out (``strategies.features``). An op
    left out is banned on every dtype too, so that the coverage aim cannot bring it back;
    kinds stay where every one of them is demoted (a case needs a root)."""
    out = left_out(demoted, argument=None)
    banned = dict(banned)
    for op, dtypes in out.banned:
        banned[op] = banned.get(op, frozenset()) | dtypes
    for op in out.ops:
        banned[op] = frozenset(EVERY_DTYPE)
    return (tuple(n for n in ops if n not in out.ops), banned,
            tuple(k for k in kinds if k not in out.kinds) or kinds, outputs | out.outputs)


_DEFAULTS = dict(dtypes=None, include_complex=False, containers=None, op_families=None, ops=None, max_ops=8, max_depth=4, max_leaves=6,
                 max_inputs=3, max_rank=4, max_side=3, sizes=None, exportable=None, exclude=None, input_trees=False,
                 dynamic=False, steer=None)
