"""Layers import one way: every project import, at module level or inside a function,
goes to a module of the same layer or a lower one, and the import graph has no cycle.

A deferred import that dodges a cycle is a cycle (the graph counts it like any other);
a new module must be given its layer here before it can land.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("strategies", "suites", "reports")

#: Lowest first. A module of layer N imports only modules of layers <= N.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The packages' __init__ modules: empty markers, and strategies' facade over its submodules.
    ("generation", ("strategies", "strategies.*", "suites", "suites.backends", "reports", "tests")),
    ("shared types and settings", ("suites.backends.base", "suites.oracle", "suites.signature", "suites.config", "suites.own",
                                   "suites.attribution",
                                   "suites.subjects", "suites.database", "suites.schedule")),
    ("execution", ("suites.runner", "suites.worker", "suites.versions", "suites.backends.*")),
    ("judgement", ("suites.known", "suites.known.*")),
    ("the property", ("suites.conformance", "suites.simplify", "suites.calibration")),
    ("the corpus", ("reports.reproducer", "reports.releases", "reports.corpus")),
    ("reports", ("reports.page", "reports.summary", "reports.merge", "reports.findings", "reports.audit")),
    ("tools that search or re-run", ("suites.hunt", "suites.replay", "suites.check", "suites.__main__", "reports.seeds")),
    ("the pytest plugin and tests", ("conftest", "suites.plugin", "suites.test_*", "tests.*", "benchmarks.*")),
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    files = [p for pkg in (*PACKAGES, "tests", "benchmarks") for p in (ROOT / pkg).rglob("*.py")
             if "corpus" not in p.relative_to(ROOT).parts[1:-1]]  # reports/corpus/*/repro.py: standalone scripts
    return {_module_name(p): p for p in [*files, ROOT / "conftest.py"]}


def layer_of(module: str) -> int:
    for index, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if module == pattern or pattern.endswith(".*") and module.startswith(pattern[:-1]) \
                    or pattern.endswith("_*") and module.startswith(pattern[:-1]):
                return index
    raise KeyError(module)


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """Every project module ``module`` imports, anywhere in its body."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            # `from pkg import sub` imports the submodule pkg.sub where there is one
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {m: imports(m, p, set(modules)) for m, p in modules.items()}


def test_every_module_has_a_layer():
    unplaced = []
    for module in project_modules():
        try:
            layer_of(module)
        except KeyError:
            unplaced.append(module)
    assert not unplaced, f"give these modules a layer in tests/test_layers.py LAYERS: {unplaced}"


def test_imports_run_downward_only():
    upward = [f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
              for module, targets in import_graph().items() for target in targets
              if layer_of(target) > layer_of(module)]
    assert not upward, "imports that run up the layers:\n  " + "\n  ".join(sorted(upward))


def test_no_import_cycles():
    graph = import_graph()
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join([*stack[stack.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n  " + "\n  ".join(cycles)


@pytest.mark.parametrize("planted", ["suites.known imports reports.corpus", "strategies.spec imports suites.runner"])
def test_an_upward_import_is_caught(planted, tmp_path):
    importer, _, target = planted.partition(" imports ")
    assert layer_of(target) > layer_of(importer)
    path = tmp_path / "m.py"
    path.write_text(f"def f():\n    from {target} import x\n")
    assert target in imports(importer, path, set(project_modules()))


#: The one module that reaches into Hypothesis's engine (strategies/engine.py).
ENGINE_DOOR = "strategies.engine"
#: What only the door may touch: the engine's modules, its seed state, its private hooks.
#: (Not every name the door uses: ``nodes`` is an fx graph's too.)
_ENGINE_MODULES = ("hypothesis.internal", "hypothesis.core")
_ENGINE_ATTRIBUTES = re.compile(r"^(_draw|_hypothesis_internal_\w+|global_force_seed|MAX_SHRINKING_SECONDS|"
                                r"generate_mutations_from|_get_local_constants)$")


def engine_reaches(path: Path) -> list[str]:
    """Each place in ``path`` that imports the engine or touches what only the door may."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [f"{node.module}.{a.name}" for a in node.names] if node.module and not node.level else []
        elif isinstance(node, ast.Attribute) and _ENGINE_ATTRIBUTES.match(node.attr):
            found.append(f"line {node.lineno}: .{node.attr}")
            continue
        else:
            continue
        found += [f"line {node.lineno}: import {n}" for n in names if n.startswith(_ENGINE_MODULES)]
    return found


def test_only_the_engine_door_reaches_into_hypothesis():
    reaches = [f"{module} {where}" for module, path in project_modules().items() if module != ENGINE_DOOR
               for where in engine_reaches(path)]
    assert not reaches, "go through strategies/engine.py:\n  " + "\n  ".join(reaches)


@pytest.mark.parametrize("planted", ["from hypothesis.internal.conjecture import engine",
                                     "from hypothesis import core", "data._draw('integer', {})",
                                     "check._hypothesis_internal_database_key = b''"])
def test_a_reach_past_the_door_is_caught(planted, tmp_path):
    path = tmp_path / "m.py"
    path.write_text(f"def f(data):\n    {planted}\n")
    assert engine_reaches(path)
