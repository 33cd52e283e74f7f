"""The regression corpus: one directory per bug under ``reports/corpus/``.

Each entry holds ``case.json`` (the shrunk spec), ``repro.py`` (a standalone script:
torch and the frontend only; exits 1 while the bug reproduces, 0 once it is gone) and
``meta.json`` (backend, options, outcome, signature, status, upstream links, versions,
how many examples hit it). Many examples of one bug share a signature and so one
entry; concurrent writers (xdist workers) serialise on a lock file and write each file
atomically.

    python -m reports.corpus list
    python -m reports.corpus render ENTRY     # a markdown bug report, ready to file
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategies import Case, case_from_json, case_to_json, to_source

__all__ = ["CORPUS", "CorpusError", "Entry", "load_entries", "render_report", "reproducer_source", "save_finding"]

#: The tracked corpus; ROUNDTRIP_CORPUS points elsewhere (the self-tests use a temp dir).
CORPUS = Path(os.environ.get("ROUNDTRIP_CORPUS", Path(__file__).parent / "corpus"))
STATUSES = ("open", "fixed", "unverified")
_META_FIELDS = {"id": str, "backend": str, "options": dict, "outcome": str, "signature": str, "status": str,
                "headline": str, "upstream": list, "versions": dict, "count": int}


class CorpusError(ValueError):
    """A corpus file that cannot be read: names the file and the field."""


@dataclass(frozen=True)
class Entry:
    path: Path
    meta: dict[str, Any]
    case: Case

    @property
    def id(self) -> str:
        return self.meta["id"]


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


# -- the standalone reproducer ---------------------------------------------------------

_CHECK = '''
def differences(expected, actual, path="", nesting=NESTING):
    """Where the frontend's output differs from eager PyTorch's (path, what)."""
    if isinstance(expected, torch.Tensor):
        if not isinstance(actual, torch.Tensor):
            return [(path, f"expected a {expected.dtype} tensor, got {type(actual).__name__} {actual!r}")]
        if actual.dtype != expected.dtype or actual.shape != expected.shape:
            return [(path, f"expected {expected.dtype}{tuple(expected.shape)}, got {actual.dtype}{tuple(actual.shape)}")]
        try:
            torch.testing.assert_close(actual.cpu(), expected, rtol=TOLERANCE.get(expected.dtype, (0, 0))[0],
                                       atol=TOLERANCE.get(expected.dtype, (0, 0))[1], equal_nan=True)
        except AssertionError as error:
            return [(path, "values differ: " + " ".join(str(error).split())[:300])]
        return []
    if isinstance(expected, (dict, tuple, list)):
        if nesting:
            ok = isinstance(actual, (tuple, list)) and len(actual) == len(expected)
            pairs = zip(expected.values() if isinstance(expected, dict) else expected, actual) if ok else ()
            keys = list(expected) if isinstance(expected, dict) else range(len(expected))
        else:
            ok = type(actual) is type(expected) and len(actual) == len(expected) and (
                not isinstance(expected, dict) or list(actual) == list(expected))
            keys = list(expected) if isinstance(expected, dict) else range(len(expected))
            pairs = zip(expected.values() if isinstance(expected, dict) else expected,
                        actual.values() if isinstance(actual, dict) else actual) if ok else ()
        if not ok:
            return [(path, f"expected {type(expected).__name__} of {len(expected)}, got {type(actual).__name__} "
                           f"{actual!r:.200}")]
        return [d for k, (e, a) in zip(keys, pairs) for d in differences(e, a, f"{path}[{k!r}]", nesting)]
    if type(actual) is not type(expected) or actual != expected:
        return [(path, f"expected {type(expected).__name__} {expected!r}, got {type(actual).__name__} {actual!r}")]
    return []
'''

_MAIN = '''\
model = make_model()
args, kwargs = make_inputs()
expected = model(*args, **kwargs)
expected_state = dict(model.named_buffers()), args, kwargs
# A fresh model and inputs: forward may mutate buffers and inputs in place.
model = make_model()
args, kwargs = make_inputs()
actual = compile_and_run(model, args, kwargs, OPTIONS)
found = differences(expected, actual, "output")
# What forward left in the buffers and the inputs, after the one call.
found += differences(expected_state, (dict(model.named_buffers()), args, kwargs), "state", nesting=False)
for path, what in found:
    print(f"{path}: {what}")
print("BUG REPRODUCES" if found else "no difference: the bug is gone")
sys.exit(1 if found else 0)
'''


def reproducer_source(case: Case, backend: Any, options: dict[str, Any]) -> str:
    """``to_source(case)`` plus the frontend call of ``backend`` and the check."""
    from suites.backends.base import Contract
    from suites.oracle import TOLERANCES

    tolerances = ", ".join(f"{dtype}: {tol!r}" for dtype, tol in TOLERANCES.items())
    header = (
        f"# Reproducer for {backend.name} ({backend.version()}): exits 1 while the bug reproduces.\n"
        "import sys\n"
        f"OPTIONS = {json.dumps(options, sort_keys=True)}\n"
        f"NESTING = {backend.contract is Contract.NESTING}\n"
    )
    script = to_source(case, main=_MAIN)
    body = (
        f"TOLERANCE = {{{tolerances}}}\n{_CHECK}\n\n{backend.reproducer.strip()}\n"
    )
    marker = '\n\nif __name__ == "__main__":'
    head, _, tail = script.partition(marker)
    return header + head + "\n\n" + body + marker + tail


# -- writing and reading entries -------------------------------------------------------


def save_finding(failure: Any, corpus: Path = CORPUS, *, status: str = "open",
                 upstream: list[str] | None = None, entry: str | None = None) -> Path:
    """Record a shrunk failure as one entry per signature; count repeat examples."""
    from reports.summary import versions
    from suites.runner import load_backend

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
        backend = load_backend(failure.backend_spec)
        meta = {
            "id": directory.name, "backend": failure.backend_spec, "options": failure.options,
            "outcome": verdict.outcome, "stage": verdict.stage, "signature": signature, "status": status,
            "headline": verdict.headline(), "ops": failure.case.ops(), "upstream": upstream or [],
            "versions": {**versions(), "frontend": backend.version()}, "count": 1,
            "message": verdict.message[:2000], "differences": verdict.differences[:5],
        }
        # A new entry is written aside and renamed into place, so that an interrupted
        # run (Ctrl-C, a killed worker) never leaves a half-written entry behind.
        for stale in corpus.glob(".*.new"):  # left by a process killed mid-write
            shutil.rmtree(stale, ignore_errors=True)
        staging = corpus / f".{directory.name}.{os.getpid()}.new"
        staging.mkdir()
        try:
            (staging / "case.json").write_text(case_to_json(failure.case))
            (staging / "repro.py").write_text(reproducer_source(failure.case, backend, failure.options))
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
        case = case_from_json(case_path.read_text())
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


# -- the upstream report ---------------------------------------------------------------


def render_report(entry: Entry) -> str:
    """A markdown bug report for the frontend's issue tracker."""
    meta = entry.meta
    versions = "\n".join(f"- {k}: {v}" for k, v in sorted(meta["versions"].items()))
    what = "\n".join(
        f"- `output{d['path']}`: {d['kind']}: expected {d['expected']}, got {d['actual']}"
        for d in meta.get("differences", [])
    ) or f"```\n{meta.get('message', '')[:1500]}\n```"
    related = "\n".join(f"- {link}" for link in meta["upstream"]) or "- none found"
    repro = (entry.path / "repro.py").read_text()
    return f"""\
# [{meta['backend']}] {meta['outcome']}: {meta['headline']}

A model whose output is well defined in eager PyTorch comes back different through
`{meta['backend']}` (options: `{json.dumps(meta['options'], sort_keys=True)}`).

## Environment
{versions}

## Expected vs actual
Expected: what eager PyTorch returns for the same model and inputs.

{what}

## Reproducer
Needs only torch and the frontend; exits 1 while the bug reproduces.

```python
{repro}```

## Related reports
{related}

<sub>Found and minimised by Roundtrip (signature `{meta['signature']}`, {meta['count']} example(s)).</sub>
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.corpus", description="The regression corpus.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="one line per entry")
    render = sub.add_parser("render", help="a markdown upstream bug report for one entry")
    render.add_argument("entry", help="the entry's id (its directory name)")
    args = parser.parse_args(argv)
    if args.command == "list":
        for item in load_entries():
            if isinstance(item, CorpusError):
                print(f"UNREADABLE {item}")
            else:
                m = item.meta
                print(f"{item.id:40} {m['status']:10} {m['count']:>4}x  {m['headline'][:90]}")
        return 0
    entry = load_entry(CORPUS / args.entry)
    print(render_report(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
