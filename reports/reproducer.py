"""The standalone reproducer of a finding: what a maintainer reads in ten seconds.

Only what the case needs: the container classes it returns, the model with the values
its output uses, its inputs as literals where they are small (``harness.simplify`` puts
them there), the frontend's own calls written out (for tensors in and out, as the
frontend's docs show them: the adapter's ``plain_recipe``; else its ``Recipe``, the same
helpers the harness runs), and at the end what eager returned and what the frontend
returned at the first differing path. It needs torch and the frontend only, and exits
1 while the bug reproduces (the frontend's exception, or the failed comparison), 0 once
it is gone.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import torch
from torch.utils import _pytree as pytree

from harness.backends.base import Backend, Contract, Recipe
from harness.oracle import TOLERANCES
from harness.own import OwnModel
from harness.signature import Signature
from harness.subjects import Subject, kind_of
from strategies import Case, Input, containers, materialize
from strategies.architectures import FAMILIES as ARCHITECTURES
from strategies.architectures import Architecture, error_bound
from strategies.architectures import build as build_architecture
from strategies.dynamic import dynamic_shapes_source, resized, size_roles, statically
from strategies.render import _SUPPORT, arguments_source, class_source, input_source

__all__ = ["architecture_reproducer", "own_model_reproducer", "reproducer_source", "subject_reproducer", "title"]

#: Weights with at most this many elements are written out; larger ones are drawn
#: from the case's seed with the suite's own ``random_tensor``.
_WEIGHT_LITERAL_MAX = 16


def title(meta: dict[str, Any]) -> str:
    """One line that names the op and the effect: ``relu: float32 NaN lost (tvm-ep)``."""
    ops = ", ".join(meta.get("ops") or ()) or "no op"
    signature = Signature.from_text(meta["signature"])
    # An op is named first; what a process that died ran (``cumsum on int32``) is kept.
    trigger = str(signature.trigger)
    effect = signature.what + ("" if re.fullmatch(r"[\w.]*", trigger) else f" @{trigger}")
    effect = effect if len(effect) <= 100 else effect[:99] + "…"
    return f"{ops}: {effect} ({meta['backend']})"


def _containers(case: Case) -> list[str]:
    kinds = {c.kind for c in case.containers()}
    lines = ["import collections"] if kinds & {"ordered_dict", "namedtuple", "model_output"} else []
    if "model_output" in kinds:
        lines += ["import torch.utils._pytree as pytree", "", "", containers.MODEL_OUTPUT.rstrip()]
    if "plain_dict_subclass" in kinds:
        lines += ["", "", containers.PLAIN_DICT_SUBCLASS.rstrip()]
    return lines


def _literal(tensor: torch.Tensor) -> str:
    return input_source(Input("w", str(tensor.dtype).removeprefix("torch."), tuple(tensor.shape),
                              values=tuple(tensor.flatten().tolist())))


def _model_and_inputs(case: Case) -> list[str]:
    """``model``, ``args`` and ``kwargs``: literal where small, else drawn as the suite does."""
    model, _, _ = materialize(case)
    weights = {n: t for n, t in [*model.named_parameters(), *model.named_buffers()]}
    literal_weights = all(t.numel() <= _WEIGHT_LITERAL_MAX for t in weights.values())
    literal_inputs = all(i.values is not None for i in case.inputs) and not (
        case.dynamic is not None and any(i.values is None for i in _every_size(case)))
    lines: list[str] = []
    if not (literal_weights and literal_inputs):  # the suite's own draw, from the seed
        lines += [f"SEED = {case.seed}", "", "", _SUPPORT.rstrip(), "", ""]
    lines += ["model = make_model()" if not literal_weights else "model = Model().eval()"]
    if literal_weights and weights:
        lines.append("with torch.no_grad():  # the weights the suite drew")
        lines += [f"    model.{n}.copy_({_literal(t)})" for n, t in weights.items()]
    return lines + _inputs(case)


def _inputs(case: Case) -> list[str]:
    """``args, kwargs = ...``: the inputs as literals, or drawn from the seed as the suite does."""
    lines = [] if all(i.values is not None for i in case.inputs) else ["generator = torch.Generator().manual_seed(SEED)"]
    if case.params:  # the tensors by name, then the trees the model takes them in
        lines += [f"{i.name} = {input_source(i)}" for i in case.inputs]
        lines.append(f"args, kwargs = {arguments_source(case)}")
        return lines
    positional = [input_source(i) for i in case.inputs if not i.keyword]
    keyword = [f"{i.name!r}: {input_source(i)}" for i in case.inputs if i.keyword]
    lines.append(f"args, kwargs = ({''.join(p + ', ' for p in positional)}), {{{', '.join(keyword)}}}")
    return lines


def _tolerance(case: Case) -> str:
    """The loosest tolerance of the case's float dtypes: for the whole result at once."""
    dtypes = {getattr(torch, v.dtype) for v in case.values if v.dtype} | {getattr(torch, i.dtype) for i in case.inputs}
    dtypes |= {torch.float64 for v in case.values if v.pytype == "float"}  # a Python float is a double
    floats = [TOLERANCES[d] for d in dtypes if d in TOLERANCES]
    if not floats:
        return ""
    rtol, atol = max(t[0] for t in floats), max(t[1] for t in floats)
    return f", rtol={rtol!r}, atol={atol!r}"


def _leaf_tolerance(dtype: str) -> str:
    """The tolerance of one leaf's dtype (``values: float64``: float64's, not float16's)."""
    rtol, atol = TOLERANCES.get(getattr(torch, dtype, None), (None, None)) if dtype else (None, None)
    return f", rtol={rtol!r}, atol={atol!r}" if rtol is not None else ""


#: Significant digits that tell two values of the dtype apart.
_DIGITS = {"float64": 17, "float32": 9, "float16": 5}


def _check(backend: Backend, outcome: str, difference: dict[str, Any] | None, tolerance: str, state: str,
           *, containers: bool = True) -> list[str]:
    """The lines that show and assert what differs; ``tolerance`` is the whole result's,
    ``state`` the assertion on buffers and inputs after the call (empty: none),
    ``containers`` whether eager's result holds containers other than plain tuples."""
    if outcome != "mismatch":
        return ['print("no error: the bug is gone")']
    name = f"{backend.name}:".ljust(9)
    nesting = backend.contract is Contract.NESTING
    lines = []
    if nesting and containers:  # the frontend promises the nesting and order, not the container types
        lines.append("as_tuples = lambda t: tuple(map(as_tuples, t.values() if isinstance(t, dict) else t)) "
                     "if isinstance(t, (tuple, list, dict)) else t")
        lines.append("expected = as_tuples(expected)")
    path = (difference or {}).get("path", "")
    kind = (difference or {}).get("kind", "")
    digits = _DIGITS.get((difference or {}).get("dtype", ""))
    if digits and kind == "values":  # torch prints 4 digits: a float64 difference would print as equal
        lines.append(f"torch.set_printoptions(precision={digits})")
    if path.startswith("state."):
        lines += ['print("eager:   ", dict(eager_model.named_buffers()), eager_args, eager_kwargs)',
                  f'print("{name}", dict(model.named_buffers()), args, kwargs)']
    elif kind in ("dtype", "shape", "values") and not nesting:
        e, a = ("expected", "actual") if not path else ("e", "a")  # the whole result, or the leaf that differs
        lines += [f"e, a = expected{path}, actual{path}"] if path else []
        lines += [f'print("eager:   ", {e}.dtype, tuple({e}.shape), {e})',
                  f'print("{name}", {a}.dtype, tuple({a}.shape), {a})']
    else:
        lines += ['print("eager:   ", expected)', f'print("{name}", actual)']
        if kind in ("container_type", "leaf_type", "keys") and not nesting:
            lines.append(f"e, a = expected{path}, actual{path}")
            lines.append("assert type(a) is type(e) and list(getattr(a, 'keys', list)()) == "
                         "list(getattr(e, 'keys', list)()), f'{type(e).__name__} expected, got {type(a).__name__}'")
        elif kind in ("container_type", "leaf_type", "arity") and nesting:  # the nesting and the leaves' types
            lines.append("same = lambda a, e: isinstance(a, (tuple, list)) and len(a) == len(e) and all(map(same, a, e)) "
                         "if isinstance(e, tuple) else type(a) is type(e)")
            lines.append("assert same(actual, expected), f'{actual!r} does not nest as {expected!r}'")
    leaf_tolerance = _leaf_tolerance((difference or {}).get("dtype", ""))
    if kind == "values" and not nesting and not path.startswith("state.") and leaf_tolerance != tolerance:
        # The differing leaf at its own dtype's tolerance: a float64 error hides under float16's.
        if not path:  # the leaf is the whole result
            tolerance = leaf_tolerance
        else:
            lines.append(f"torch.testing.assert_close(a, e, equal_nan=True{leaf_tolerance})")
    lines.append(f"torch.testing.assert_close(actual, expected, equal_nan=True{tolerance})")
    return lines + ([state] if state else [])


def _state_differs(meta: dict[str, Any]) -> bool:
    """Whether the finding is in what forward leaves in buffers and inputs: else a check of
    them would hold the reproducer to another bug."""
    return any((d.get("path") or "").startswith("state.") for d in meta.get("differences") or ())


#: A native crash kills the process and a hang never ends: the script runs itself in a
#: child and exits 1 when that child dies or hangs.
_IN_A_CHILD = """\
import os, signal, subprocess, sys

if "REPRO_CHILD" not in os.environ:  # a native crash kills its process: run in a child, say how it ended
    code = subprocess.run([sys.executable, __file__], env={**os.environ, "REPRO_CHILD": "1"}, timeout=600).returncode
    sys.exit(code and f"the frontend's process ended with {signal.Signals(-code).name if code < 0 else f'exit code {code}'}")
"""


def _imported_names(line: str) -> list[str]:
    if line.startswith("from "):
        names = line.split(" import ", 1)[1]
    else:
        names = line.removeprefix("import ")
    return [n.split(" as ")[-1].strip().split(".")[0] for n in names.split(",")]


def _plain(backend: Backend, options: dict[str, Any], meta: dict[str, Any], model: torch.nn.Module, args: tuple,
           kwargs: dict) -> Recipe | None:
    """The frontend called as its docs show (``Backend.plain_recipe``) for this call, or
    ``None``: inputs that are not all tensors, a difference in the containers (a user's
    own re-assembly could hide or cause it), an eager call that fails, or a call the
    frontend cannot make plainly. For a crash too: once fixed, the script must run to its end."""
    kind = (meta.get("differences") or [{}])[0].get("kind") or ""
    inputs = tuple(pytree.tree_leaves((args, kwargs)))
    if kind in ("container_type", "keys") or not all(isinstance(t, torch.Tensor) for t in inputs):
        return None
    try:
        with torch.no_grad():
            output = copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    except Exception:
        return None
    return backend.plain_recipe(options, inputs, output, kind)


def _plain_case(backend: Backend, options: dict[str, Any], meta: dict[str, Any], case: Case) -> Recipe | None:
    return None if case.params else _plain(backend, options, meta, *materialize(case))


def _recipe(backend: Backend, options: dict[str, Any], *, input_trees: bool, plain: Recipe | None) -> Recipe:
    if plain is not None:
        return plain
    return backend.recipe(options, input_trees=True) if input_trees else backend.recipe(options)


def _frontend(backend: Backend, options: dict[str, Any], meta: dict[str, Any], *, input_trees: bool,
              comments: tuple[str, ...] = (), plain: Recipe | None = None) -> tuple[list[str], list[str], str, list[str]]:
    """What every reproducer of ``meta``'s finding holds of the frontend: its head (the
    title, the versions, ``comments`` and, for a process that died or hung, the guard that
    runs it in a child), the recipe's imports the calls need, the helpers they call, and
    the calls, up to the one that fails for a crash."""
    recipe = _recipe(backend, options, input_trees=input_trees, plain=plain)
    call = recipe.until("run" if meta["outcome"] == "mismatch" else Signature.from_text(meta["signature"]).stage)
    helpers = recipe.helper_source(call)
    code = "\n".join([*call, helpers])
    imports = [line for line in recipe.imports.splitlines()
               if any(re.search(rf"\b{n}\b", code) for n in _imported_names(line))]
    version = backend.version() + ("" if "torch " in backend.version() else f", torch {torch.__version__}")
    head = [f"# {title(meta)}", f"# {version}. Exits 1 while the bug reproduces.", *comments]
    if meta["outcome"] == "hang" or "WorkerDied" in meta["signature"]:
        head += [*_IN_A_CHILD.splitlines(), ""]
    return head, imports, helpers, call


def reproducer_source(case: Case, backend: Backend, options: dict[str, Any], meta: dict[str, Any]) -> str:
    """The reproducer of the finding ``meta`` describes (its outcome, stage, signature
    and first difference) for ``case`` on ``backend`` with ``options``."""
    if case.dynamic is not None and Signature.from_text(meta["signature"]).size_role:
        return _dynamic_reproducer(case, backend, options, meta)
    case = _static_at(case, meta)  # a static failure: the static case at the size that showed it
    head, imports, helpers, call = _frontend(backend, options, meta, input_trees=bool(case.params),
                                             plain=_plain_case(backend, options, meta, case))
    mismatch = meta["outcome"] == "mismatch"
    lines = [*head, *(["import copy", ""] if case.mutations() else []), "import torch"]
    lines += _containers(case)
    lines += [line for line in imports if line not in lines]
    if helpers:
        lines += ["", "", helpers.rstrip()]
    class_lines, _ = class_source(case)
    lines += [*class_lines, "", ""]
    lines += _model_and_inputs(case)
    if not mismatch:  # eager's result, on copies where forward mutates its state
        lines.append('print("eager:   ", model(*args, **kwargs))' if not case.mutations() else
                     'print("eager:   ", copy.deepcopy(model)(*copy.deepcopy(args), **copy.deepcopy(kwargs)))')
    elif case.mutations():  # eager runs on copies: forward mutates buffers and inputs in place
        lines += ["eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))",
                  "expected = eager_model(*eager_args, **eager_kwargs)"]
    else:
        lines.append("expected = model(*args, **kwargs)")
    lines += call
    tolerance = _tolerance(case)
    state = ("torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), "
             f"(dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True{tolerance})"
             if case.mutations() and _state_differs(meta) else "")
    lines += _check(backend, meta["outcome"], (meta.get("differences") or [None])[0], tolerance, state,
                    containers=any(c.kind != "tuple" for c in case.containers()))
    return "\n".join(lines) + "\n"


def _static_at(case: Case, meta: dict[str, Any]) -> Case:
    """The static case a static verdict came from: a dynamic case's at the last size it
    ran at (where it stopped: ``harness.runner`` compiles the static case there), else at
    its example."""
    sizes = meta.get("sizes") or ()
    if case.dynamic is None or not sizes:
        return statically(case)
    return statically(resized(case, sizes[-1]["sizes"]))


def _every_size(case: Case) -> list[Input]:
    return [i for _, sizes in size_roles(case) for i in resized(case, sizes).inputs]


_COMPILE_ON_CALL = re.compile(r"actual = (torch\.compile\(model.*\))\(\*args, \*\*kwargs\)$")


def _dynamic_steps(case: Case, recipe: Recipe, options: dict[str, Any], meta: dict[str, Any]) -> tuple[list, list]:
    """(the compile statements, the run statements) of a dynamic case: compiled once with
    the declared dims (``dynamic_shapes``, or ``mark_dynamic`` / ``dynamic=True`` for a
    ``torch.compile`` frontend), then run at each size; up to the failing stage for a crash."""
    signature = Signature.from_text(meta["signature"])
    stage, role = signature.stage, signature.size_role
    compiling, running = [], []
    for step, code in recipe.steps:
        code = code.replace("torch.export.export(model, args, kwargs)",
                            "torch.export.export(model, args, kwargs, dynamic_shapes=dynamic_shapes)")
        found = _COMPILE_ON_CALL.match(code)
        if found:  # compiled lazily on the first call: one compiled function, called at each size
            if not options.get("dynamic"):  # the recipe says dynamic=True itself where the option is drawn
                compiling += [f"torch._dynamo.mark_dynamic({d.input}, {d.dim}, min={d.size(case.dynamic.symbol(d.symbol).min)}, "
                              f"max={d.size(case.dynamic.symbol(d.symbol).max)})" for d in case.dynamic.dims]
            compiling.append(f"compiled = {found.group(1)}")
            running.append("actual = compiled(*args, **kwargs)")
        elif step in ("run", "compile-on-call"):
            running += code.splitlines()
        else:
            compiling += code.splitlines()
        if role == "dynamic" and step == stage:
            return compiling, []
    return compiling, running


def _dynamic_reproducer(case: Case, backend: Backend, options: dict[str, Any], meta: dict[str, Any]) -> str:
    """Compile once at the example with the case's dynamic dims declared, call at the example,
    then at the size that fails (``meta``'s stage names its role: ``judge@max``)."""
    role = Signature.from_text(meta["signature"]).size_role
    at_every_size = [_plain_case(backend, options, meta, statically(resized(case, sizes))) for _, sizes in size_roles(case)]
    plain = _plain_case(backend, options, meta, statically(case)) if all(at_every_size) else None
    head, imports, helpers, _ = _frontend(backend, options, meta, input_trees=bool(case.params), plain=plain)
    recipe = _recipe(backend, options, input_trees=bool(case.params), plain=plain)
    compiling, running = _dynamic_steps(case, recipe, options, meta)
    code = "\n".join([*compiling, *running, helpers])
    imports = [line for line in recipe.imports.splitlines()
               if any(re.search(rf"\b{n}\b", code) for n in _imported_names(line))]
    helpers = recipe.helper_source([*compiling, *running])
    lines = [*head, "import copy", "", "import torch", "from torch.export import Dim"]
    lines += _containers(case)
    lines += [line for line in imports if line not in lines]
    if helpers:
        lines += ["", "", helpers.rstrip()]
    lines += [*class_source(statically(case))[0], "", ""]
    lines += _model_and_inputs(statically(case))
    lines += dynamic_shapes_source(case).splitlines()
    if not case.params and any(line.startswith("torch._dynamo.mark_dynamic") for line in compiling):
        names = [i.name for i in case.inputs if not i.keyword] + [i.name for i in case.inputs if i.keyword]
        lines.append(f"{', '.join(names)}, = [*args, *kwargs.values()]  # the tensors mark_dynamic marks")
    lines += ["eager_model = copy.deepcopy(model)", *compiling]
    if role == "dynamic":
        return "\n".join([*lines, 'print("no error: the bug is gone")']) + "\n"
    at_sizes = dict(size_roles(case))[role]
    at = statically(resized(case, at_sizes))
    sizes = ", ".join(f"{k}={v}" for k, v in at_sizes.items())
    if role != "example":
        lines += ["eager_args, eager_kwargs = copy.deepcopy((args, kwargs))",
                  "expected = eager_model(*eager_args, **eager_kwargs)", *running,
                  f"# The same compiled artefact, at the {role} size ({sizes}):", *_inputs(at)]
    lines += ["eager_args, eager_kwargs = copy.deepcopy((args, kwargs))",
              "expected = eager_model(*eager_args, **eager_kwargs)", *running]
    tolerance = _tolerance(at)
    state = ("torch.testing.assert_close((dict(model.named_buffers()), args, kwargs), "
             f"(dict(eager_model.named_buffers()), eager_args, eager_kwargs), equal_nan=True{tolerance})"
             if case.mutations() and _state_differs(meta) else "")
    lines += _check(backend, meta["outcome"], (meta.get("differences") or [None])[0], tolerance, state,
                    containers=any(c.kind != "tuple" for c in case.containers()))
    return "\n".join(lines) + "\n"


def own_model_reproducer(model: OwnModel, backend: Backend, options: dict[str, Any], meta: dict[str, Any]) -> str:
    """The reproducer of a finding on a user's own model: the model comes from its
    factory (a model cannot be written out), the frontend's calls as for a generated case."""
    head, imports, helpers, call = _frontend(backend, options, meta, input_trees=True,
                                             comments=("# Run it where the factory's module imports (its project's root).",))
    module, _, name = model.factory.partition(":")
    lines = [*head, "import copy", "import sys", "", "import torch", "from torch.utils import _pytree as pytree"]
    lines += [line for line in imports if line not in lines]
    if model.path:
        lines.append(f"sys.path.insert(0, {model.path!r})")
    lines += [f"import {module}", "", f"factory = {module}.{name}"]
    if helpers:
        lines += ["", "", helpers.rstrip(), "", ""]
    lines += ["made = factory()  # (model, args, kwargs), (model, args) or (model, inputs)",
              "model = made[0].eval()",
              "args, kwargs = made[1:] if len(made) == 3 else made[1]() if callable(made[1]) else (made[1], {})",
              "args = tuple(args) if isinstance(args, (tuple, list)) else (args,)",
              "eager_model, eager_args, eager_kwargs = copy.deepcopy((model, args, kwargs))",
              "expected = eager_model(*eager_args, **eager_kwargs)"]
    lines += call
    tensors = "[t for t in pytree.tree_leaves({}) if isinstance(t, torch.Tensor)]"
    state = ("torch.testing.assert_close(" + tensors.format("(dict(model.named_buffers()), args, kwargs)") + ", "
             + tensors.format("(dict(eager_model.named_buffers()), eager_args, eager_kwargs)") + ", equal_nan=True)")
    difference = (meta.get("differences") or [None])[0]
    lines += _check(backend, meta["outcome"], difference, _leaf_tolerance((difference or {}).get("dtype", "")),
                    state if _state_differs(meta) else "")
    return "\n".join(lines) + "\n"


def architecture_reproducer(arch: Architecture, backend: Backend, options: dict[str, Any], meta: dict[str, Any]) -> str:
    """The reproducer of a finding on a drawn architecture: its config as a literal, the
    model class by its import, the inputs, the frontend's calls as for a generated case,
    and the check at the tolerance the oracle held the leaf to (its dtype's, widened by
    the architecture's bound on eager's own rounding)."""
    model, args, kwargs = build_architecture(arch)  # a frontend traces a model of tensor arguments as it is
    trees = not all(isinstance(a, torch.Tensor) for a in (*args, *kwargs.values()))
    plain = None if trees else _plain(backend, options, meta, model, args, kwargs)
    head, imports, helpers, call = _frontend(backend, options, meta, input_trees=trees, plain=plain)
    model_imports, body = ARCHITECTURES[arch.family].source(arch)
    lines = [*head, "import copy", *model_imports, "from torch.utils import _pytree as pytree"]
    lines += [line for line in imports if line not in lines]
    if helpers:
        lines += ["", "", helpers.rstrip()]
    lines += ["", "", *body, "expected = model(*copy.deepcopy(args), **copy.deepcopy(kwargs))", *call]
    difference = (meta.get("differences") or [None])[0]
    rtol, atol = TOLERANCES.get(getattr(torch, arch.dtype), (0.0, 0.0))
    tolerance = f", rtol={rtol!r}, atol={max(atol, 2 * error_bound(arch))!r}"
    # One check, at the architecture's tolerance (a leaf's dtype's alone is stricter than
    # the oracle), over the leaves: assert_close cannot walk a DynamicCache.
    checks = [line for line in _check(backend, meta["outcome"], difference, tolerance, "")
              if not line.startswith("torch.testing.assert_close(a, e")]
    whole = f"torch.testing.assert_close(actual, expected, equal_nan=True{tolerance})"
    leaves = (f"torch.testing.assert_close(pytree.tree_leaves(actual), pytree.tree_leaves(expected), "
              f"equal_nan=True{tolerance})")
    lines += [leaves if line == whole else line for line in checks]
    return "\n".join(lines) + "\n"


def subject_reproducer(subject: Subject, backend: Backend, options: dict[str, Any], meta: dict[str, Any]) -> str:
    """The reproducer of the finding ``meta`` describes, for any kind of subject."""
    write = {"case": reproducer_source, "own_model": own_model_reproducer, "architecture": architecture_reproducer}
    return write[kind_of(subject).tag](subject, backend, options, meta)
