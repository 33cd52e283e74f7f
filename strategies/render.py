"""From a case to Python source, and from that source to a live module.

``to_source`` is the one place a case becomes code. ``materialize`` executes the same
text (minus the container prelude, which is shared) so the module under test and the
standalone reproducer are the same program, bit for bit.
"""

from __future__ import annotations

import hashlib
import linecache
import math
from typing import Any

import torch
from torch.utils import _pytree as pytree

from . import containers
from .ops import DOMAIN, OPS, Type, domain_type, render_op, state_source, then_source, value_type
from .ops.base import PRECISE_STEPS, WIDE_FLOAT, WIDE_INT
from .spec import Case, Const, Input, ParamTree, Ref, Tree, case_to_json

__all__ = ["arguments_source", "class_source", "input_source", "input_tensors", "materialize", "materialize_inputs",
           "model_source", "parameters",
           "program_types", "to_source"]


def program_types(case: Case) -> dict[str, Type]:
    """Every input's and value's type (with ranges and error), as the generator saw them."""
    types: dict[str, Type] = {i.name: domain_type(i.dtype, i.shape, i.domain) for i in case.inputs}
    for k, value in enumerate(case.values):
        types[f"v{k}"] = value_type(value.op, dict(value.attrs), tuple(types[o] for o in value.operands))
        if OPS[value.op].mutates == "operand":
            types[value.operands[0]] = types[f"v{k}"]  # later values read the input as mutated
    return types


#: The decimal exponent of ``wide`` floats' largest magnitude, pasted into the source.
_WIDE_EXPONENT = {dtype: round(math.log10(top)) for dtype, top in WIDE_FLOAT.items()}

_SUPPORT = f'''\
def random_tensor(shape, dtype, generator, domain="small"):
    """Values within the domain on which every generated op is defined."""
    if domain != "small":
        return random_edge_tensor(shape, dtype, generator, domain)
    if dtype.is_floating_point or dtype.is_complex:
        real = torch.empty(shape, dtype=torch.float64).uniform_({DOMAIN["float"][0]}, {DOMAIN["float"][1]}, generator=generator)
        if dtype.is_complex:
            imag = torch.empty(shape, dtype=torch.float64).uniform_({DOMAIN["float"][0]}, {DOMAIN["float"][1]}, generator=generator)
            return torch.complex(real, imag).to(dtype)
        return real.to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool()
    low, high = {DOMAIN["uint8"]} if dtype == torch.uint8 else {DOMAIN["signed"]}
    return torch.randint(low, high + 1, shape, generator=generator).to(dtype)


def random_edge_tensor(shape, dtype, generator, domain):
    """Values a narrower dtype cannot hold ("wide"), the dtype's limits, infinities, NaN,
    signed zeros and subnormals ("extreme"), or that need its last bit ("precise")."""
    if not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        if domain == "wide":
            top = {WIDE_INT!r}[str(dtype).removeprefix("torch.")]
            low = 0 if dtype == torch.uint8 else max(-top - 1, info.min)
            return torch.randint(low, top + 1, shape, generator=generator, dtype=torch.int64).to(dtype)
        pool = torch.tensor([info.min, info.max, info.min + 1, info.max - 1, 0, 1], dtype=dtype)
    else:
        info = torch.finfo(dtype)
        if domain == "wide":
            top = {_WIDE_EXPONENT!r}[str(dtype).removeprefix("torch.")]
            exponent = torch.empty(shape, dtype=torch.float64).uniform_(-top, top, generator=generator)
            sign = torch.randint(0, 2, shape, generator=generator) * 2 - 1
            return (sign * 10.0**exponent).to(dtype)
        if domain == "precise":
            steps = torch.randint(1, {PRECISE_STEPS + 1}, shape, generator=generator, dtype=torch.float64)
            sign = torch.randint(0, 2, shape, generator=generator) * 2 - 1
            return (sign * (1 + steps * info.eps)).to(dtype)
        pool = torch.tensor([float("nan"), float("inf"), -float("inf"), float("nan"), -0.0, 0.0,
                             info.smallest_normal / 4, -info.smallest_normal], dtype=dtype)
    # Three elements in four from the pool, the rest from the small domain.
    small = random_tensor(shape, dtype, generator)
    pick = torch.randint(0, len(pool) * 4 // 3, shape, generator=generator)
    return torch.where(pick < len(pool), pool[pick.clamp(max=len(pool) - 1)], small)


def make_model():
    model = Model()
    generator = torch.Generator().manual_seed(SEED + 1)
    with torch.no_grad():
        for name, tensor in [*model.named_parameters(), *model.named_buffers()]:
            tensor.copy_(random_tensor(tensor.shape, tensor.dtype, generator))
            if name.endswith("running_var"):
                tensor.abs_().add_(0.5)  # a variance is positive
    return model.eval()
'''


def _render_tree(node: Tree, namedtuples: dict[tuple[str, ...], str]) -> str:
    if isinstance(node, Ref):
        return f"v{node.index}"
    items = [_render_tree(c, namedtuples) for c in node.items]
    pairs = ", ".join(f"({k!r}, {v})" for k, v in zip(node.keys, items))
    if node.kind == "tuple":
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if node.kind == "list":
        return f"[{', '.join(items)}]"
    if node.kind == "dict":
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(node.keys, items)) + "}"
    if node.kind == "ordered_dict":
        return f"collections.OrderedDict([{pairs}])"
    if node.kind == "model_output":
        return f"ModelOutput([{pairs}])"
    if node.kind == "plain_dict_subclass":
        return f"PlainDictSubclass([{pairs}])"
    if node.kind == "namedtuple":
        return f"{namedtuples[node.keys]}({', '.join(items)})"
    raise ValueError(f"unknown container kind {node.kind!r}")


def _number(x: float | int | bool) -> str:
    if isinstance(x, float) and not math.isfinite(x):
        return f'float("{x}")'
    return repr(x)


def _nested(flat: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return flat[0]
    step = len(flat) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(flat[k * step:(k + 1) * step], shape[1:]) for k in range(shape[0])) + "]"


def input_source(i: Input) -> str:
    """The expression for an input: its literal ``values`` (see ``Input``), else its draw
    from the case's seed (``random_tensor``)."""
    if i.values is None:
        domain = f", {i.domain!r}" if i.domain != "small" else ""
        return f"random_tensor({tuple(i.shape)!r}, torch.{i.dtype}, generator{domain})"
    numel = math.prod(i.shape)
    flat = [_number(v) for v in i.values]
    if numel == 0:
        return f"torch.empty({tuple(i.shape)!r}, dtype=torch.{i.dtype})"
    if len(flat) == numel:
        return f"torch.tensor({_nested(flat, tuple(i.shape))}, dtype=torch.{i.dtype})"
    if len(flat) == 1:
        return f"torch.full({tuple(i.shape)!r}, {flat[0]}, dtype=torch.{i.dtype})"
    repeats = -(-numel // len(flat))
    return (f"torch.tensor([{', '.join(flat)}], dtype=torch.{i.dtype}).repeat({repeats})[:{numel}]"
            f".reshape{tuple(i.shape)!r}")


def class_source(case: Case) -> tuple[list[str], dict[str, str]]:
    """The namedtuple classes and ``class Model`` as lines; and the state the model
    registers, by attribute name, with its ``__init__`` expression."""
    types = program_types(case)
    used = case.used()
    namedtuples: dict[tuple[str, ...], str] = {}
    for c in case.containers():
        if c.kind == "namedtuple" and c.keys not in namedtuples:
            namedtuples[c.keys] = f"Output{len(namedtuples)}"

    init, body, state = [], [], {}
    for i in used:
        value = case.values[i]
        operand_types = tuple(types[o] for o in value.operands)
        attrs = dict(value.attrs)
        source = state_source(value.op, attrs, operand_types)
        if source is not None:
            state[f"s{i}"] = source
            if OPS[value.op].state_is_buffer:
                init.append(f"self.register_buffer('s{i}', {source})")
            else:
                init.append(f"self.s{i} = {source}")
        rendered = render_op(value.op, value.operands, attrs, operand_types, f"self.s{i}")
        if OPS[value.op].mutates:  # a statement; the value is what it mutated
            body += [rendered, f"v{i} = {f'self.s{i}' if OPS[value.op].mutates == 'state' else value.operands[0]}"]
        else:
            body.append(f"v{i} = {rendered}")
            body += then_source(value.op, f"v{i}", value.operands, attrs, operand_types, f"self.s{i}")

    positional, keyword = parameters(case)
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    if case.params:  # the inputs the program reads, taken out of the trees they came in
        paths = case.input_paths()
        body[:0] = [f"{i.name} = {paths[i.name]}" for i in case.inputs]
    lines = [f"{name} = collections.namedtuple({name!r}, {list(keys)!r})" for keys, name in namedtuples.items()]
    lines += ["", "", "class Model(torch.nn.Module):"]
    if init:
        lines += ["    def __init__(self):", "        super().__init__()", *(f"        {line}" for line in init), ""]
    lines += [f"    def forward({signature}):"]
    lines += [f"        {line}" for line in body]
    lines.append(f"        return {_render_tree(case.output, namedtuples)}")
    return lines, state


def model_source(case: Case) -> str:
    """The model, its inputs and its weights as Python; needs the container prelude."""
    lines = [f"SEED = {case.seed}", "", *class_source(case)[0], "", ""]
    lines += [_SUPPORT, "", *_make_inputs(case)]
    return "\n".join(lines) + "\n"


def _make_inputs(case: Case) -> list[str]:
    lines = ["def make_inputs():", "    generator = torch.Generator().manual_seed(SEED)"]
    lines += [f"    {i.name} = {input_source(i)}" for i in case.inputs]
    return [*lines, f"    return {arguments_source(case)}"]


_SUPPORT_NAMESPACE: dict[str, Any] = {}


def materialize_inputs(case: Case) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``materialize(case)``'s inputs alone (the same tensors), without building the model:
    a dynamic case calls one model at several sizes."""
    if not _SUPPORT_NAMESPACE:  # the drawing functions, compiled once a process
        _SUPPORT_NAMESPACE["torch"] = torch
        exec(compile(_SUPPORT, "<roundtrip support>", "exec"), _SUPPORT_NAMESPACE)  # noqa: S102 - our own source
    namespace = {**_SUPPORT_NAMESPACE, "SEED": case.seed}
    exec(compile("\n".join(_make_inputs(case)), "<roundtrip inputs>", "exec"), namespace)  # noqa: S102 - our own source
    return namespace["make_inputs"]()


def parameters(case: Case) -> tuple[list[str], list[str]]:
    """``forward``'s parameter names: (positional, keyword-only)."""
    if case.params:
        return [p.name for p in case.params if not p.keyword], [p.name for p in case.params if p.keyword]
    return [i.name for i in case.inputs if not i.keyword], [i.name for i in case.inputs if i.keyword]


def param_tree_source(node: ParamTree) -> str:
    """An input tree as an expression over the input tensors' names."""
    if isinstance(node, str):
        return node
    if isinstance(node, Const):
        return repr(node.value)
    items = [param_tree_source(c) for c in node.items]
    if node.kind == "dict":
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(node.keys, items)) + "}"
    if node.kind == "list":
        return "[" + ", ".join(items) + "]"
    return "(" + "".join(f"{v}, " for v in items) + ")"


def arguments_source(case: Case) -> str:
    """``(args), {kwargs}`` of the call, over the input tensors' names."""
    if not case.params:
        positional, keyword = parameters(case)
        return f"({''.join(f'{n}, ' for n in positional)}), {{{', '.join(f'{n!r}: {n}' for n in keyword)}}}"
    args = "".join(f"{param_tree_source(p.tree)}, " for p in case.params if not p.keyword)
    kwargs = ", ".join(f"{p.name!r}: {param_tree_source(p.tree)}" for p in case.params if p.keyword)
    return f"({args}), {{{kwargs}}}"


def input_tensors(case: Case, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Each tensor input by name, found in the call's arguments (``materialize``'s)."""
    positional, _ = parameters(case)
    bound = {**dict(zip(positional, args)), **kwargs}
    return {name: pytree.key_get(bound, path) for name, path in case.input_key_paths().items()}


def to_source(case: Case, *, main: str | None = None) -> str:
    """A standalone script needing only torch that builds the same model and inputs.

    ``main`` replaces the default ``__main__`` block (which prints the eager output);
    the corpus uses it to append the frontend call of a reproducer.
    """
    default_main = (
        "model = make_model()\n"
        "args, kwargs = make_inputs()\n"
        "print(model(*args, **kwargs))\n"
    )
    block = main if main is not None else default_main
    indented = "".join(f"    {line}\n" if line.strip() else "\n" for line in block.splitlines())
    return (
        "# Generated by Roundtrip from this case:\n"
        f"# {case_to_json(case)}\n"
        + containers.PRELUDE
        + "\n\n"
        + model_source(case)
        + "\n\nif __name__ == \"__main__\":\n"
        + indented
    )


_PRELUDE_NAMES = {
    name: getattr(containers, name) for name in ("collections", "torch", "pytree", "ModelOutput", "PlainDictSubclass")
}


def materialize(case: Case) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
    """The live module and its example inputs; deterministic for a given case."""
    source = model_source(case)
    # A per-case file name registered in linecache: tracebacks and tracers that read
    # source (fx, dynamo) see the generated forward.
    filename = f"<roundtrip-case-{hashlib.sha1(source.encode()).hexdigest()[:12]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"__name__": "roundtrip_case", **_PRELUDE_NAMES}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own rendered source
    model = namespace["make_model"]()
    args, kwargs = namespace["make_inputs"]()
    return model, args, kwargs
