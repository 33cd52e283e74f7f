"""Self-tests of the real architectures (``strategies.architectures``): every family and
every output flag is drawn; the draw shrinks to the smallest model; the reference and
inductor backends pass drawn architectures with no false alarm; planted distortions are
caught and shrunk to a small config; and the reproducer of an architecture runs."""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, find, given, seed, settings
from hypothesis.errors import InvalidArgument

from harness.conformance import ConformanceFailure, Recorder, conformance_property
from harness.known import match, passed_or_rejected_cleanly
from harness.registry import load_backend
from harness.runner import execute
from harness.subjects import subject_from_json, subject_to_json
from harness.worker import Worker
from reports.evidence import known_rows
from reports.reproducer import architecture_reproducer
from strategies import engine
from strategies.architectures import DTYPES, FAMILIES, Architecture, architectures, build, to_source
from tests.harness_backends import DropModelOutputField, Float16ToFloat32, HigherPrecision, HigherPrecision64, distorting_backend

TRANSFORMERS = ("bert", "gpt2", "llama", "t5", "vit")


def test_every_family_every_output_flag_and_dtype_is_drawn():
    drawn: list[Architecture] = []

    @settings(max_examples=1000, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @seed(0)
    @given(architectures())
    def draw(arch):
        drawn.append(arch)

    draw()
    families = Counter(a.family for a in drawn)
    assert set(families) == set(FAMILIES), families
    for name, family in FAMILIES.items():
        values = {flag: {bool(a.options[flag]) for a in drawn if a.family == name} for flag in family.output_flags}
        assert all(v == {False, True} for v in values.values()), (name, values)
        assert {a.dtype for a in drawn if a.family == name} == set(family.dtypes), name
    assert {a.dtype for a in drawn} == set(DTYPES)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_draw_shrinks_to_the_smallest_model(family):
    arch = find(architectures(families=[family]), lambda a: True)
    config = arch.settings
    sizes = [config.get(k) for k in ("hidden_size", "embed_dim", "d_model", "n_embd", "hidden") if k in config]
    assert sizes == [8], config
    assert all(config.get(k, 1) == 1 for k in ("num_layers", "num_hidden_layers", "n_layer", "layers",
                                               "num_encoder_layers", "num_decoder_layers")), config
    assert all(config.get(k, 1) == 1 for k in ("num_heads", "num_attention_heads", "n_head", "nhead",
                                               "num_key_value_heads")), config
    assert arch.dtype == "float32" and arch.seed == 0
    assert not any(v is True for _, v in arch.flags), arch.flags


def test_bad_arguments_are_named():
    with pytest.raises(InvalidArgument, match="families"):
        architectures(families=["resnet"]).example()
    with pytest.raises(InvalidArgument, match="dtypes"):
        architectures(dtypes=["float64"]).example()


def test_an_architecture_is_data_that_replays():
    arch = find(architectures(families=["gpt2"]), lambda a: a.options["past"] > 0 and a.options["attention_mask"])
    assert subject_from_json(subject_to_json(arch)) == arch
    model, args, kwargs = build(arch)
    assert type(model).__name__ == "GPT2Model" and type(kwargs["past_key_values"]).__name__ == "DynamicCache"
    assert "from transformers import GPT2Config, GPT2Model" in to_source(arch)


#: Drawn architectures the no-false-alarm test runs on each of reference and inductor:
#: one per family, of every dtype in turn.
@functools.cache
def _drawn_per_family() -> list[Architecture]:
    picked = []
    for n, family in enumerate(FAMILIES):
        dtype = DTYPES[n % len(DTYPES)]
        picked.append(find(architectures(families=[family], dtypes=[dtype]),
                           lambda a: a.settings.get("num_layers", a.settings.get("n_layer", 2)) >= 1 and a.seed >= 0,
                           settings=settings(database=None, derandomize=True)))
    return picked


@pytest.fixture(scope="module")
def worker():
    w = Worker(timeout=300)
    yield w
    w.close()


@pytest.mark.parametrize("frontend", ["reference", "inductor"])
def test_reference_and_inductor_pass_drawn_architectures(frontend, worker):
    """No false alarm: every verdict passes, or is a known row's (nn.Transformer's mask
    check cannot be exported: a torch.export bug the table holds)."""
    rows = known_rows()
    start = time.perf_counter()
    lines, failed = [], []
    for arch in _drawn_per_family():
        verdict = worker.run(frontend, arch, {})
        known = match(verdict, rows)
        lines.append(f"{arch.family} {arch.dtype}: {verdict.outcome} {known.id if known else ''}")
        if not passed_or_rejected_cleanly(verdict, known) and known is None:
            failed.append(f"{verdict.signature()}\n    {verdict.headline()}\n    {arch.to_json()}")
    assert not failed, "\n".join(failed)
    print(f"{frontend}: {len(lines)} architectures in {time.perf_counter() - start:.0f} s\n  " + "\n  ".join(lines))


@pytest.mark.parametrize(("backend", "dtypes"), [(HigherPrecision(), ["float16", "bfloat16"]),
                                                 (HigherPrecision64(), ["float32"])], ids=["half-in-float32", "float32-in-float64"])
def test_more_precision_than_eager_is_no_false_alarm(backend, dtypes):
    """A valid compiler that computes a half model in float32 (a float32 one in float64)
    and rounds each output at the end passes at the architecture's tolerance
    (``strategies.architectures.error_bound``), and differs from eager in most of them."""
    check = seed(7)(settings(max_examples=60, database=None, deadline=None, suppress_health_check=list(HealthCheck))(
        conformance_property(backend, "harness", lambda case, options: execute(backend, case, options), Recorder(),
                             architectures(dtypes=dtypes))))
    check()
    assert backend.differed >= 30, backend.differed


def _caught(backend, strategy) -> ConformanceFailure:
    check = seed(20261202)(settings(max_examples=200, database=None, deadline=None,
                                    suppress_health_check=list(HealthCheck))(
        conformance_property(backend, "harness", lambda case, options: execute(backend, case, options), Recorder(),
                             strategy)))
    with pytest.raises(ConformanceFailure) as info, engine.unlimited_shrinking():
        check()
    return info.value


def _small(arch: Architecture) -> bool:
    """One layer, one head, hidden size 8, the smallest inputs."""
    c, f = arch.settings, arch.options
    sizes = [c[k] for k in ("hidden_size", "embed_dim", "d_model", "n_embd", "hidden") if k in c]
    layers = [c[k] for k in ("num_layers", "num_hidden_layers", "n_layer", "layers") if k in c]
    heads = [c[k] for k in ("num_heads", "num_attention_heads", "n_head", "nhead") if k in c]
    return sizes == [8] and set(layers) <= {1} and set(heads) <= {1} and f.get("batch", 1) == 1 and f.get("length", 1) == 1


@pytest.mark.parametrize(("backend", "families", "where", "minimal"), [
    # A dropped ModelOutput field: BERT, as small as it gets, returning a ModelOutput of
    # two fields (one flag on: the pooler, the hidden states or the attentions).
    (DropModelOutputField(), TRANSFORMERS, "<output>: keys",
     lambda a: a.family == "bert" and a.options["return_dict"]
     and sum(a.options[f] for f in ("pooler", "output_hidden_states", "output_attentions")) == 1),
    # (out, (h, c)) flattened to (out, h, c).
    (distorting_backend("flatten_one_level"), ("lstm",), "<output>: arity", lambda a: a.family == "lstm"),
    # float16 computed and returned as float32.
    (Float16ToFloat32(), None, "dtype expected torch.float16, got torch.float32", lambda a: a.dtype == "float16"),
], ids=["dropped-model-output-field", "lstm-state-flattened", "float16-as-float32"])
def test_planted_distortions_are_caught_and_shrunk(backend, families, where, minimal):
    failure = _caught(backend, architectures(families=families))
    arch = failure.case
    assert failure.verdict.outcome == "mismatch" and where in str(failure), failure
    assert minimal(arch) and _small(arch), arch
    assert arch.seed == 0 and arch.family == (families or list(FAMILIES))[0] or families == TRANSFORMERS, arch


@pytest.mark.parametrize(("frontend", "family"), [("reference", "llama"), ("inductor", "gpt2"), ("onnx", "bert")])
def test_the_reproducer_is_short_and_runs(frontend, family, tmp_path):
    """An architecture's reproducer: its config as a literal, the model class by its
    import, its inputs, the frontend's calls; 30 lines of code at most besides the
    frontend's pasted helpers; it exits 0 where the frontend agrees with eager."""
    arch = find(architectures(families=[family]), lambda a: a.options.get("past", 1) > 0 and a.options["return_dict"])
    backend = load_backend(frontend)
    meta = {"outcome": "mismatch", "signature": f"{backend.name}/judge/mismatch/values: float32 @{family}", "ops": [family],
            "backend": frontend, "differences": [{"path": "['last_hidden_state']", "kind": "values", "dtype": "float32",
                                                      "expected": "", "actual": ""}]}
    source = architecture_reproducer(arch, backend, {}, meta)
    helpers = backend.recipe({}, input_trees=True).helper_source(backend.recipe({}, input_trees=True).until("run"))
    config, model = {"llama": ("LlamaConfig", "LlamaModel"), "gpt2": ("GPT2Config", "GPT2Model"),
                     "bert": ("BertConfig", "BertModel")}[family]
    assert f"from transformers import {config}, {model}" in source and f"{config}(vocab_size=32" in source
    code = [line for line in source.splitlines() if line.strip()]
    assert len(code) - len([line for line in helpers.splitlines() if line.strip()]) <= 30, source
    (tmp_path / "repro.py").write_text(source)
    done = subprocess.run([sys.executable, "repro.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, source + done.stdout + done.stderr
