"""A case's inputs: the tensors ``forward`` reads (``input_specs``) and the trees it
takes them in (``parameter_trees``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from . import tensors
from .arguments import checked_int, checked_names
from .choices import choice, draw_stable
from .drawing import direct_draws, spanned
from .ops import DOMAINS, domain_applies
from .spec import INPUT_TREE_KINDS, Const, Input, Param, ParamNode, ParamTree

__all__ = ["CONSTANTS", "input_specs", "parameter_trees"]


def input_specs(*, dtypes: Sequence[str] | None = None, max_inputs: int = 3,
                shapes: st.SearchStrategy[tuple[int, ...]] | None = None) -> st.SearchStrategy[tuple[Input, ...]]:
    """Positional and keyword inputs of ``dtypes`` (default every dtype but complex), of
    shapes drawn from ``shapes`` (default ``strategies.shapes()``); the first is always
    positional."""
    checked_int("max_inputs", max_inputs, 1, 8)
    pool = checked_names("dtypes", dtypes, tensors.EVERY_DTYPE)
    return _inputs(pool, pool, shapes if shapes is not None else tensors.shapes(), max_inputs)


# Inputs one at a time, each behind a "one more" draw in one span with it, as st.lists
# draws a list (and _item an output item): the shrinker deletes an unused input whole.
@spanned
def _inputs(draw: Callable, every_dtype: tuple[str, ...], allowed_dtypes: tuple[str, ...],
            shape: st.SearchStrategy[tuple[int, ...]], max_inputs: int) -> tuple[Input, ...]:
    inputs = [draw(_input(0, every_dtype, allowed_dtypes, shape))]
    while len(inputs) < max_inputs:
        more = draw(_input(len(inputs), every_dtype, allowed_dtypes, shape))
        if more is None:
            break
        inputs.append(more)
    return tuple(inputs)


@spanned
def _input(draw: Callable, i: int, every_dtype: tuple[str, ...], allowed_dtypes: tuple[str, ...],
           shape: st.SearchStrategy[tuple[int, ...]]) -> Input | None:
    # Three inputs in five go on to one more (about two inputs a case); stopping is
    # where the draw shrinks to.
    if i and draw(choice("one more input", 0, 4)) < 2:
        return None
    dtype = draw_stable(draw, "input dtype", every_dtype, allowed_dtypes)
    drawn_shape = draw(shape)
    keyword = i > 0 and draw(choice("keyword input", 0, 1)) == 1
    # An input's value domain: ``small`` half the time (where every op is defined, so
    # programs stay long) and where the draw shrinks to; one not applying to the dtype
    # (``precise`` for an integer) is ``small``.
    domain = DOMAINS[max(0, draw(choice("input domain", 0, 5)) - 2)]
    return Input(f"x{i}", dtype, drawn_shape, keyword=keyword,
                 domain=domain if domain_applies(domain, dtype) else "small")


#: Constants an input tree or a parameter may hold: what real calls pass beside tensors
#: (``attention_mask=None``, ``return_dict=True``, ``use_cache=False``, a scale, a count).
CONSTANTS: tuple[None | bool | int | float, ...] = (None, True, False, 0.5, 2)


def _constant(draw: Callable, purpose: str) -> Const:
    return Const(CONSTANTS[draw(choice(purpose, 0, len(CONSTANTS) - 1))])


@st.composite
def parameter_trees(draw: Callable, inputs: Sequence[Input]) -> tuple[Param, ...]:
    """How ``forward`` takes ``inputs``: ``()`` (each a parameter of its own, where the
    draw shrinks to), or parameters whose arguments are trees holding every input once, in
    order (``t0=(x0, (x1, x2))``, ``t1={"a": x0, "b": None}``, a tuple of ``(k, v)`` pairs),
    and constant parameters beside them (``k0=None``, ``k1=True``)."""
    draw = direct_draws(draw)
    if not draw(choice("inputs: as trees", 0, 1)):
        return ()
    names, params, position = [i.name for i in inputs], [], 0
    while position < len(names):
        size = min(len(names) - position, 1 + draw(choice("inputs: tensors in this tree", 0, 2)))
        leaves: list[ParamTree] = list(names[position:position + size])
        position += size
        kind = INPUT_TREE_KINDS[draw(choice("inputs: tree kind", 0, len(INPUT_TREE_KINDS) - 1))]
        if draw(choice("inputs: a constant in the tree", 0, 1)):
            leaves.insert(draw(choice("inputs: where the constant goes", 0, len(leaves))),
                          _constant(draw, "inputs: tree constant"))
        if len(leaves) >= 2 and draw(choice("inputs: pairs, as a cache of (k, v)", 0, 1)):
            leaves = [ParamNode("tuple", tuple(leaves[i:i + 2])) for i in range(0, len(leaves), 2)]
        keys = tuple("abcdefgh"[:len(leaves)]) if kind == "dict" else ()
        # A lone tensor in a container shrinks to staying in it: the tree is what is drawn here.
        tree = leaves[0] if len(leaves) == 1 and isinstance(leaves[0], str) and \
            draw(choice("inputs: a lone tensor on its own", 0, 1)) else ParamNode(kind, tuple(leaves), keys)
        params.append(Param(f"t{len(params)}", tree, bool(draw(choice("inputs: tree passed by keyword", 0, 1)))))
    for k in range(draw(choice("inputs: constant parameters", 0, 2))):
        params.append(Param(f"k{k}", _constant(draw, "inputs: constant parameter"),
                            bool(draw(choice("inputs: constant passed by keyword", 0, 1)))))
    # Positional parameters first: a keyword one may only be followed by keyword ones.
    return tuple(sorted(params, key=lambda p: p.keyword))
