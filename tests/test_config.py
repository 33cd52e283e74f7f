"""The run's configuration: resolved once, each variable an alias of its option, and
nothing in the project reads the environment at import time or writes it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.config import ALIASES, Config
from tests.test_layers import project_modules


def test_an_option_wins_over_its_variable_which_wins_over_the_default(tmp_path):
    environ = {"ROUNDTRIP_PROFILE": "nightly", "ROUNDTRIP_MAX_EXAMPLES": "7", "ROUNDTRIP_CORPUS": str(tmp_path)}
    run = Config.resolve({"profile": "ci", "max_examples": None}, environ)
    assert (run.profile, run.max_examples, run.corpus) == ("ci", 7, tmp_path.resolve())
    assert Config.resolve({}, {}) == Config()
    assert Config.resolve({}, {"ROUNDTRIP_MAX_EXAMPLES": ""}).max_examples is None  # set but empty: not given


def test_every_setting_has_its_variable():
    assert set(ALIASES) == {f.name for f in Config.__dataclass_fields__.values()}


@pytest.mark.parametrize("bad", ["many", "0"])
def test_a_bad_budget_is_an_error_naming_the_variable(bad):
    with pytest.raises(ValueError, match="ROUNDTRIP_MAX_EXAMPLES"):
        Config.resolve({}, {"ROUNDTRIP_MAX_EXAMPLES": bad})


def _environment_uses(path: Path) -> tuple[list[str], list[str]]:
    """(writes of os.environ anywhere, reads of it outside any function) in one file."""
    tree = ast.parse(path.read_text())
    in_function = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                   for n in ast.walk(f)}
    writes, reads = [], []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Attribute) and node.attr == "environ":
            target = node
        if target is None:
            continue
        line = f"{path.name}:{node.lineno}"
        parent_writes = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign)) and any(
            isinstance(t, ast.Subscript) and t.value is node for t in getattr(n, "targets", [getattr(n, "target", None)]))]
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.value is node and n.func.attr in ("setdefault", "update", "pop", "clear", "__setitem__")]
        if parent_writes or calls:
            writes.append(line)
        elif id(node) not in in_function:
            reads.append(line)
    return writes, reads


# The worker process sets TVM's own thread count for itself (a library's variable, in a
# child process), before TVM is imported there.
_LIBRARY_SETTINGS = {"worker.py"}


def test_nothing_writes_the_environment_or_reads_it_at_import_time():
    writes, reads = [], []
    for module, path in project_modules().items():
        if module.startswith(("tests.", "benchmarks.")):
            continue
        w, r = _environment_uses(path)
        writes += [x for x in w if path.name not in _LIBRARY_SETTINGS]
        reads += r
    assert not writes, f"writes os.environ: {writes}"
    assert not reads, f"reads os.environ at import time: {reads}"


def test_the_checker_sees_a_write_and_an_import_time_read(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("import os\nX = os.environ.get('A')\ndef f():\n    os.environ['B'] = '1'\n")
    assert _environment_uses(planted) == (["planted.py:4"], ["planted.py:2"])


def test_a_tvm_finding_made_with_a_target_replays_with_that_target(tmp_path):
    """The replay line a finding prints carries the TVM target it was made with, and the
    replay runs with it whatever the replayer's environment says."""
    import os
    import shlex
    import subprocess
    import sys

    from harness.conformance import ConformanceFailure
    from harness.registry import load_backend
    from harness.runner import execute
    from strategies import case_from_json

    target = "llvm -mcpu=x86-64"  # not the default, and any x86 machine runs it
    backend = load_backend("tvm-ep", Config(tvm_target=target))
    if backend.unavailable_reason():
        pytest.skip(backend.unavailable_reason())
    assert load_backend("tvm-ep", Config()).target == "llvm"  # one adapter per target
    entry = Path(__file__).resolve().parents[1] / "reports" / "corpus" / "tvm-clamp-one-sided-int"
    case = case_from_json(entry.joinpath("case.json").read_text())
    verdict = execute(backend, case, {})
    assert verdict.outcome == "crash", verdict.headline()  # the entry's bug: a finding, as the search meets it
    replay = next(line.split("replay: ", 1)[1] for line in str(ConformanceFailure(backend, "tvm-ep", case, {}, verdict))
                  .splitlines() if line.lstrip().startswith("replay: "))
    assert f"--tvm-target {shlex.quote(target)}" in replay
    done = subprocess.run([sys.executable, *shlex.split(replay)[1:]], capture_output=True, text=True, timeout=300,
                          cwd=entry.parents[2], env={**os.environ, "ROUNDTRIP_TVM_TARGET": "llvm"})
    assert f"tvm_target: {target}\n" in done.stdout, done.stdout + done.stderr
    assert f"signature: {verdict.signature()}\n" in done.stdout, done.stdout
