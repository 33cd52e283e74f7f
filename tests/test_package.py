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

from suites.config import ROOT

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


def test_a_built_wheel_installs_imports_and_checks_a_model(tmp_path: Path) -> None:
    # From a copy: setuptools builds in the source's build/, where an earlier build's files
    # would be packed again.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__",
                                                                 ".roundtrip", "latest", ".hypothesis"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(wheels), str(source)], check=True, cwd=tmp_path,
                   capture_output=True, text=True)
    wheel, = wheels.glob("roundtrip-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("strategies/ops/base.py", "strategies/architectures/hf.py", "suites/backends/tvm.py",
                   "suites/ci-survey.json", "suites/ci-item-seconds.json", "reports/upstream-searches.json"):
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
