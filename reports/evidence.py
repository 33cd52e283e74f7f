"""The corpus as the known table's evidence: which bug rows an entry backs, the rows the
open, triaged entries add to the table, and ``add``, the one door a run's finding comes in
by once a person has triaged it (``python -m reports.corpus add``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from harness.known import KNOWN, TRT, Known, recorded, row
from harness.signature import Signature

from .entries import CORPUS, CorpusError, Entry, load_entries, load_entry, locked

__all__ = ["add", "explains", "known_rows", "needs_entry", "open_rows", "rows_without_entry", "triage_hint",
           "triaged"]


def needs_entry(row: Any) -> bool:
    """A ``bug`` row of a frontend that runs on the CPU: it has an entry, or says why not.
    (A TensorRT row's reproducer cannot be run here: its entries stay ``unverified``.)"""
    return row.kind == "bug" and any(b not in TRT for b in row.backends)


def explains(row: Any, entry: Entry) -> bool:
    """``row`` matches the verdict ``entry`` recorded (its backend, stage and signature)."""
    meta = entry.meta
    return row.matches(recorded(meta))


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
        Known(id=e.id, backends=(e.meta["backend"], Signature.from_text(e.meta["signature"]).backend), kind="bug",
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
    with locked(corpus):
        if destination.exists():
            raise ValueError(f"{destination} is in the corpus already: count or edit it there")
        staging = corpus / f".{entry.id}.{os.getpid()}.new"
        shutil.copytree(finding, staging)
        meta = {**entry.meta, **({"row": row_id} if row_id is not None else {"triaged": why})}
        (staging / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        if (staging / "model.json").exists():  # a real model's: its factory imports from the project's root
            model = json.loads((staging / "model.json").read_text())
            (staging / "model.json").write_text(json.dumps({**model, "path": ""}, sort_keys=True))
        os.rename(staging, destination)
    return destination


def triage_hint(finding: Path) -> str:
    """What a failing test says of the finding it filed, and how it joins the corpus."""
    return (f"  finding: {finding} (reproducer: {finding / 'repro.py'}); a failure on every run until triaged:\n"
            f"  python -m reports.corpus add {finding} --row ROW   (or --triaged WHY: a bug no row names yet)")
