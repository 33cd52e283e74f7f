"""The GitHub workflows never run here (GitHub is out of reach): they are checked
against GitHub's workflow schema and audited by zizmor, both offline, so that a broken
or unsafe workflow fails CI here as it would there."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WORKFLOWS = sorted((Path(__file__).parent.parent / ".github" / "workflows").glob("*.yml"))


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_there_are_workflows():
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "nightly-cpu.yml", "nightly-gpu.yml", "nightly-latest.yml"}


def test_workflows_match_githubs_schema():
    run = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_zizmor_finds_nothing_of_high_severity():
    # Pinned actions, no persisted credentials, least-privilege permissions.
    run = subprocess.run([_tool("zizmor"), "--offline", "--min-severity", "high", *map(str, WORKFLOWS)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
