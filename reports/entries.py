"""The corpus's store: one directory per bug under ``reports/corpus/``, its form on disk,
and how an entry is saved and read.

Each entry holds ``case.json`` (the shrunk spec), ``repro.py`` (a standalone script:
torch and the frontend only; exits 1 while the bug reproduces, 0 once it is gone) and
``meta.json`` (backend, options, outcome, signature, status, upstream links, versions,
how many examples hit it). Many examples of one bug share a signature and so one
entry; concurrent writers (xdist workers) serialise on a lock file and write each file
atomically.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.subjects import Subject, kind_of, subject_from_json
from harness.versions import versions

from .reproducer import subject_reproducer

__all__ = ["CORPUS", "STATUSES", "CorpusError", "Entry", "entry_id", "load_entries", "load_entry", "locked",
           "save_finding", "write_atomic"]

#: The tracked corpus: every function's default. A run's own (``--corpus``,
#: ``ROUNDTRIP_CORPUS``: the self-tests use a temp dir) comes from ``harness.config``.
CORPUS = Path(__file__).resolve().parent / "corpus"
STATUSES = ("open", "fixed", "unverified")
_META_FIELDS = {"id": str, "backend": str, "options": dict, "outcome": str, "signature": str, "status": str,
                "headline": str, "upstream": list, "versions": dict, "count": int}


class CorpusError(ValueError):
    """A corpus file that cannot be read: names the file and the field."""


@dataclass(frozen=True)
class Entry:
    path: Path
    meta: dict[str, Any]
    #: A generated case, or a drawn architecture (``strategies.architectures``).
    case: Subject

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def notes(self) -> str:
        """The investigation behind the entry's row (``notes.md`` without its title), or empty."""
        path = self.path / "notes.md"
        if not path.exists():
            return ""
        return " ".join(line for line in path.read_text().splitlines() if not line.startswith("# ")).strip()


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` whole, so that a reader (another worker, a killed run's next one)
    never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


@contextlib.contextmanager
def locked(corpus: Path) -> Iterator[None]:
    """The corpus's lock: xdist workers that hit one bug at once would each create its entry."""
    corpus.mkdir(parents=True, exist_ok=True)
    with open(corpus / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def entry_id(backend: str, signature: str) -> str:
    return f"{backend}-{hashlib.sha1(signature.encode()).hexdigest()[:10]}"


# -- writing and reading entries -------------------------------------------------------


def save_finding(failure: Any, corpus: Path = CORPUS, *, status: str = "open",
                 upstream: list[str] | None = None, entry: str | None = None, row: str | None = None,
                 origin: str | None = None) -> Path:
    """Record a shrunk failure as one entry per signature; count repeat examples.
    ``row``: the known-table row this entry is the evidence for; ``origin``: how the case
    was found when the suite's search did not find it. A user's own model (``python -m
    suites check``) gets an entry of the same form, its ``model.json`` naming the factory
    in place of ``case.json``, outside the corpus the suite replays."""

    verdict = failure.verdict
    signature = verdict.signature()
    directory = corpus / (entry or entry_id(verdict.backend, signature))
    with locked(corpus):
        meta_path = directory / "meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            meta["count"] += 1
            write_atomic(meta_path, json.dumps(meta, indent=1, sort_keys=True))
            return directory
        backend = failure.backend
        meta = {
            "id": directory.name, "backend": failure.backend_spec, "options": failure.options,
            "outcome": verdict.outcome, "stage": verdict.staged, "signature": signature, "status": status,
            "headline": verdict.headline(), "ops": failure.case.ops(), "upstream": upstream or [],
            "versions": {**versions(), "frontend": backend.version()}, "count": 1,
            "message": verdict.message[:2000], "differences": [d.to_dict() for d in verdict.differences[:5]], "notes": verdict.notes,
        }
        if verdict.sizes:  # a dynamic case: each size it ran at, the last where it stopped
            meta["sizes"] = verdict.sizes
        if row is not None:
            meta["row"] = row
        if origin is not None:
            meta["origin"] = origin
        # A new entry is written aside and renamed into place, so that an interrupted
        # run (Ctrl-C, a killed worker) never leaves a half-written entry behind.
        for stale in corpus.glob(".*.new"):  # left by a process killed mid-write
            shutil.rmtree(stale, ignore_errors=True)
        staging = corpus / f".{directory.name}.{os.getpid()}.new"
        staging.mkdir()
        try:
            kind = kind_of(failure.case)
            (staging / kind.file_name).write_text(kind.to_json(failure.case))
            (staging / "repro.py").write_text(subject_reproducer(failure.case, backend, failure.options, meta))
            (staging / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
            if directory.exists():  # an incomplete entry (no meta.json): replaced whole
                shutil.rmtree(directory)
            os.rename(staging, directory)
        except BaseException:  # KeyboardInterrupt included
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return directory


def load_entry(directory: Path) -> Entry:
    """One entry; a missing or malformed field raises ``CorpusError`` naming it."""
    meta_path, case_path = directory / "meta.json", directory / "case.json"
    if not case_path.exists() and (directory / "model.json").exists():
        case_path = directory / "model.json"  # a real model's finding (``python -m suites check``): its factory
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CorpusError(f"{meta_path}: cannot be read as JSON: {exc}") from exc
    for name, kind in _META_FIELDS.items():
        if not isinstance(meta.get(name), kind):
            raise CorpusError(f"{meta_path}: field {name!r} is missing or not a {kind.__name__}")
    if meta["status"] not in STATUSES:
        raise CorpusError(f"{meta_path}: field 'status' is {meta['status']!r}, not one of {STATUSES}")
    try:
        case = subject_from_json(case_path.read_text())
    except (OSError, ValueError) as exc:
        raise CorpusError(f"{case_path}: {exc}") from exc
    return Entry(directory, meta, case)


def load_entries(corpus: Path = CORPUS) -> list[Entry | CorpusError]:
    """Every entry, in name order; an unreadable one is returned as its error."""
    found: list[Entry | CorpusError] = []
    # Hidden directories are entries being written (see save_finding).
    entries = [p for p in corpus.iterdir() if p.is_dir() and not p.name.startswith(".")] if corpus.exists() else []
    for directory in sorted(entries):
        try:
            found.append(load_entry(directory))
        except CorpusError as exc:
            found.append(exc)
    return found
