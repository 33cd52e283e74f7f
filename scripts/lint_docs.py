"""The README stays short and current, and the docs stay true to the data.

- README.md fits in 12 KiB: a user with five minutes reads all of it.
- docs/findings.md is what ``python -m reports.findings`` writes from the known table,
  the corpus and the last survey.
- Every generated section of docs/benchmarks.md carries its stamp (command, commit,
  date), and its commit exists.
- README.md and docs/*.md hold no project bookkeeping (issue numbers, "then new").
- Every relative link in them points at a file that exists (and a heading that exists).
- The README's configuration table names every option and every ``ROUNDTRIP_*``
  variable.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from reports import findings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
README_LIMIT = 12 * 1024

#: How a change came about, which a reader of the docs has no use for.
PROCESS_WORDS = re.compile(r"\bissue #?\d+|\bthen new\b|\baim\b", re.IGNORECASE)
SECTION = re.compile(r"<!-- (?P<name>[\w-]+):begin -->\n(?P<body>.*?)\n<!-- (?P=name):end -->", re.S)
STAMP = {
    "command": re.compile(r"^- command: `python [^`]+`$", re.M),
    "commit": re.compile(r"^- commit: `(?P<commit>[0-9a-f]{7,40})(\+dirty)?`$", re.M),
    "date": re.compile(r"^- date: \d{4}-\d{2}-\d{2}$", re.M),
}
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)\)")


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def test_readme_fits_in_12_kib():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes, over {README_LIMIT}: move detail into docs/"


def test_findings_page_is_generated_from_the_data():
    assert findings.check(), "docs/findings.md is out of date: run python -m reports.findings"


def test_a_stale_findings_page_is_caught(tmp_path):
    stale = tmp_path / "findings.md"
    stale.write_text(findings.render().replace("explains 1 verdict", "explains 7 verdicts", 1))
    assert not findings.check(stale)
    assert not findings.check(tmp_path / "missing.md")


def test_findings_page_has_no_date_or_absolute_path():
    text = findings.render()
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text)
    assert str(ROOT) not in text


def _sections() -> list[re.Match]:
    return list(SECTION.finditer((ROOT / "docs" / "benchmarks.md").read_text()))


def test_benchmark_markers_pair_up():
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    begins = re.findall(r"<!-- ([\w-]+):begin -->", text)
    ends = re.findall(r"<!-- ([\w-]+):end -->", text)
    assert begins == ends, (begins, ends)
    assert len(_sections()) == len(begins) >= 1


@pytest.mark.parametrize("section", _sections(), ids=lambda m: m["name"])
def test_benchmark_section_is_stamped(section):
    body = section["body"]
    missing = [field for field, pattern in STAMP.items() if not pattern.search(body)]
    assert not missing, f"section {section['name']} has no stamp line for {missing}"
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("no git repository here: the commit cannot be looked up")
    commit = STAMP["commit"].search(body)["commit"]
    found = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True)
    assert found.returncode == 0, f"section {section['name']}: commit {commit} is not in this repository"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_no_process_words(page):
    found = [f"{n}: {line.strip()[:100]}" for n, line in enumerate(page.read_text().splitlines(), 1)
             if PROCESS_WORDS.search(line)]
    assert not found, f"{page.name} tells how it came about; say what is true now:\n" + "\n".join(found)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", text))


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # not the headings of code
    return {_slug(m[1]) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` (outside code blocks) whose file or heading is missing."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    broken = []
    for match in LINK.finditer(text):
        target = match["target"]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_relative_links_resolve(page):
    broken = broken_links(page)
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_the_checks_can_fail(tmp_path):
    """A broken link, a missing heading and a process word are caught."""
    (tmp_path / "there.md").write_text("# A heading\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n[ok](there.md#a-heading) [file](gone.md) [heading](there.md#gone) [here](#page)\n"
                    "[web](https://example.com/x) ![img](there.md)\n")
    assert broken_links(page) == ["gone.md: no such file", "there.md#gone: no heading #gone"]
    assert PROCESS_WORDS.search("found in issue #12") and PROCESS_WORDS.search("the aim was")
    assert not PROCESS_WORDS.search("each case aims at one dtype; see the issues/123 page")


def test_readme_configuration_names_every_option_and_variable():
    readme = README.read_text()
    options = re.findall(r'addoption\(\s*"(--[\w-]+)"', (ROOT / "suites" / "plugin.py").read_text())
    assert options, "no pytest_addoption options found in suites/plugin.py"
    sources = [ROOT / name for name in ("suites/plugin.py", "tox.ini", "pyproject.toml", ".ci/run")]
    sources += [p for folder in ("strategies", "harness", "suites", "reports", "tests", "benchmarks", "scripts", ".github")
                for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".sh", ".yml")
                and "corpus" not in p.relative_to(ROOT).parts]
    variables = {v for p in sources if p.is_file()
                 for v in re.findall(r"\bROUNDTRIP_[A-Z_]+\b", p.read_text(errors="replace"))}
    missing = [name for name in [*options, *sorted(variables)] if f"`{name}" not in readme]
    assert not missing, f"README.md's Configuration table does not name {missing}"


def test_only_tests_import_the_findings_page():
    """reports.findings sits at the top: it reads the table and the corpus, nothing reads it."""
    importers = [p.relative_to(ROOT) for folder in ("strategies", "harness", "suites", "reports", "benchmarks")
                 for p in (ROOT / folder).rglob("*.py")
                 if "corpus" not in p.relative_to(ROOT).parts and p.name != "findings.py"
                 and re.search(r"^\s*(from reports(\.findings)? import .*\bfindings\b|import reports\.findings|from \.findings"
                               r"|from \. import .*\bfindings\b)", p.read_text(), flags=re.M)]
    assert not importers, f"only tests may import reports.findings: {importers}"
