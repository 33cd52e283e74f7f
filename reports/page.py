"""``summary.html``: a whole run on one self-contained page (no network, no external CSS
or JS), drawn from the data ``findings.json`` holds, so a merged campaign draws the
same page as one run.

Sections, each an element with an id a test (or a reader's browser) can find: the run
(``#run``: status, cases, versions), outcomes per backend (``#outcomes``), the map
(``#map``: backend x feature, each cell a bar of its pass / unsupported / crash / hang /
mismatch shares, the worst features first in each group, a click on a backend's header
sorts by it), new findings (``#new``: headline, signature, the shrunk case's source, the
replay command, the corpus entry and its ``repro.py``), known rows hit (``#known``, with
an example of each distinct verdict a row explained), op x dtype coverage
(``#coverage``), what calibration left out (``#calibration``) and structure changes
under a nesting contract (``#structure``).
"""

from __future__ import annotations

import html
import os
from collections import Counter
from pathlib import Path
from typing import Any

from harness.conformance import Recorder
from harness.signature import Outcome
from harness.subjects import kind_of, subject_from_json
from strategies import OPS
from strategies.dynamic import ROLES

from .entries import CORPUS, entry_id

__all__ = ["BUDGET_HEADER", "COLOURS", "STEERED_HEADER", "budget_rows", "feature_groups", "render_page", "steered_rows"]

#: Outcome colours: pass green, a clean rejection grey, the three failures warm.
COLOURS = {"pass": "#3a9d5d", "unsupported": "#b8bec6", "crash": "#d64541", "hang": "#7b4fa0", "mismatch": "#f0a030"}
#: The map's groups, in order: feature prefix -> heading.
GROUPS = (("container", "containers"), ("dtype", "input dtypes"), ("leaf", "special leaves"),
          ("family", "op families"), ("op", "ops"), ("pair", "op x dtype"), ("input", "input trees"),
          ("model", "own models"))

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}
th{background:#f4f5f7}th.sort{cursor:pointer}td.n{text-align:right}
pre{background:#f6f8fa;padding:.6em;overflow:auto;max-height:28em}
.bar{display:flex;width:6em;height:1.1em;border:1px solid #ccc;background:#fff}
.bar span{display:block;height:100%}.cell{display:flex;gap:.4em;align-items:center}.cell small{color:#555}
.finding{border-left:4px solid #d64541;padding:.2em 1em;margin:1em 0;background:#fdf6f6}
.legend span{display:inline-block;width:1em;height:1em;margin:0 .3em 0 1em;vertical-align:middle}
.ok{color:#3a9d5d}.bad{color:#d64541}
"""

# Click a backend's header: rows of that table sort by that backend's failing share.
_SCRIPT = """
document.querySelectorAll('table.map th.sort').forEach(function(th){th.addEventListener('click',function(){
 var t=th.closest('table'),i=Array.prototype.indexOf.call(th.parentNode.children,th),b=t.tBodies[0];
 Array.from(b.rows).sort(function(x,y){return (+y.cells[i].dataset.bad||0)-(+x.cells[i].dataset.bad||0)})
 .forEach(function(r){b.appendChild(r)});});});
"""


def _e(text: Any) -> str:
    return html.escape(str(text))


def _table(header: list[str], rows: list[list[str]], *, raw: bool = False, cls: str = "") -> str:
    """A table; cells are escaped unless ``raw`` (then they are HTML already)."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c if raw else _e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table{f' class={cls}' if cls else ''}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _bar(counts: dict[str, int]) -> str:
    """A cell: a bar of the outcome shares, the total beside it, every count on hover."""
    total = sum(counts.values())
    if not total:
        return ""
    spans = "".join(f'<span style="width:{100 * counts[o] / total:.1f}%;background:{COLOURS[o]}"></span>'
                    for o in Outcome if counts.get(o))
    title = ", ".join(f"{o} {counts[o]}" for o in Outcome if counts.get(o))
    return f'<div class=cell title="{_e(title)}"><div class=bar>{spans}</div><small>{total}</small></div>'


def _failing(counts: dict[str, int]) -> float:
    """The share of a feature's cases that crashed, hung or mismatched."""
    total = sum(counts.values())
    return sum(counts.get(o, 0) for o in (Outcome.CRASH, Outcome.HANG, Outcome.MISMATCH)) / total if total else 0.0


def feature_groups(features: dict[str, dict[str, dict[str, int]]]) -> dict[str, dict[str, dict[str, Counter]]]:
    """group -> feature -> backend -> outcome counts, from ``findings.json``'s features
    (backend -> feature -> counts); ops are also summed by family (``family:<name>``)."""
    groups: dict[str, dict[str, dict[str, Counter]]] = {g: {} for g, _ in GROUPS}
    for backend, per_feature in features.items():
        for feature, counts in per_feature.items():
            kind, _, name = feature.partition(":")
            if kind == "op" and "@" in name:
                kind = "pair"
            if kind not in groups:
                continue
            groups[kind].setdefault(name, {}).setdefault(backend, Counter()).update(counts)
            if kind == "op" and name in OPS:
                family = groups["family"].setdefault(OPS[name].family, {}).setdefault(backend, Counter())
                family.update(counts)
    return groups


def _map(data: dict[str, Any]) -> str:
    backends = sorted(data["features"])
    if not backends:
        return "<p>No case recorded.</p>"
    legend = "".join(f'<span style="background:{COLOURS[o]}"></span>{o}' for o in Outcome)
    parts = [f"<p class=legend>Each cell: the shares of a feature's cases by outcome, its case count beside it "
             f"(every count on hover); the worst features first (the largest share crashing, hanging or "
             f"mismatching on any backend); click a backend to sort by it. {legend}</p>"]
    header = "".join(f"<th class=sort>{_e(b)}</th>" for b in backends)
    groups = feature_groups(data["features"])
    for group, heading in GROUPS:
        rows = groups[group]
        if not rows:
            continue
        order = sorted(rows, key=lambda f: (-max(_failing(c) for c in rows[f].values()), f))
        body = []
        for feature in order:
            cells = "".join(f'<td data-bad="{_failing(rows[feature].get(b, {})):.4f}">{_bar(rows[feature].get(b, {}))}'
                            "</td>" for b in backends)
            body.append(f"<tr><th>{_e(feature)}</th>{cells}</tr>")
        table = (f"<table class=map data-group={group}><thead><tr><th>{_e(heading)}</th>{header}</tr></thead>"
                 f"<tbody>{''.join(body)}</tbody></table>")
        if group in ("op", "pair"):  # hundreds of rows: folded, the worst still first
            table = f"<details><summary>{_e(heading)}: {len(order)} rows</summary>{table}</details>"
        else:
            table = f"<h3>{_e(heading)}</h3>{table}"
        parts.append(table)
    return "".join(parts)


def _finding(signature: str, entry: dict[str, Any], corpus: Path, page_dir: Path | None, *, unfold: bool) -> str:
    try:
        subject = subject_from_json(entry["case"])
        source = kind_of(subject).source(subject)
    except Exception as exc:  # noqa: BLE001 - a case of an older vocabulary: say so, show the rest
        source = f"(the case cannot be rendered here: {type(exc).__name__}: {exc})"
    directory = corpus / entry_id(entry["backend"], signature)
    if directory.exists():
        href = directory.resolve().as_uri()
        if page_dir is not None:
            try:
                href = Path(os.path.relpath(directory.resolve(), page_dir.resolve())).as_posix()
            except ValueError:
                pass
        where = (f'<p>corpus entry: <a href="{_e(href)}/">{_e(directory.name)}</a>, '
                 f'reproducer <a class=repro href="{_e(href)}/repro.py">repro.py</a></p>')
    else:
        where = f"<p>corpus entry: not written (a --keep-going run files none); it would be {_e(directory.name)}</p>"
    count = f" ({entry['count']} examples)" if entry.get("count", 1) > 1 else ""
    return (f"<article class=finding><h3>{_e(entry['backend'])} {_e(entry['outcome'])}: {_e(entry['headline'])}</h3>"
            f"<p>signature: <code>{_e(signature)}</code>{_e(count)}</p>{where}"
            f"<details{' open' if unfold else ''}><summary>the shrunk case</summary><pre>{_e(source)}</pre></details>"
            f"<p>replay:</p><pre class=replay>{_e(entry['replay'])}</pre></article>")


def dynamic_rows(data: dict[str, Any]) -> list[list[str]]:
    """Per backend: its dynamic cases by outcome, each size role's calls (passed of run),
    the recompilations seen, and the declarations discarded (the generator's fault: torch.export
    found the program specialising a dim) as a share of the dynamic cases drawn."""
    counts: dict[str, Counter] = {}
    for backend, role, outcome, n in data.get("dynamic", []):
        counts.setdefault(backend, Counter())[(role, outcome)] += n
    notes: dict[str, Counter] = {}
    for backend, note, n in data.get("deviations", []):
        kind = "recompiled" if note.startswith("recompiled") else "discarded" if note.startswith(
            "dynamic declaration discarded") else ""
        if kind:
            notes.setdefault(backend, Counter())[kind] += n
    rows = []
    for backend in sorted(set(counts) | set(notes)):
        c, discarded = counts.get(backend, Counter()), notes.get(backend, Counter())["discarded"]
        cases = {o: n for (r, o), n in c.items() if r == "cases"}
        drawn = sum(cases.values()) + discarded
        cells = []
        for role in ROLES:
            ran = sum(n for (r, _), n in c.items() if r == role)
            cells.append(f"{c[(role, 'pass')]}/{ran}" if ran else "-")
        rows.append([backend, ", ".join(f"{o} {n}" for o, n in sorted(cases.items())) or "-", *cells,
                     str(notes.get(backend, Counter())["recompiled"]),
                     f"{discarded} ({discarded / drawn:.1%})" if drawn else "0"])
    return rows


#: The header of ``dynamic_rows``.
DYNAMIC_HEADER = ["backend", "dynamic cases", "example", "min", "max", "interior", "one", "recompilations",
                  "discarded"]


#: The columns of ``budget_rows``.
BUDGET_HEADER = ["backend", "cases", "judged", "rejected cleanly", "known bug", "new", "median depth judged",
                 "judged >= 2 ops deep"]


def budget_rows(recorder: Any) -> list[list[str]]:
    """``Recorder.budget`` per backend, as percentages."""
    def pc(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    return [[b, str(s["cases"]), pc(s["judged"]), pc(s["unsupported"]), pc(s["known bug"]), pc(s["new"]),
             "-" if s["median depth"] is None else str(s["median depth"]), pc(s["two or more deep"])]
            for b, s in recorder.budget().items()]


#: The columns of ``steered_rows``.
STEERED_HEADER = ["backend", "why (the row, or the op table)", "features", "cases", "steered away"]


def steered_rows(recorder: Any) -> list[list[str]]:
    """One row per backend and reason: the features steered away for it, with the cases
    that taught it (an op table's: the samples read)."""
    rows = []
    for b, features in sorted(recorder.steered.items()):
        by_row: dict[str, list[str]] = {}
        for f, e in sorted(features.items()):
            by_row.setdefault(e["row"], []).append(f)
        for row, names in sorted(by_row.items(), key=lambda item: (-len(item[1]), item[0])):
            rows.append([b, row, str(len(names)), str(sum(features[f]["cases"] for f in names)), ", ".join(names)])
    return rows


def render_page(data: dict[str, Any], *, headline: str, coverage: dict[str, tuple[str, list[str]]],
                corpus: Path = CORPUS, page_dir: Path | None = None) -> str:
    """The page for ``data`` (``findings.json``'s content); ``headline`` is the run's
    status line, ``coverage`` backend -> (coverage headline, notes), ``page_dir`` where
    the page is written (corpus links are made relative to it)."""
    outcomes: dict[str, Counter] = {}
    for backend, outcome, n in data["outcomes"]:
        outcomes.setdefault(backend, Counter())[outcome] += n
    known_bugs: Counter = Counter()
    documented: Counter = Counter()
    known_rows: list[list[str]] = []
    for backend, row, kind, n in data["known"]:
        known_bugs[backend] += n if kind == "bug" else 0
        documented[backend] += n if kind == "documented" else 0
        known_rows.append([backend, row, kind, str(n)])
    new = data["new"]
    new_per = Counter(e["backend"] for e in new.values())
    outcome_rows = [[_e(b), _bar(c), *(f"<span class=n>{c.get(o, 0)}</span>" for o in Outcome), str(known_bugs[b]),
                     str(documented[b]),
                     f'<span class="{"bad" if new_per[b] else "ok"}">{new_per[b]}</span>'] for b, c in sorted(outcomes.items())]
    cases = ", ".join(f"{b} {n}" for b, n in data["run"]["cases"].items())
    versions = ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>Roundtrip run</title><style>{_STYLE}</style>",
             "<h1>Roundtrip run</h1>",
             f"<section id=run><p><b>{_e(headline)}</b></p><p>Cases completed: {_e(cases)}</p>"
             f"<p>Versions: {_e(versions)}</p>"
             + (f"<p>Merged from {len(data['run']['merged_from'])} runs' reports: "
                f"{_e(', '.join(data['run']['merged_from']))}</p>" if data["run"].get("merged_from") else "")
             + "</section>",
             "<section id=outcomes><h2>Outcomes per backend</h2>",
             _table(["backend", "shares", *Outcome, "known bugs", "documented", "new findings"], outcome_rows, raw=True),
             "</section>",
             "<section id=map><h2>Where each frontend breaks</h2>", _map(data), "</section>",
             f"<section id=new><h2>New findings ({len(new)})</h2>"]
    parts += [_finding(s, e, corpus, page_dir, unfold=len(new) <= 3) for s, e in new.items()] or ["<p class=ok>None: every failure "
                                                                             "is a known row.</p>"]
    parts.append("</section><section id=known><h2>Known rows hit</h2>")
    parts.append(_table(["backend", "row", "kind", "cases"], known_rows) if known_rows else "<p>None.</p>")
    examples = [[row, sig, str(e["count"]), e.get("replay", "")] for row, sigs in sorted(data.get("absorbed", {}).items())
                for sig, e in sorted(sigs.items())]
    if examples:
        parts.append(f"<details><summary>the {len(examples)} distinct verdicts the rows explained, one example "
                     f"each</summary>{_table(['row', 'signature', 'cases', 'replay'], examples)}</details>")
    dynamic = dynamic_rows(data)
    parts.append("</section><section id=dynamic><h2>Dynamic shapes: compiled once, called at every size</h2>"
                 "<p>Each size role: calls that passed of those made (a case stops at its first failing size).</p>")
    parts.append(_table(DYNAMIC_HEADER, dynamic) if dynamic else "<p>No dynamic cases in this run.</p>")
    parts.append("</section><section id=coverage><h2>Op x dtype coverage</h2>")
    for backend, (line, notes) in sorted(coverage.items()):
        parts.append(f"<h3>{_e(backend)}: op x dtype coverage</h3><p>{_e(line)}.</p>"
                     + "".join(f"<p>{_e(n)}</p>" for n in notes))
    recorder = Recorder.from_dict(data)
    parts.append("</section><section id=budget><h2>Where the budget went</h2>"
                 "<p>Of each backend's cases: judged (outputs compared: pass or mismatch), rejected cleanly, "
                 "explained by a known bug, new; and how deep the judged programs go.</p>")
    parts.append(_table(BUDGET_HEADER, budget_rows(recorder)) if recorder.outcomes else "<p>No cases.</p>")
    parts.append("</section><section id=steered><h2>Steered away</h2><p>Features a row kept explaining in this "
                 "run, drawn in one case in 20 for the rest of it (<code>--steer off</code>: as the run began).</p>")
    steered = steered_rows(recorder)
    parts.append(_table(STEERED_HEADER, steered) if steered else
                 "<p>Nothing: the run was not steered (ci), or no row kept explaining one feature.</p>")
    parts.append("</section><section id=calibration><h2>Calibrated away</h2>")
    calibrated = [[b, f, e["row"], f"{e['cases']} of {c['cases']} cases"] for b, c in sorted(data["calibration"].items())
                  for f, e in sorted(c["features"].items())]
    parts.append(_table(["backend", "feature", "rejected by", "cases in the pass"], calibrated) if calibrated else
                 "<p>Nothing: no calibration pass, or it left nothing out.</p>")
    parts.append("</section><section id=structure><h2>Structure changes under a nesting contract</h2>")
    deviations = [[b, d, str(n)] for b, d, n in data["deviations"]]
    parts.append(_table(["backend", "change", "cases"], deviations) if deviations else "<p>None.</p>")
    parts += ["</section>", f"<script>{_SCRIPT}</script></html>"]
    return "\n".join(parts)
