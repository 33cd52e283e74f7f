"""The regression corpus: one directory per bug under ``reports/corpus/``.

A run never writes it: a failing run files its shrunk case under its reports
(``harness.config.Config.untriaged``, the same form as an entry), and the case stays a
failure on every run until a person triages it and ``add`` copies it in, naming the row
that explains it (or saying why it has none). Only such an entry counts as a known bug.

Each entry holds ``case.json`` (the shrunk spec), ``repro.py`` (a standalone script:
torch and the frontend only; exits 1 while the bug reproduces, 0 once it is gone) and
``meta.json`` (backend, options, outcome, signature, status, upstream links, versions,
how many examples hit it). Many examples of one bug share a signature and so one
entry; concurrent writers (xdist workers) serialise on a lock file and write each file
atomically.

    python -m reports.corpus list
    python -m reports.corpus add FINDING --row ROW  # triaged: a run's finding joins the corpus (or --triaged WHY)
    python -m reports.corpus verify [ENTRY...]   # re-run the reproducers: reproduces, gone, broken
    python -m reports.corpus render ENTRY        # a GitHub-issue-ready report (runs the reproducer)
    python -m reports.corpus render --all DIR    # one report per open entry, and an index by tracker
    python -m reports.corpus rows                # each bug row: its entry, or why it has none
    python -m reports.corpus file ROW --backend B --case JSON  # file a hand-written case for a row
    python -m reports.corpus refresh [ENTRY...]  # simplify an entry's inputs, rewrite its reproducer
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path
from typing import Any

from harness.config import Config
from harness.conformance import ConformanceFailure
from harness.known import KNOWN, TRT, Known, SignatureOnly, row
from harness.runner import load_backend
from harness.signature import Signature
from harness.simplify import simplified, simplify
from harness.subjects import Subject, kind_of, subject_from_json, subject_to_json
from harness.versions import versions
from harness.worker import Worker

from .releases import summary as releases_summary
from .reproducer import reproducer_source, subject_reproducer, title

__all__ = ["CORPUS", "CorpusError", "Entry", "add", "cpu_features", "triage_hint",
           "cpu_reason", "explains", "known_rows", "load_entries", "needs_entry", "open_rows",
           "render_report", "reproducer_source", "rows_without_entry", "save_finding"]

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


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


@contextlib.contextmanager
def _locked(corpus: Path) -> Iterator[None]:
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
    with _locked(corpus):
        meta_path = directory / "meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            meta["count"] += 1
            _write_atomic(meta_path, json.dumps(meta, indent=1, sort_keys=True))
            return directory
        backend = failure.backend
        meta = {
            "id": directory.name, "backend": failure.backend_spec, "options": failure.options,
            "outcome": verdict.outcome, "stage": verdict.stage, "signature": signature, "status": status,
            "headline": verdict.headline(), "ops": failure.case.ops(), "upstream": upstream or [],
            "versions": {**versions(), "frontend": backend.version()}, "count": 1,
            "message": verdict.message[:2000], "differences": verdict.differences[:5], "notes": verdict.notes,
        }
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


# -- the known table's evidence --------------------------------------------------------


def needs_entry(row: Any) -> bool:
    """A ``bug`` row of a frontend that runs on the CPU: it has an entry, or says why not.
    (A TensorRT row's reproducer cannot be run here: its entries stay ``unverified``.)"""
    return row.kind == "bug" and any(b not in TRT for b in row.backends)


def explains(row: Any, entry: Entry) -> bool:
    """``row`` matches the verdict ``entry`` recorded (its backend, stage and signature)."""
    meta = entry.meta
    return row.matches(SignatureOnly(meta["backend"], meta["outcome"], meta.get("stage", ""), meta.get("notes", []),
                                     meta["signature"]))


def rows_without_entry(known: Any = None, entries: list[Entry] | None = None) -> list[Any]:
    """The rows that need an entry (``needs_entry``) with neither an open entry naming
    them (meta ``row``) nor a reason in their ``no_entry``."""
    entries = entries if entries is not None else [e for e in load_entries() if isinstance(e, Entry)]
    backed = {e.meta.get("row") for e in entries if e.meta["status"] == "open"}
    return [k for k in known or KNOWN if needs_entry(k) and k.id not in backed and not k.no_entry]


def triaged(entry: Entry) -> bool:
    """A person has looked at it: it names the row that explains it, or says why it has none."""
    return bool(entry.meta.get("row") or entry.meta.get("triaged"))


def open_rows(entries: list[Entry | CorpusError] | None = None) -> tuple[Known, ...]:
    """Open, triaged entries are known bugs too: a row each, matching its recorded
    signature exactly (on the backend's spec and on the name its verdicts carry: a
    plugin's differ). An entry nobody triaged (copied in by hand) counts for nothing."""
    entries = load_entries() if entries is None else entries
    return tuple(
        Known(id=e.id, backends=(e.meta["backend"], Signature.parse(e.meta["signature"]).backend), kind="bug",
              signature=e.meta["signature"], reason=e.meta["headline"], link=" ".join(e.meta["upstream"]))
        for e in entries if isinstance(e, Entry) and e.meta["status"] == "open" and triaged(e)
    )


def known_rows(corpus: Path = CORPUS) -> tuple[Known, ...]:
    """What the suite matches a verdict against: the table, then the corpus's open entries."""
    return (*KNOWN, *open_rows(load_entries(corpus)))


def add(finding: Path, corpus: Path = CORPUS, *, row_id: str | None = None, why: str | None = None) -> Path:
    """The corpus's one door for a run's finding: once a person has looked at it, it is
    copied in under its id, naming ``row_id`` (which must explain its verdict) or marked
    triaged with ``why`` it has no row. Raises ``ValueError`` saying what is wrong."""
    if (row_id is None) == (why is None):
        raise ValueError("name the row that explains the finding (--row) or say why it has none (--triaged)")
    entry = load_entry(finding)
    if row_id is not None:
        try:
            target = row(row_id)
        except KeyError as exc:
            raise ValueError(str(exc)) from None
        if not explains(target, entry):
            raise ValueError(f"row {row_id} does not explain {entry.id}: {entry.meta['signature']}")
    destination = corpus / entry.id
    with _locked(corpus):
        if destination.exists():
            raise ValueError(f"{destination} is in the corpus already: count or edit it there")
        staging = corpus / f".{entry.id}.{os.getpid()}.new"
        shutil.copytree(finding, staging)
        meta = {**entry.meta, **({"row": row_id} if row_id is not None else {"triaged": why})}
        (staging / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        os.rename(staging, destination)
    return destination


def triage_hint(finding: Path) -> str:
    """What a failing test says of the finding it filed, and how it joins the corpus."""
    return (f"  finding: {finding} (reproducer: {finding / 'repro.py'}); a failure on every run until triaged:\n"
            f"  python -m reports.corpus add {finding} --row ROW   (or --triaged WHY: a bug no row names yet)")


# -- the environment of a finding -----------------------------------------------------


def cpu_reason(meta: dict[str, Any], cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """Why an entry's bug cannot show on this CPU (a kernel only some instruction sets
    take, meta ``cpu_flags``; one they replace, ``cpu_flags_absent``), or empty where it can
    or the CPU cannot be read."""
    wanted = meta.get("cpu_flags") or []
    flags = _cpu_flags(cpuinfo)
    if flags is None:
        return ""
    missing = [f for f in wanted if f not in flags]
    if missing:
        return f"reproduces only on CPUs with {', '.join(wanted)}; this one lacks {', '.join(missing)}"
    # A kernel the instruction set replaces (OpenVINO's bf16 path on AVX512-BF16): meta ``cpu_flags_absent``.
    present = [f for f in meta.get("cpu_flags_absent") or [] if f in flags]
    return f"reproduces only on CPUs without {', '.join(present)}; this one has it" if present else ""


#: The instruction-set features Inductor's and OpenVINO's CPU kernels choose by.
KERNEL_FEATURES = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8")


def _cpu_flags(cpuinfo: Path) -> set[str] | None:
    """The CPU's feature flags, or ``None`` where they cannot be read."""
    try:
        return set(next(line for line in cpuinfo.read_text().splitlines() if line.startswith("flags")).split())
    except (OSError, StopIteration):
        return None


def cpu_features(cpuinfo: Path = Path("/proc/cpuinfo")) -> list[str]:
    """Which of ``KERNEL_FEATURES`` this CPU has (empty where it cannot be read)."""
    flags = _cpu_flags(cpuinfo) or set()
    return [f for f in KERNEL_FEATURES if f in flags]


def environment(backend: Any) -> dict[str, str]:
    """Python, torch, the frontend under test and its direct dependencies, installed
    versions: what its maintainers ask for, nothing of the other frontends."""
    found = {"python": platform.python_version(), "machine": platform.machine()}
    frontend = [backend.distribution, *backend.packages]
    for dist in ["torch", *frontend]:
        try:
            found[dist] = version(dist)
        except PackageNotFoundError:
            continue
    for dist in frontend:
        try:
            needs = requires(dist) or []
        except PackageNotFoundError:
            continue
        for requirement in needs:
            if "extra ==" in requirement:
                continue
            name = re.split(r"[ ;<>=!~\[(]", requirement.strip(), maxsplit=1)[0]
            try:
                found.setdefault(name, version(name))
            except PackageNotFoundError:
                pass
    return found


# -- re-running reproducers ------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run of an entry's ``repro.py``: what it printed and what that means."""

    verdict: str  # "reproduces" | "gone" | "broken" | "skipped"
    returncode: int | None
    output: str
    why: str = ""


#: Seconds a recorded hang is given to answer, when its case is replayed
#: (suites/test_corpus.py) or its reproducer run: the case, once fixed, answers within
#: seconds (the models are a few ops); waiting the whole case timeout (180 s in the ci
#: profile, 600 s in a reproducer) only made the hang the slowest thing to check.
HANG_REPLAY_SECONDS = 30.0


def run_reproducer(entry: Entry, timeout: float = 600) -> Run:
    """Run ``repro.py`` standalone and say whether the recorded bug reproduces: the same
    error (crash), the failed comparison (mismatch), the same signal (a native crash),
    or no end (hang, within ``HANG_REPLAY_SECONDS``). Any other error is a broken reproducer."""

    reason = load_backend(entry.meta["backend"]).unavailable_reason() or cpu_reason(entry.meta)
    if reason:
        return Run("skipped", None, "", reason)
    hang = entry.meta["outcome"] == "hang"
    limit = min(timeout, HANG_REPLAY_SECONDS) if hang else timeout
    # Its own session: a reproducer runs the frontend in a child of its own, which a
    # timeout must end too.
    with subprocess.Popen([sys.executable, "repro.py"], cwd=entry.path, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as done:
        try:
            stdout, stderr = done.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(done.pid, signal.SIGKILL)
            stdout, _ = done.communicate()
            return Run("reproduces" if hang else "broken", None, _quiet(stdout), f"no end within {limit:.0f} s")
    output = _quiet(stdout + stderr)
    if done.returncode == 0:
        return Run("gone", 0, output, "ran to the end: no error, no difference")
    expected = _expected_error(entry.meta)
    last = _last_error(output)
    ended = re.search(r"the frontend's process ended with (SIG\w+)", output)  # see reproducer._IN_A_CHILD
    if ended or done.returncode < 0:
        name = ended.group(1) if ended else signal.Signals(-done.returncode).name
        ok = f"signal {name}" in entry.meta.get("message", "")
        return Run("reproduces" if ok else "broken", done.returncode, output, f"died of signal {name}")
    if entry.meta["outcome"] == "hang":
        ok = "TimeoutExpired" in output
        return Run("reproduces" if ok else "broken", done.returncode, output, _last_error(output))
    if entry.meta["outcome"] == "mismatch":
        ok = last.startswith("AssertionError")
    else:
        ok = bool(expected) and expected in output  # a long message (every overload tried) pushes it far up
    return Run("reproduces" if ok else "broken", done.returncode, output,
               last if ok else f"expected {expected or 'a failed comparison'}, got {last or 'no error'}")


def _quiet(output: str) -> str:
    """Without TVM's per-build warnings, which say nothing about the bug."""
    return "\n".join(line for line in output.splitlines()
                     if not re.search(r"Warning: (BlockBuilder destroyed|Fast mode segfaults)", line)) + "\n"


def _expected_error(meta: dict[str, Any]) -> str:
    """The error type a crash entry recorded (``backend/stage/crash/Type: ...``)."""
    signature = Signature.parse(meta["signature"])
    return signature.what.split(":", 1)[0] if meta["outcome"] != "mismatch" and ":" in signature.what else ""


def _last_error(output: str) -> str:
    """The last ``module.Type: message`` line of a traceback, as ``Type: message``."""
    found = ""
    for line in output.splitlines():
        match = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Failure|Failed|Interrupt))\b(.*)$", line)
        if match:
            found = match.group(1).rsplit(".", 1)[-1] + match.group(2)
    return found


# -- the upstream report ---------------------------------------------------------------


def search_terms(meta: dict[str, Any], tracker: str) -> list[str]:
    """Queries for the tracker's issue search that would find this bug if it is on file."""
    what = Signature.parse(meta["signature"]).what
    ops = " ".join(meta.get("ops") or ())
    if meta["outcome"] == "mismatch":
        words = re.sub(r"torch\.|->|[:()]", " ", what)
        words = " ".join(w for w in words.split() if w not in ("values", "state"))
    else:
        message = what.split(":", 1)[-1]
        words = " ".join(w for w in re.findall(r"[A-Za-z_][\w.]+", message) if w not in ("N", "NAME", "ADDR"))[:80]
    terms = [f"repo:{tracker} is:issue {ops} {words}".strip()]
    if meta["outcome"] != "mismatch":
        terms.append(f"repo:{tracker} is:issue \"{_expected_error(meta)}\" {ops}".strip())
    return terms


def render_report(entry: Entry, run: Run | None = None) -> str:
    """A GitHub issue for the frontend's tracker: title, versions, the reproducer, its
    real output (run here and now unless ``run`` is given), expected vs actual with the
    numbers, and what to search for first."""

    meta = entry.meta
    backend = load_backend(meta["backend"])
    run = run or run_reproducer(entry)
    env = "\n".join(f"- {k}: {v}" for k, v in environment(backend).items())
    output = "\n".join(run.output.strip().splitlines()[-40:]) or "(nothing)"
    shown = [line for line in run.output.splitlines() if re.match(rf"^(eager|{re.escape(backend.name)}):", line)]
    if meta["outcome"] == "mismatch":
        what = [f"- at `output{d['path']}`" if not d["path"].startswith("state") else f"- at `{d['path']}`"
                for d in meta.get("differences", [])[:1]]
        what = [f"{w} ({d['kind']}): expected {d['expected']}, got {d['actual']}. {d.get('detail', '')}".strip()
                for w, d in zip(what, meta.get("differences", []), strict=False)]
        what += [f"- `{line.strip()}`" for line in shown]
    else:
        what = [f"- expected: the same result as eager PyTorch (`{shown[0].split(':', 1)[1].strip()}`)"
                if shown else "- expected: the same result as eager PyTorch",
                f"- actual: {meta['outcome']} at stage `{meta.get('stage', '?')}`: `{_last_error(run.output) or meta['headline']}`"]
    related = "\n".join(f"- {link}" for link in meta["upstream"]) or "- none known to Roundtrip"
    searched = meta.get("searched")
    if searched:  # what was tried, and what came of it (python -m reports.audit checks every row has it)
        searches = "\n".join(f"- `{q['query']}` in {q['tracker']}: {q['result']}" + (f" ({q['found']})" if q["found"] else "")
                              for q in searched["queries"])
        searches = (f"Searched on {searched['date']}: {searched['result']}."
                    + (f" {searched['note']}" if searched.get("note") else "") + f"\n{searches}")
        related += "".join(f"\n- {link} (related)" for link in searched.get("related", []))
    else:
        searches = "Search first:\n" + "\n".join(f"- `{t}`" for t in search_terms(meta, backend.tracker))
    repro = (entry.path / "repro.py").read_text()
    found = ("Found and minimised by Roundtrip" if "origin" not in meta
             else f"Case {meta['origin']}, checked and simplified by Roundtrip")
    status = {"reproduces": "reproduces", "gone": "does NOT reproduce any more", "broken": "is broken",
              "skipped": "was not run"}[run.verdict]
    releases = releases_summary(entry.id, frontend=backend.distribution)
    releases = f"\n\nReplayed by Roundtrip under each version set it was run on: {releases}." if releases else ""
    return f"""\
# {title(meta)}

## Environment
{env}

## Reproducer
Needs only torch and the frontend; exits 1 while the bug reproduces.

```python
{repro}```

## Output
Here and now the reproducer {status} (exit code {run.returncode}{'; ' + run.why if run.why else ''}).{releases}

```
{output}
```

## Expected vs actual
{chr(10).join(what)}

## Already reported?
{searches}

Related:
{related}

<sub>{found}: `{meta['signature']}`, {meta['count']} example(s).</sub>
"""


def render_all(directory: Path, entries: list[Entry] | None = None) -> Path:
    """One report per open entry (``ID.md``, its reproducer run here and now) and
    ``index.md``: the entries grouped by the tracker they go to, then by frontend, so
    that the maintainers of one frontend read one list. Returns the index's path."""

    entries = entries if entries is not None else [e for e in load_entries() if isinstance(e, Entry)]
    entries = [e for e in entries if e.meta["status"] == "open"]
    directory.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) // 2)) as pool:
        runs = list(pool.map(run_reproducer, entries))
    trackers: dict[str, dict[str, list[str]]] = {}
    for entry, run in zip(entries, runs, strict=True):
        (directory / f"{entry.id}.md").write_text(render_report(entry, run))
        backend = entry.meta["backend"]
        lines = len((entry.path / "repro.py").read_text().splitlines())
        row = f"- [{title(entry.meta)}]({entry.id}.md): {run.verdict} here and now, {lines}-line reproducer" + (
            f", row `{entry.meta['row']}`" if entry.meta.get("row") else "") + (
            f", case {entry.meta['origin']} (the search did not reach it)" if "origin" in entry.meta else "")
        trackers.setdefault(load_backend(backend).tracker, {}).setdefault(backend, []).append(row)
    versions = environment(load_backend("reference"))
    text = ["# Open bugs on file", "",
            f"{len(entries)} open entries of the regression corpus, each with a standalone reproducer "
            f"(torch {versions.get('torch', '?')}, Python {versions['python']}). Written by "
            f"`python -m reports.corpus render --all {directory}`.", ""]
    for tracker, backends in sorted(trackers.items()):
        text += [f"## {tracker} ({sum(map(len, backends.values()))})", ""]
        for backend, rows in sorted(backends.items()):
            text += [f"### {backend}", "", *rows, ""]
    index = directory / "index.md"
    index.write_text("\n".join(text))
    return index


def refresh(entry: Entry, run_case: Any | None = None) -> Entry:
    """Simplify the entry's case (its signature kept, on the installed frontend) and
    write its reproducer anew."""

    meta = dict(entry.meta)
    backend = load_backend(meta["backend"])
    if not kind_of(entry.case).generated:  # nothing to simplify: only the reproducer is rewritten
        _write_atomic(entry.path / "repro.py", subject_reproducer(entry.case, backend, meta["options"], meta))
        return load_entry(entry.path)
    case = entry.case.pruned()
    if run_case is not None and not backend.unavailable_reason():
        verdict = run_case(case, meta["options"])
        if verdict.signature() == meta["signature"]:
            case = simplify(case, meta["options"], run_case, meta["signature"])
            verdict = run_case(case, meta["options"])
            meta.update(differences=verdict.differences[:5], headline=verdict.headline(), ops=case.ops(),
                        stage=verdict.stage, message=verdict.message[:2000])
    _write_atomic(entry.path / "case.json", subject_to_json(case))
    _write_atomic(entry.path / "meta.json", json.dumps(meta, indent=1, sort_keys=True))
    _write_atomic(entry.path / "repro.py", reproducer_source(case, backend, meta["options"], meta))
    return load_entry(entry.path)


def _selected(names: list[str], corpus: Path) -> list[Entry]:
    entries = [e for e in load_entries(corpus) if isinstance(e, Entry)]
    return [e for e in entries if not names or e.id in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.corpus", description="The regression corpus.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="one line per entry")
    add_ = sub.add_parser("add", help="a run's finding, triaged, joins the corpus: the only door")
    add_.add_argument("finding", type=Path, help="the finding's directory (the run's reports/untriaged/ID)")
    door = add_.add_mutually_exclusive_group(required=True)
    door.add_argument("--row", help="the row of harness.known that explains it (it must)")
    door.add_argument("--triaged", metavar="WHY", help="no row explains it yet: why it is a bug all the same")
    render = sub.add_parser("render", help="a GitHub-issue-ready markdown report for one entry (runs its repro)")
    render.add_argument("entry", nargs="?", help="the entry's id (its directory name)")
    render.add_argument("--all", metavar="DIR", type=Path,
                        help="write one report per open entry into DIR, and DIR/index.md grouped by tracker")
    sub.add_parser("rows", help="each bug row of a CPU frontend: its entry, or why it has none; exit 1 if any has neither")
    verify = sub.add_parser("verify", help="re-run every reproducer against the installed versions")
    verify.add_argument("entries", nargs="*", help="entry ids (default: all)")
    refresh_ = sub.add_parser("refresh", help="simplify entries' inputs and write their reproducers anew")
    refresh_.add_argument("entries", nargs="*", help="entry ids (default: all)")
    file_ = sub.add_parser("file", help="file a case written by hand as a row's entry (where find cannot reach it)")
    file_.add_argument("row", help="the row's id in harness.known")
    file_.add_argument("--backend", required=True, help="built-in name or package.module:ClassName")
    file_.add_argument("--case", required=True, help="the case as JSON, or a path to a JSON file")
    file_.add_argument("--options", default="{}", help="frontend options as JSON (default {})")
    args = parser.parse_args(argv)
    config = Config.from_environment()
    corpus = config.corpus
    if args.command == "list":
        for item in load_entries(corpus):
            if isinstance(item, CorpusError):
                print(f"UNREADABLE {item}")
            else:
                m = item.meta
                print(f"{item.id:40} {m['status']:10} {m['count']:>4}x  {m['headline'][:90]}")
        return 0
    if args.command == "add":
        try:
            print(add(args.finding, corpus, row_id=args.row, why=args.triaged))
        except (ValueError, CorpusError) as exc:
            print(f"not added: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "render":
        if args.all:
            print(render_all(args.all, [e for e in load_entries(corpus) if isinstance(e, Entry)]))
            return 0
        if not args.entry:
            parser.error("render needs an entry id or --all DIR")
        print(render_report(load_entry(corpus / args.entry)))
        return 0
    if args.command == "rows":
        return _print_rows(corpus)
    if args.command == "verify":
        counts: dict[str, int] = {}
        for entry in _selected(args.entries, corpus):
            run = run_reproducer(entry)
            lines = len((entry.path / "repro.py").read_text().splitlines())
            counts[run.verdict] = counts.get(run.verdict, 0) + 1
            print(f"{entry.id:45} {entry.meta['status']:10} {run.verdict:11} {lines:>4} lines  {run.why[:90]}",
                  flush=True)
        print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
        return 1 if counts.get("broken") else 0
    worker = Worker(timeout=300, config=config)
    try:
        if args.command == "refresh":
            for entry in _selected(args.entries, corpus):
                spec = entry.meta["backend"]
                entry = refresh(entry, lambda case, options, spec=spec: worker.run(spec, case, options))
                print(f"{entry.id}: {len((entry.path / 'repro.py').read_text().splitlines())} lines", flush=True)
            return 0
        text = Path(args.case).read_text() if not args.case.lstrip().startswith("{") else args.case
        return _file(args.row, args.backend, subject_from_json(text), json.loads(args.options), worker, config)
    finally:
        worker.close()


def _file(row_id: str, backend_spec: str, case: Subject, options: dict[str, Any], worker: Any, config: Config) -> int:
    """Run a hand-written case; if the row explains its verdict, simplify its inputs and
    file it as the row's entry, marked as written by hand."""

    target = row(row_id)
    verdict = worker.run(backend_spec, case, options)
    if not target.matches(verdict):
        print(f"{row_id} does not explain this case's verdict: {verdict.outcome} {verdict.signature()}")
        return 1
    failure = ConformanceFailure(load_backend(backend_spec, config), backend_spec, case, options, verdict)
    failure = simplified(failure, lambda c, o: worker.run(backend_spec, c, o))
    print(f"{row_id}: {save_finding(failure, config.corpus, entry=row_id, row=row_id, origin='written by hand')}")
    return 0


def _print_rows(corpus: Path) -> int:
    entries = [e for e in load_entries(corpus) if isinstance(e, Entry) and e.meta["status"] == "open"]
    missing = {k.id for k in rows_without_entry(KNOWN, entries)}
    for k in KNOWN:
        if needs_entry(k):
            backing = [e.id for e in entries if e.meta.get("row") == k.id]
            why = ", ".join(backing) or (f"no entry: {k.no_entry}" if k.no_entry else "MISSING")
            print(f"{k.id:45} {why[:120]}")
    print(f"{sum(needs_entry(k) for k in KNOWN)} rows need an entry, {len(missing)} have neither an entry nor a reason")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
