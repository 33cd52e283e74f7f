"""Layers import one way, and only the engine door reaches into Hypothesis.

The layers themselves are import-linter's contracts in pyproject.toml, checked by the
lint step (scripts/lint.sh: ``lint-imports``); here, that a planted upward import breaks
them, so the contract is one that can fail.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("strategies", "harness", "suites", "reports")
ROOT_PACKAGES = (*PACKAGES, "tests", "benchmarks")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    files = [p for pkg in ROOT_PACKAGES for p in (ROOT / pkg).rglob("*.py")
             if "corpus" not in p.relative_to(ROOT).parts[1:-1]]  # reports/corpus/*/repro.py: standalone scripts
    return {_module_name(p): p for p in [*files, ROOT / "conftest.py"]}


def _lint_imports(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run([shutil.which("lint-imports") or "lint-imports", "--no-cache"], cwd=tree,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": ""}, timeout=120)


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed (the dev extra)")
@pytest.mark.parametrize("importer,target", [("harness/known/rows.py", "reports.corpus"),
                                             ("strategies/spec.py", "harness.runner"),
                                             ("reports/corpus.py", "suites.hunt"),
                                             ("harness/oracle.py", "harness.known")])
def test_an_upward_import_breaks_the_layers(importer, target, tmp_path):
    """A copy of the tree keeps its contracts; the same copy with one deferred import
    up the layers breaks them."""
    for pkg in ROOT_PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("*.json", "corpus", "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    assert _lint_imports(tmp_path).returncode == 0
    with (tmp_path / importer).open("a") as f:
        f.write(f"\n\ndef _planted():\n    import {target}  # noqa\n")
    broken = _lint_imports(tmp_path)
    assert broken.returncode == 1 and "BROKEN" in broken.stdout.upper(), broken.stdout


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
