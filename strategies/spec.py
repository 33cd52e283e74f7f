"""The case: a frozen, JSON-serialisable description of one generated model.

Everything else (the live ``nn.Module``, its inputs, the standalone reproducer) is
derived from a :class:`Case`; see ``strategies.render``. Keeping the case as plain data
is what makes shrinking, subprocess isolation and the regression corpus possible.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from torch.utils._pytree import KeyPath, MappingKey, SequenceKey, keystr

from .ops import OPS

__all__ = [
    "tree_refs",
    "CONTAINER_KINDS",
    "DICT_KINDS",
    "Case",
    "Const",
    "Container",
    "DynamicDim",
    "Dynamic",
    "Input",
    "Param",
    "ParamNode",
    "Ref",
    "Symbol",
    "Tree",
    "Value",
    "case_from_json",
    "case_to_json",
]

#: Every container a generated model may return. ``model_output`` is a dict subclass
#: registered with ``torch.utils._pytree`` the way transformers' ``ModelOutput`` is;
#: ``plain_dict_subclass`` is not registered: eager PyTorch returns it fine, but
#: ``torch.export`` rejects it, so it must be told apart from a frontend bug.
CONTAINER_KINDS = (
    "tuple",
    "list",
    "dict",
    "ordered_dict",
    "namedtuple",
    "model_output",
    "plain_dict_subclass",
)
DICT_KINDS = ("dict", "ordered_dict", "model_output", "plain_dict_subclass")
#: Containers whose items carry a key (dict keys or namedtuple field names).
KEYED_KINDS = (*DICT_KINDS, "namedtuple")


@dataclass(frozen=True)
class Input:
    """One model input. Its values come from the case's seed, within ``domain`` (one of
    ``strategies.ops.DOMAINS``), unless ``values`` gives them: the elements in row-major
    order, repeated to fill the shape (one value fills it all). Only the simplifier
    (``harness.simplify``) sets ``values``, and only to numbers inside the domain."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    keyword: bool = False
    domain: str = "small"
    values: tuple[float | int | bool, ...] | None = None


@dataclass(frozen=True)
class Value:
    """One value the forward computes: ``op`` applied to ``operands``, each a model
    input (``x0``) or an earlier value (``v3``): a case is a small dataflow program.

    ``dtype``/``shape`` (tensors) or ``pytype`` (Python values) are derived when the
    case is drawn, by running the op on meta tensors; they are kept for reporting and
    for selecting cases, and a self-test checks them against eager PyTorch.
    """

    op: str
    operands: tuple[str, ...] = ()
    attrs: tuple[tuple[str, Any], ...] = ()
    dtype: str | None = None
    shape: tuple[int, ...] | None = None
    pytype: str | None = None

    def attr(self, name: str, default: Any = None) -> Any:
        return dict(self.attrs).get(name, default)


@dataclass(frozen=True)
class Ref:
    """A leaf of the output tree: the value with this index (twice = same object)."""

    index: int


@dataclass(frozen=True)
class Container:
    """An inner node of the output tree. ``keys`` is empty for tuple and list."""

    kind: str
    items: tuple[Tree, ...] = ()
    keys: tuple[str, ...] = ()


Tree = Ref | Container

#: What an input tree may hold besides the model's tensor inputs.
INPUT_TREE_KINDS = ("tuple", "list", "dict")


@dataclass(frozen=True)
class Const:
    """A leaf of an input tree that is not a tensor: ``None``, a bool, an int or a float,
    passed as it is (``attention_mask=None``, ``return_dict=True``); forward reads none."""

    value: None | bool | int | float


@dataclass(frozen=True)
class ParamNode:
    """An inner node of an input tree (``INPUT_TREE_KINDS``); ``keys`` for a dict."""

    kind: str
    items: tuple[ParamTree, ...] = ()
    keys: tuple[str, ...] = ()


#: An input tree: a tensor input by name (``"x1"``), a constant, or a node.
ParamTree = str | Const | ParamNode


@dataclass(frozen=True)
class Param:
    """One parameter of ``forward``, whose argument is a tree: an ``(h0, c0)`` pair, a
    cache of ``(k, v)`` tuples, a dict batch. Each tensor input is a leaf of exactly one."""

    name: str
    tree: ParamTree
    keyword: bool = False


@dataclass(frozen=True)
class Symbol:
    """A size the compiled artefact must take any value of, from ``min`` to ``max``
    (``torch.export.Dim(name, min=, max=)``); its example value is the inputs' own."""

    name: str
    min: int
    max: int


@dataclass(frozen=True)
class DynamicDim:
    """Dimension ``dim`` of input ``input`` is ``scale * symbol + offset`` (a derived
    ``Dim``, ``2 * s`` or ``s + 1``, where ``scale``/``offset`` are not 1/0)."""

    input: str
    dim: int
    symbol: str
    scale: int = 1
    offset: int = 0

    def size(self, value: int) -> int:
        return self.scale * value + self.offset


@dataclass(frozen=True)
class Dynamic:
    """Which input dimensions a case declares dynamic, and over what range: the
    artefact is compiled once, at the inputs' shapes, and called at other sizes
    (``strategies.dynamic``)."""

    symbols: tuple[Symbol, ...]
    dims: tuple[DynamicDim, ...]

    def symbol(self, name: str) -> Symbol:
        return next(s for s in self.symbols if s.name == name)


@dataclass(frozen=True)
class Case:
    inputs: tuple[Input, ...]
    values: tuple[Value, ...]
    output: Tree
    #: Seeds the input values and the weights (see ``strategies.render``).
    seed: int = 0
    #: ``forward``'s parameters when its inputs come as trees; empty: each input is a
    #: parameter of its own (``Input.keyword`` says how it is passed).
    params: tuple[Param, ...] = ()
    #: The dimensions declared dynamic, compiled once and run at several sizes; ``None``:
    #: compiled and run at the inputs' shapes only.
    dynamic: Dynamic | None = None

    def input_key_paths(self) -> dict[str, KeyPath]:
        """Each tensor input's key path in ``forward``'s arguments bound to their parameter
        names: ``{"x1": (MappingKey("state"), SequenceKey(1), SequenceKey(0))}``."""
        if not self.params:
            return {i.name: (MappingKey(i.name),) for i in self.inputs}
        found: dict[str, KeyPath] = {}

        def walk(node: ParamTree, path: KeyPath) -> None:
            if isinstance(node, str):
                found[node] = path
            elif isinstance(node, ParamNode):
                for n, child in enumerate(node.items):
                    walk(child, (*path, MappingKey(node.keys[n]) if node.keys else SequenceKey(n)))

        for p in self.params:
            walk(p.tree, (MappingKey(p.name),))
        return found

    def input_paths(self) -> dict[str, str]:
        """Each tensor input's parameter and path inside it, as source: ``{"x1": "state[1][0]"}``."""
        return {name: path[0].key + keystr(path[1:]) for name, path in self.input_key_paths().items()}

    # -- derived facts, used by filters, reports and known-bug matching ------------
    def containers(self) -> list[Container]:
        found: list[Container] = []

        def walk(node: Tree) -> None:
            if isinstance(node, Container):
                found.append(node)
                for child in node.items:
                    walk(child)

        walk(self.output)
        return found

    def refs(self) -> list[int]:
        return tree_refs(self.output)

    def depth(self) -> int:
        def walk(node: Tree) -> int:
            if isinstance(node, Ref):
                return 0
            return 1 + max((walk(c) for c in node.items), default=0)

        return walk(self.output)

    def returned_values(self) -> list[Value]:
        return [self.values[i] for i in self.refs()]

    def mutations(self) -> list[int]:
        """Indices of the values that mutate a buffer or an input in place."""
        return [i for i, v in enumerate(self.values) if OPS[v.op].mutates]

    def used(self) -> list[int]:
        """Indices of the values the result needs: returned, mutating state (which is part
        of the result), or feeding one that is."""
        needed = set(self.refs()) | set(self.mutations())
        return sorted(needed | self._feeding(needed))

    def feeding(self, index: int) -> list[int]:
        """Indices of the values that feed value ``index`` through its operands, itself
        left out: what a difference at that value can come from."""
        return sorted(self._feeding({index}))

    def _feeding(self, indices: set[int]) -> set[int]:
        """The values that feed ``indices`` through their operands (an operand always
        names an earlier value, so none feeds itself)."""
        found: set[int] = set()
        stack = list(indices)
        while stack:
            for operand in self.values[stack.pop()].operands:
                if operand.startswith("v") and int(operand[1:]) not in found:
                    found.add(int(operand[1:]))
                    stack.append(int(operand[1:]))
        return found

    def ops(self) -> list[str]:
        """Every op the output needs, returned or intermediate."""
        return sorted({self.values[i].op for i in self.used()})

    def pruned(self) -> Case:
        """The same model without the values the output never needs, renumbered.

        The shrinker cannot delete a value that a later one points past; this can. The
        model is the same program: unneeded values are never rendered, and state is
        filled in registration order, which renumbering keeps.
        """
        used = self.used()
        new_index = {old: new for new, old in enumerate(used)}

        def rename(operand: str) -> str:
            return f"v{new_index[int(operand[1:])]}" if operand.startswith("v") else operand

        def renumber(node: Tree) -> Tree:
            if isinstance(node, Ref):
                return Ref(new_index[node.index])
            return Container(node.kind, tuple(renumber(c) for c in node.items), node.keys)

        values = tuple(replace(self.values[i], operands=tuple(rename(o) for o in self.values[i].operands)) for i in used)
        return Case(self.inputs, values, renumber(self.output), self.seed, self.params, self.dynamic)

    @property
    def exportable(self) -> bool:
        """Whether eager PyTorch's own ``torch.export`` accepts the output tree."""
        return all(c.kind != "plain_dict_subclass" for c in self.containers())


def tree_refs(tree: Tree) -> list[int]:
    """The value indices an output tree's leaves point at, in order (twice = twice)."""
    if isinstance(tree, Ref):
        return [tree.index]
    return [i for child in tree.items for i in tree_refs(child)]


# -- JSON ---------------------------------------------------------------------------


def _tree_to_obj(node: Tree) -> Any:
    if isinstance(node, Ref):
        return {"ref": node.index}
    return {"kind": node.kind, "keys": list(node.keys), "items": [_tree_to_obj(c) for c in node.items]}


def _param_to_obj(node: ParamTree) -> Any:
    if isinstance(node, str):
        return {"input": node}
    if isinstance(node, Const):
        return {"const": node.value}
    return {"kind": node.kind, "keys": list(node.keys), "items": [_param_to_obj(c) for c in node.items]}


def _param_from_obj(obj: Any) -> ParamTree:
    if "input" in obj:
        return str(obj["input"])
    if "const" in obj:
        return Const(obj["const"])
    return ParamNode(obj["kind"], tuple(_param_from_obj(c) for c in obj["items"]), tuple(obj.get("keys", ())))


def _tree_from_obj(obj: Any) -> Tree:
    if "ref" in obj:
        return Ref(int(obj["ref"]))
    return Container(
        kind=obj["kind"],
        keys=tuple(obj.get("keys", ())),
        items=tuple(_tree_from_obj(c) for c in obj["items"]),
    )


def case_to_json(case: Case) -> str:
    obj = {
        "seed": case.seed,
        "inputs": [
            # "domain" only where it is not the default: older cases keep their JSON.
            {"name": i.name, "dtype": i.dtype, "shape": list(i.shape), "keyword": i.keyword,
             **({"domain": i.domain} if i.domain != "small" else {}),
             **({"values": list(i.values)} if i.values is not None else {})}
            for i in case.inputs
        ],
        "values": [
            {
                "op": v.op,
                "operands": list(v.operands),
                "attrs": [[k, a] for k, a in v.attrs],
                "dtype": v.dtype,
                "shape": None if v.shape is None else list(v.shape),
                "pytype": v.pytype,
            }
            for v in case.values
        ],
        "output": _tree_to_obj(case.output),
    }
    if case.params:  # only where there are: older cases keep their JSON
        obj["params"] = [{"name": p.name, "keyword": p.keyword, "tree": _param_to_obj(p.tree)} for p in case.params]
    if case.dynamic is not None:
        obj["dynamic"] = {"symbols": [[s.name, s.min, s.max] for s in case.dynamic.symbols],
                          "dims": [[d.input, d.dim, d.symbol, d.scale, d.offset] for d in case.dynamic.dims]}
    return json.dumps(obj, sort_keys=True)


def _dynamic_from_obj(obj: Any) -> Dynamic | None:
    if obj is None:
        return None
    return Dynamic(tuple(Symbol(str(n), int(lo), int(hi)) for n, lo, hi in obj["symbols"]),
                   tuple(DynamicDim(str(i), int(d), str(s), int(k), int(o)) for i, d, s, k, o in obj["dims"]))


def _attr_value(a: Any) -> Any:
    return tuple(a) if isinstance(a, list) else a


def case_from_json(text: str | dict) -> Case:
    """Rebuild a case; a missing or malformed field raises ``ValueError`` naming it."""
    obj = json.loads(text) if isinstance(text, str) else text
    try:
        return Case(
            seed=int(obj["seed"]),
            inputs=tuple(
                Input(i["name"], i["dtype"], tuple(i["shape"]), bool(i.get("keyword", False)),
                      str(i.get("domain", "small")), None if i.get("values") is None else tuple(i["values"]))
                for i in obj["inputs"]
            ),
            values=tuple(
                Value(
                    op=v["op"],
                    operands=tuple(v["operands"]),
                    attrs=tuple((k, _attr_value(a)) for k, a in v["attrs"]),
                    dtype=v.get("dtype"),
                    shape=None if v.get("shape") is None else tuple(v["shape"]),
                    pytype=v.get("pytype"),
                )
                for v in obj["values"]
            ),
            output=_tree_from_obj(obj["output"]),
            params=tuple(Param(p["name"], _param_from_obj(p["tree"]), bool(p.get("keyword", False)))
                         for p in obj.get("params", ())),
            dynamic=_dynamic_from_obj(obj.get("dynamic")),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed case: field {exc!s} is missing or has the wrong type") from exc
