"""What a run leaves in ``reports/latest/``: findings.json, summary.md, summary.html.

They are built from the journals every pytest process appends to as it records each
case (``journal-<process>.jsonl``, see ``harness.conformance.Recorder``): at the end of
the session, after Ctrl-C or SIGTERM, and, for a run killed outright (SIGKILL, a lost
machine), on demand:

    python -m reports.summary [reports/latest]
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from harness.config import Config
from harness.conformance import Recorder
from harness.signature import Outcome
from harness.versions import versions
from strategies import OPS, admitted_pairs

from .entries import CORPUS
from .page import BUDGET_HEADER, DYNAMIC_HEADER, STEERED_HEADER, budget_rows, dynamic_rows, render_page, steered_rows

__all__ = ["architecture_table", "end_session", "outcome_table", "pair_coverage", "rebuild", "write_latest"]

#: How the run ended, as the summary says it: the session wrote one of the first two
#: when it ended; a run with no such record was killed before it could.
STATUS = {
    "complete": "complete",
    "interrupted": "interrupted (Ctrl-C or SIGTERM): the counts are the cases each backend completed before it",
    "killed": "killed (no end of session recorded): rebuilt from the journals, the counts are the cases each "
              "backend completed",
}


def end_session(directory: Path, status: str) -> None:
    """Record how the session ended, in the controller's journal."""
    with open(directory / "journal-main.jsonl", "a") as out:
        out.write(json.dumps({"session": status}) + "\n")


def rebuild(directory: Path) -> tuple[Any, str]:
    """(the counts the journals add up to, how the run ended)."""
    journals = sorted(directory.glob("journal-*.jsonl"))
    status = "killed"
    main = directory / "journal-main.jsonl"
    if main.exists():
        for line in main.read_text().splitlines():
            try:
                status = json.loads(line).get("session", status)
            except json.JSONDecodeError:
                continue
    return Recorder.from_journals(journals), status


def _rows(recorder: Any) -> list[list[str]]:
    backends = sorted({b for b, _ in recorder.outcomes})
    rows = []
    for b in backends:
        counts = [recorder.outcomes.get((b, o), 0) for o in Outcome]
        known_bugs = sum(n for (kb, _, kind), n in recorder.known.items() if kb == b and kind == "bug")
        documented = sum(n for (kb, _, kind), n in recorder.known.items() if kb == b and kind == "documented")
        new = sum(1 for e in recorder.new.values() if e["backend"] == b)
        seconds = recorder.seconds.get(b, 0.0)
        rate = f"{60 * sum(counts) / seconds:.0f}" if seconds else "-"
        rows.append([b, *map(str, counts), str(known_bugs), str(documented), str(new), rate])
    return rows


# cases/min: cases per minute of pipeline time in the worker (materialize to judge).
_HEADER = ["backend", *Outcome, "known bugs", "documented", "new findings", "cases/min"]


def outcome_table(recorder: Any) -> str:
    rows = [_HEADER, *_rows(recorder)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEADER))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows)


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _is_pair(feature: str) -> bool:
    return feature.startswith("op:") and "@" in feature


def _feature_rows(recorder: Any, backend: str, *, ops: bool = False) -> list[list[str]]:
    """Outcome counts per feature (container kinds, dtypes, special leaves), or per op
    (every op a case's output needs, returned or intermediate) with ``ops``; the ops on
    one dtype have a section of their own (``pair_coverage``)."""
    features = {f: c for f, c in recorder.features.get(backend, {}).items()
                if f.startswith("op:") == ops and not _is_pair(f)}
    return [[f.removeprefix("op:"), *(str(features[f].get(o, 0)) for o in Outcome)] for f in sorted(features)]


def pair_coverage(recorder: Any, backend: str, cache: Path | None = None) -> dict[str, Any]:
    """The backend's op x dtype coverage: the pairs the generator admits once calibration
    left out what it did (``strategies.admitted_pairs``), the ones met with their outcome
    counts, the admitted ones never met, and the ones met outside the admitted set."""
    # A merged report's calibration may come from another op list: an op this one lacks cannot be excluded.
    excluded = sorted(f for f in recorder.calibration.get(backend, {}).get("features", {})
                      if not f.startswith("op:") or f[3:].partition("@")[0] in OPS)
    admitted = admitted_pairs(exclude=excluded, cache=cache)
    met = {f.removeprefix("op:"): c for f, c in recorder.features.get(backend, {}).items() if _is_pair(f)}
    return {"admitted": admitted, "excluded": excluded, "met": met,
            "hit": len(admitted & met.keys()), "not_met": sorted(admitted - met.keys()),
            "outside": sorted(met.keys() - admitted)}


def _coverage_headline(cov: dict[str, Any]) -> str:
    admitted = len(cov["admitted"])
    share = f"{100 * cov['hit'] / admitted:.1f}%" if admitted else "-"
    n = len(cov["excluded"])
    after = f", after calibration left out {n} feature{'s' * (n != 1)}" if n else ""
    return f"op x dtype: {cov['hit']} of {admitted} admitted pairs met ({share}){after}"


def _by_op(pairs: list[str]) -> list[str]:
    """``["add@int8", "add@uint8", "clamp@bool"]`` as ``["add: int8, uint8", "clamp: bool"]``."""
    grouped: dict[str, list[str]] = {}
    for pair in pairs:
        op, _, dtype = pair.partition("@")
        grouped.setdefault(op, []).append(dtype)
    return [f"{op}: {', '.join(dtypes)}" for op, dtypes in grouped.items()]


def _coverage_notes(cov: dict[str, Any]) -> list[str]:
    notes = []
    if cov["not_met"]:
        notes.append(f"Admitted, not met ({len(cov['not_met'])}): " + "; ".join(_by_op(cov["not_met"])) + ".")
    if cov["outside"]:
        notes.append(f"Met outside the admitted set ({len(cov['outside'])}): " + ", ".join(cov["outside"]) + ".")
    return notes


def _pair_rows(cov: dict[str, Any]) -> list[list[str]]:
    return [[p, *(str(cov["met"][p].get(o, 0)) for o in Outcome)] for p in sorted(cov["met"])]


def _calibration_rows(recorder: Any) -> list[list[str]]:
    rows = []
    for b, calibrated in sorted(recorder.calibration.items()):
        source = f"{calibrated['cases']} cases{', cached' if calibrated.get('cached') else ''}"
        rows += [[b, f, e["row"], f"{e['cases']} of {source}"] for f, e in sorted(calibrated["features"].items())]
        if not calibrated["features"]:
            rows.append([b, "(nothing)", "", source])
    return rows


def architecture_table(recorder: Any) -> str:
    """Family x frontend: each cell the outcomes of that family's drawn architectures on
    that backend (``pass 3, crash 1``); empty when the run drew none."""
    backends = sorted(b for b, features in recorder.features.items() if any(f.startswith("architecture:") for f in features))
    families = sorted({f.removeprefix("architecture:") for b in backends for f in recorder.features[b]
                       if f.startswith("architecture:")})
    if not families:
        return ""
    rows = []
    for family in families:
        cells = []
        for b in backends:
            counts = recorder.features[b].get(f"architecture:{family}", {})
            cells.append(", ".join(f"{o} {counts[o]}" for o in Outcome if counts.get(o)) or "-")
        rows.append([family, *cells])
    return _markdown_table(["family", *backends], rows)


def write_latest(recorder: Any, directory: Path, status: str = "complete", *, corpus: Path = CORPUS,
                 run_versions: dict[str, str] | None = None, merged_from: list[str] | None = None,
                 cache: Path | None = None) -> None:
    """Write the run's findings and summaries (atomically, file by file); those of a
    campaign merged from several runs' reports (``reports.merge``) say which. ``cache``
    keeps the generator's probe of its op x dtype pairs between runs."""
    directory.mkdir(parents=True, exist_ok=True)
    run_versions = versions() if run_versions is None else run_versions
    cases = {b: sum(n for (kb, _), n in recorder.outcomes.items() if kb == b) for b in sorted({b for b, _ in recorder.outcomes})}
    run = {"status": status, "cases": cases, **({"merged_from": merged_from} if merged_from else {})}
    coverage = {b: pair_coverage(recorder, b, cache) for b in sorted(recorder.features)}
    data = {"versions": run_versions, "run": run, **recorder.to_dict(),
            "coverage": {b: {"admitted": len(c["admitted"]), "met": c["hit"],
                             "share": round(c["hit"] / len(c["admitted"]), 4) if c["admitted"] else 0.0}
                         for b, c in coverage.items()}}
    known = [{"backend": b, "id": i, "kind": k, "count": n} for (b, i, k), n in sorted(recorder.known.items())]
    findings = [{"kind": "new", "signature": s, **e} for s, e in recorder.new.items()] + \
               [{"kind": f"known-{k['kind']}", **k} for k in known]
    _write(directory / "findings.json", json.dumps({**data, "findings": findings}, indent=1))

    merged = [f"Merged from {len(merged_from)} runs' reports: " + ", ".join(f"`{m}`" for m in merged_from), ""] \
        if merged_from else []
    md = ["# Roundtrip run", "", f"Run: {STATUS[status]}.", "", *merged,
          "Cases completed: " + ", ".join(f"{b} {n}" for b, n in cases.items()), "",
          "Versions: " + ", ".join(f"{k} {v}" for k, v in run_versions.items()), "",
          "## Outcomes per backend", "", _markdown_table(_HEADER, _rows(recorder)), ""]
    if recorder.new:
        md += ["## New findings", ""] + [f"- **{e['backend']}** {e['outcome']}: {e['headline']}  \n"
                                         f"  replay: `{e['replay']}`" for e in recorder.new.values()] + [""]
    if known:
        md += ["## Known (table rows hit)", "", _markdown_table(
            ["backend", "row", "kind", "examples"], [[k["backend"], k["id"], k["kind"], str(k["count"])] for k in known]), ""]
    dynamic = dynamic_rows({"dynamic": data["dynamic"], "deviations": data["deviations"]})
    if dynamic:
        md += ["## Dynamic shapes: compiled once, called at every size", "",
               "Each size role: calls that passed of those made (a case stops at its first failing size).", "",
               _markdown_table(DYNAMIC_HEADER, dynamic), ""]
    families = architecture_table(recorder)
    if families:
        md += ["## Architectures: outcomes per family and frontend", "", families, ""]
    for b in sorted(recorder.features):
        md += [f"## {b}: outcomes by feature", "", _markdown_table(["feature", *Outcome], _feature_rows(recorder, b)), ""]
    for b in sorted(recorder.features):
        md += [f"## {b}: outcomes by op", "", _markdown_table(["op", *Outcome], _feature_rows(recorder, b, ops=True)), ""]
    for b, cov in coverage.items():
        md += [f"## {b}: op x dtype coverage", "", _coverage_headline(cov) + ".", ""]
        if cov["met"]:
            md += [f"<details><summary>outcomes of the {len(cov['met'])} pairs met</summary>", "",
                   _markdown_table(["op@dtype", *Outcome], _pair_rows(cov)), "", "</details>", ""]
        md += [line for note in _coverage_notes(cov) for line in (note, "")]
    md += ["## Where the budget went", "", _markdown_table(BUDGET_HEADER, budget_rows(recorder)), ""]
    if recorder.steered:
        md += ["## Steered away (drawn in one case in 20 for the rest of the run)", "",
               _markdown_table(STEERED_HEADER, steered_rows(recorder)),
               "", "Run with `--steer off` to draw as the run began.", ""]
    if recorder.calibration:
        md += ["## Calibrated away (drawn no more: always rejected cleanly in the calibration pass)", "",
               _markdown_table(["backend", "feature", "rejected by", "cases in the pass"], _calibration_rows(recorder)),
               "", "Run with `--calibration off` to draw everything.", ""]
    if recorder.deviations:
        md += ["## Documented structure changes", ""] + [f"- {b}: {d} ({n}x)" for (b, d), n in
                                                          sorted(recorder.deviations.items())] + [""]
    _write(directory / "summary.md", "\n".join(md))

    page = render_page({**data, "findings": findings}, headline=f"Run: {STATUS[status]}.",
                       coverage={b: (_coverage_headline(c), _coverage_notes(c)) for b, c in coverage.items()},
                       corpus=corpus, page_dir=directory)
    _write(directory / "summary.html", page)


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """Rebuild a run's reports from its journals (a run killed before it could)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m reports.summary", description=main.__doc__)
    run = Config.from_environment()
    parser.add_argument("directory", nargs="?", default=str(run.reports),
                        help="the run's reports directory (default reports/latest, or ROUNDTRIP_REPORTS)")
    directory = Path(parser.parse_args(argv).directory)
    if not any(directory.glob("journal-*.jsonl")):
        print(f"{directory}: no journal-*.jsonl: nothing to rebuild")
        return 1
    recorder, status = rebuild(directory)
    write_latest(recorder, directory, status, corpus=dataclasses.replace(run, reports=directory).untriaged,
                 cache=run.cache)
    print(f"run: {STATUS[status]}\n{outcome_table(recorder)}\nreports: {directory}/")
    return 0


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
