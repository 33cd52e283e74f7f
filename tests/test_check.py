"""A user's own model through the suite (``python -m suites check``, ``assert_roundtrips``):
inputs that are trees, ``None`` and Python flags fed as each frontend takes them, the
same oracle, known table and reproducers as generated cases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from harness.attribution import export_graph, names_of
from harness.config import Config
from harness.known import KNOWN
from harness.own import OwnModel
from harness.registry import CPU_BACKENDS
from harness.worker import Worker
from suites.check import assert_roundtrips, check
from tests import known_causes, own_models

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def worker():
    w = Worker(timeout=300)
    yield w
    w.close()


@pytest.mark.parametrize("factory", own_models.__all__)
def test_every_cpu_frontend_passes_or_fails_as_the_table_says(factory, worker):
    found = check(OwnModel(f"tests.own_models:{factory}", path=str(ROOT)), CPU_BACKENDS,
                  run_case=lambda spec, model: worker.run(spec, model, {}))
    lines = "\n".join(c.line() for c in found)
    assert [c.backend_spec for c in found] == list(CPU_BACKENDS)
    assert not any(c.new or c.skipped for c in found), lines
    # The frontends that keep the user's structure and state agree with eager exactly.
    for same in ("reference", "inductor"):
        assert next(c for c in found if c.backend_spec == same).verdict.outcome == "pass", lines


def test_the_command_prints_a_line_per_backend_and_writes_the_reports(tmp_path):
    done = subprocess.run([sys.executable, "-m", "suites", "check", "tests.own_models:encoder_with_flags",
                           "--backend", "reference", "--backend", "tvm-ep", "--keep-going", "--reports", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reference              pass" in done.stdout
    assert "tvm-ep                 known bug (crash): tvm-ep-none-input" in done.stdout
    assert (tmp_path / "summary.html").exists() and "tvm-ep-none-input" in (tmp_path / "summary.md").read_text()


def test_a_new_finding_files_an_entry_whose_reproducer_imports_the_factory_and_reproduces(tmp_path, worker):
    hidden = tuple(k for k in KNOWN if k.id != "tvm-ep-none-input")
    model = OwnModel("tests.own_models:encoder_with_flags", path=str(ROOT))
    [found] = check(model, ["tvm-ep"], rows=hidden, entries=tmp_path, config=Config(corpus=tmp_path / "none"),
                    run_case=lambda spec, m: worker.run(spec, m, {}))
    assert found.new and found.entry is not None, found.line()
    assert (found.entry / "model.json").exists() and (found.entry / "meta.json").exists()
    repro = (found.entry / "repro.py").read_text()
    assert "factory = tests.own_models.encoder_with_flags" in repro
    done = subprocess.run([sys.executable, str(found.entry / "repro.py")], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 1 and 'Cannot determine shape and dtype for input "attention_mask"' in done.stderr


@pytest.mark.parametrize(("distortion", "factory", "where"), [
    ("LoseInputMutations", own_models.cache_updated_in_place, "state.inputs['cache']['keys'][0]: mutation_lost"),
    ("Int64ToInt32", own_models.dict_batch, "['labels']: dtype"),
    ("FlattenOneLevel", own_models.lstm_with_state, "<output>: arity expected 2, got 3"),  # (out, (h, c))
    ("OrderedDictToDict", own_models.encoder_with_flags, "<output>: container_type"),
    ("NudgeOneValue", own_models.attention_with_cache, ": values"),
])
def test_planted_distortions_of_trees_are_caught(distortion, factory, where):
    with pytest.raises(AssertionError) as caught:
        assert_roundtrips(factory, [f"tests.harness_backends:{distortion}"])
    assert where in str(caught.value) and "NEW mismatch" in str(caught.value)


def test_a_callable_factory_runs_in_the_worker_and_a_lambda_in_process():
    found = assert_roundtrips(own_models.attention_with_cache, ["reference", "inductor"])
    assert [c.verdict.outcome for c in found] == ["pass", "pass"]
    found = assert_roundtrips(lambda: own_models.dict_batch(), ["reference"])
    assert [c.verdict.outcome for c in found] == ["pass"]


def test_a_frontend_that_segfaults_is_a_crash_verdict_and_the_caller_goes_on():
    with pytest.raises(AssertionError) as caught:
        assert_roundtrips(own_models.dict_batch, ["reference", "tests.harness_backends:SegfaultAlways"], timeout=60)
    assert "segfault-always" in str(caught.value) and "SIGSEGV" in str(caught.value), caught.value
    assert "reference              pass" in str(caught.value)


def test_a_backend_not_installed_skips_visibly_or_is_an_error_when_all_are_required():
    backends = ["reference", "tests.harness_backends:NotInstalled"]
    with pytest.raises(pytest.skip.Exception, match="checked reference; not installed: not-installed"):
        assert_roundtrips(own_models.dict_batch, backends)
    with pytest.raises(RuntimeError, match="not installed"):
        assert_roundtrips(own_models.dict_batch, backends, require_all=True)


class _ShapeAsList(torch.nn.Module):
    def forward(self, x):
        n = list(x.shape)  # iterating a traced value: what torch.fx documents it cannot trace
        return x.reshape(n[::-1])


def shape_as_list():
    return _ShapeAsList(), (torch.ones(2, 3),), {}


def test_fx_tracing_limits_are_unsupported_not_new(worker):
    pytest.importorskip("tvm")
    [found] = check(OwnModel("tests.test_check:shape_as_list", path=str(ROOT)), ["tvm-fx"],
                    run_case=lambda spec, model: worker.run(spec, model, {}))
    assert not found.new and found.known is not None and found.known.id == "fx-symbolic-trace-limitations", found.line()


# -- a user's model named by its ops: rows that name ops match it (harness.attribution) ----

class _Chain(torch.nn.Module):
    def forward(self, mask, batch):
        positions = mask.cumsum(-1) * mask
        positions = positions.reshape([*mask.shape]) + 1  # iterates a shape: torch.fx cannot trace it
        return positions, torch.special.zeta(batch["scale"], 2.0)


def test_a_users_calls_are_named_by_the_generator_ops_that_export_to_them():
    model, args = _Chain(), (torch.tensor([[1, 0, 1]], dtype=torch.uint8), {"scale": torch.tensor([1.5, 2.5])})
    graph = export_graph(model, args, {})
    assert graph is not None
    named = {n.name: names_of(n) for n in graph.calls()}
    assert named["cumsum"] == ("cumsum",) and "mul" in named["mul"] and "add_scalar" in named["add"], named
    assert named["special_zeta"] == ("special_zeta",)  # no generator op makes it: its own name, which no row has
    # Not traceable by torch.fx: the model is cut in its exported graph, earliest call first.
    cuts = graph.cuts(0)
    assert [c for c, _ in cuts] == ["ep:cumsum", "ep:mul", "ep:reshape", "ep:add"], cuts
    cut = graph.cut("ep:cumsum")
    assert torch.equal(cut(*args), args[0].cumsum(-1))


@pytest.mark.parametrize(("factory", "spec"), [
    ("mask_positions_cumsum", "tvm-fx"),  # the probe names the cumsum, not the multiply the leaf comes from
    ("relu_of_nan", "tvm-ep"), ("last_token", "tvm-ep"), ("uint8_any", "onnx"), ("float_floor_divide", "tvm-ep"),
])
def test_check_names_the_row_of_a_known_cause_in_a_users_model(factory, spec, worker):
    row = known_causes.EXPECTED[factory][spec]
    [found] = check(OwnModel(f"tests.known_causes:{factory}", path=str(ROOT)), [spec], rows=KNOWN,
                    run_case=lambda s, model: worker.run(s, model, {}))
    if found.skipped:
        pytest.skip(found.skipped)
    assert (found.known.id if found.known else "") == row, found.line()
    assert found.new == (not row), found.line()  # a cause no row names stays new
