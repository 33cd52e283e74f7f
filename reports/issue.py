"""An open entry as an issue for its frontend's tracker (``python -m reports.corpus
render``): the versions, the reproducer and its output here and now, expected vs actual,
and what to search for first.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from harness.registry import load_backend
from harness.signature import Signature
from harness.versions import frontend_versions

from .entries import Entry, load_entries
from .releases import summary as releases_summary
from .reproducer import title
from .verify import Run, expected_error, last_error, run_reproducer

__all__ = ["render_all", "render_report", "search_terms"]


def search_terms(meta: dict[str, Any], tracker: str) -> list[str]:
    """Queries for the tracker's issue search that would find this bug if it is on file."""
    what = Signature.from_text(meta["signature"]).what
    ops = " ".join(meta.get("ops") or ())
    if meta["outcome"] == "mismatch":
        words = re.sub(r"torch\.|->|[:()]", " ", what)
        words = " ".join(w for w in words.split() if w not in ("values", "state"))
    else:
        message = what.split(":", 1)[-1]
        words = " ".join(w for w in re.findall(r"[A-Za-z_][\w.]+", message) if w not in ("N", "NAME", "ADDR"))[:80]
    terms = [f"repo:{tracker} is:issue {ops} {words}".strip()]
    if meta["outcome"] != "mismatch":
        terms.append(f"repo:{tracker} is:issue \"{expected_error(meta)}\" {ops}".strip())
    return terms


def render_report(entry: Entry, run: Run | None = None) -> str:
    """A GitHub issue for the frontend's tracker: title, versions, the reproducer, its
    real output (run here and now unless ``run`` is given), expected vs actual with the
    numbers, and what to search for first."""

    meta = entry.meta
    backend = load_backend(meta["backend"])
    run = run or run_reproducer(entry)
    env = "\n".join(f"- {k}: {v}" for k, v in frontend_versions(backend).items())
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
                f"- actual: {meta['outcome']} at stage `{meta.get('stage', '?')}`: `{last_error(run.output) or meta['headline']}`"]
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
    versions = frontend_versions(load_backend("reference"))
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
