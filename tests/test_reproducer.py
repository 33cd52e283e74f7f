"""A reproducer says what the suite said: it exits 1 exactly when the recorded
difference is there, judged at the differing leaf's own dtype."""

from __future__ import annotations

import subprocess
import sys

from harness.registry import load_backend
from harness.runner import execute
from reports.reproducer import reproducer_source
from strategies import Case, Container, Input, Ref, Value

SPEC = "tests.harness_backends:Float64ViaFloat32"


def test_a_float64_error_beside_a_float16_leaf_reproduces(tmp_path):
    backend = load_backend(SPEC)
    # (x0, x1): the float64 leaf comes back rounded through float32 (3e-9 off, where
    # float64 allows 9e-16 and float16, the loosest dtype of the case, 1e-2).
    case = Case(inputs=(Input("x0", "float16", (), values=(1.0,)), Input("x1", "float64", (), values=(0.1,))),
                values=(Value("input", ("x0",), (), "float16", (), None), Value("input", ("x1",), (), "float64", (), None)),
                output=Container("tuple", (Ref(0), Ref(1)), ()), seed=0)
    verdict = execute(backend, case, {})
    assert verdict.outcome == "mismatch" and verdict.differences[0].dtype == "float64", verdict
    meta = {"backend": SPEC, "outcome": "mismatch", "stage": verdict.staged, "signature": verdict.signature(),
            "differences": [d.to_dict() for d in verdict.differences], "ops": case.ops()}
    script = tmp_path / "repro.py"
    script.write_text(reproducer_source(case, backend, {}, meta))
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "AssertionError" in run.stderr, script.read_text() + run.stdout + run.stderr
