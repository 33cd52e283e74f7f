"""The package installs: a wheel built from the checkout, installed apart from it, imports
every module and checks a user's model with ``python -m suites check``, writing its
reports where it runs (never into site-packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from harness.config import ROOT

MODEL = """
import torch


class Pair(torch.nn.Module):
    def forward(self, x):
        return {"sum": x + 1, "pair": (x.double(), x.to(torch.int64))}


def make():
    return Pair(), (torch.arange(6, dtype=torch.float32).reshape(2, 3),), {}
"""

IMPORT_ALL = """
import importlib, pkgutil, sys
import reports, strategies, suites
names = [m.name for p in (strategies, suites, reports) for m in pkgutil.walk_packages(p.__path__, p.__name__ + ".")
         if not m.name.rpartition(".")[2].startswith("test_")]
for name in names:
    module = importlib.import_module(name)
    assert module.__file__.startswith(sys.argv[1]), f"{name} imported from {module.__file__}"
print(len(names), "modules")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the checkout (setuptools builds in the source's build/,
    where an earlier build's files would be packed again), once for the module."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", ".tox", "build", "*.egg-info", "__pycache__",
                                                                 ".roundtrip", "latest", "latest-releases", ".hypothesis"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(wheels), str(source)], check=True, cwd=tmp_path,
                   capture_output=True, text=True)
    built, = wheels.glob("roundtrip-*.whl")
    return built


def test_a_built_wheel_installs_imports_and_checks_a_model(tmp_path: Path, wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("strategies/ops/base.py", "strategies/architectures/hf.py", "harness/backends/tvm.py",
                   "harness/ci-survey.json", "harness/ci-item-seconds.json", "reports/upstream-searches.json"):
        assert needed in names, f"{needed} is not in {wheel.name}"
    entries = {n.split("/")[2] for n in names if n.startswith("reports/corpus/") and n.endswith("/meta.json")}
    assert entries == {p.parent.name for p in (ROOT / "reports" / "corpus").glob("*/meta.json")}

    installed = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:  # what pip install --target does, without pip's cost
        archive.extractall(installed)
    (tmp_path / "user_model.py").write_text(textwrap.dedent(MODEL))
    # Away from the checkout: neither the repository nor its tests are importable.
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUNDTRIP_")}
    env["PYTHONPATH"] = str(installed)
    imported = subprocess.run([sys.executable, "-c", IMPORT_ALL, str(installed)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
    assert imported.returncode == 0, imported.stderr[-3000:]
    checked = subprocess.run([sys.executable, "-m", "suites", "check", "user_model:make", "--backend", "reference"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-3000:]
    assert "reference              pass" in checked.stdout, checked.stdout
    assert (tmp_path / "reports" / "latest" / "summary.md").is_file(), checked.stdout
    assert not (installed / "reports" / "latest").exists()


USER_TESTS = """
import os
import signal

import pytest
import torch
from hypothesis import given, settings
from strategies import models
from harness.backends.reference import Eager
from suites.check import assert_roundtrips


class Segfaults(Eager):
    name = "segfaults"

    def run(self, compiled, ctx):
        os.kill(os.getpid(), signal.SIGSEGV)


def make():
    return torch.nn.Linear(3, 2), (torch.ones(2, 3),), {}


@settings(max_examples=5, deadline=None)
@given(models(dtypes=[torch.float32], max_ops=3))
def test_my_compiler_on_drawn_models(m):
    again = type(m).of(m.case)  # the case alone rebuilds the model and its inputs
    torch.testing.assert_close(again.module(*again.args, **again.kwargs), m.module(*m.args, **m.kwargs), equal_nan=True)


def test_assert_roundtrips_on_reference():
    assert [c.verdict.outcome for c in assert_roundtrips(make, ["reference"])] == ["pass"]


def test_a_segfaulting_frontend_is_a_crash_verdict():
    with pytest.raises(AssertionError, match="SIGSEGV"):
        assert_roundtrips(make, ["test_user:Segfaults"], timeout=60)
"""

PLAIN_TESTS = """
import json, os
from hypothesis import given, settings, strategies as st

@settings(max_examples=40, derandomize=True, database=None)
@given(st.lists(st.integers()), st.text())
def test_plain(xs, s):
    with open(os.environ["DRAWS"], "a") as out:
        out.write(json.dumps([xs, s]) + "\\n")
"""


def test_installed_into_a_project_with_the_newest_hypothesis(tmp_path: Path, wheel: Path) -> None:
    """The wheel in a fresh virtualenv beside the newest Hypothesis, used from a project of
    one's own: the plugin comes with it (an entry point), a user's @given test draws
    ``models()``, ``assert_roundtrips`` survives a segfaulting frontend, the installed
    conformance suite runs, and a plain @given test draws exactly as without Roundtrip."""
    project = tmp_path / "project"
    project.mkdir()
    venv = project / ".venv"  # where many projects keep theirs: its site-packages is under the project
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # Its own Roundtrip and Hypothesis; torch, pytest and the rest from this environment,
    # after them (a .pth line: no multi-GB torch installed again).
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                           "--target", str(site), str(wheel), "hypothesis", "sortedcontainers", "attrs"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    import sysconfig

    (site / "zz-parent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (project / "test_user.py").write_text(textwrap.dedent(USER_TESTS))
    (project / "test_plain.py").write_text(textwrap.dedent(PLAIN_TESTS))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ROUNDTRIP_", "PYTHONPATH"))}
    env.update(PYTHONPATH=str(project), ROUNDTRIP_MAX_EXAMPLES="4")

    def pytest(*args: str, draws: str = "draws.jsonl") -> subprocess.CompletedProcess:
        return subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=project,
                              env={**env, "DRAWS": str(project / draws)}, capture_output=True, text=True, timeout=600)

    version = subprocess.run([str(python), "-c", "import hypothesis, suites; print(hypothesis.__version__, suites.__file__)"],
                             cwd=project, env=env, capture_output=True, text=True)
    newest, where = version.stdout.split()
    assert where.startswith(str(site)) and newest != "6.155.2", version.stdout + version.stderr
    mine = pytest(".")  # the user's whole project, its .venv (and Roundtrip in it) included
    assert mine.returncode == 0 and "4 passed" in mine.stdout, mine.stdout[-3000:] + mine.stderr[-2000:]
    assert not (project / "reports").exists()  # a session of the user's own tests leaves nothing behind
    without = pytest("test_plain.py", "-p", "no:roundtrip", draws="plain.jsonl")
    assert without.returncode == 0, without.stdout[-2000:]
    drawn = (project / "draws.jsonl").read_text()
    assert len(drawn.splitlines()) == 40 and drawn == (project / "plain.jsonl").read_text()
    suite = pytest("--pyargs", "suites.test_conformance", "--backend", "reference")
    assert suite.returncode == 0 and "passed" in suite.stdout, suite.stdout[-3000:] + suite.stderr[-2000:]
    assert (project / "reports" / "latest" / "findings.json").is_file()
    assert not (site / "reports" / "latest").exists()



def test_the_core_torch_dependency_admits_the_newest_release() -> None:
    """A team on the newest torch installs Roundtrip beside it: the core dependency has no
    upper bound (the corpus replay informs off the pins); the tensorrt extra keeps
    Torch-TensorRT's own bound through its pin, and the cpu extra the pinned wheel."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    [torch] = [Requirement(r) for r in project["dependencies"] if Requirement(r).name == "torch"]
    assert not any(spec.operator in ("<", "<=", "==", "~=") for spec in torch.specifier), torch
    assert torch.specifier.contains("99.0")
    extras = project["optional-dependencies"]
    assert any(Requirement(r).name == "torch-tensorrt" and "==" in str(Requirement(r).specifier) for r in extras["tensorrt"])
    assert "torch==2.13.0" in extras["cpu"]
