"""``summary.html`` as a reader sees it: rendered by headless Chromium, read through its DOM.

Real runs of the suite (the identity backend and a planted int64 -> int32 distortion),
one on one machine and one split over two merged with ``reports.merge``; each page must
show every section, the new finding with its replay command and reproducer link, and the
map. Skipped, with the reason, where no Chromium is installed (Debian's ``chromium``;
CI installs it and sets ``ROUNDTRIP_REQUIRE_BROWSER=1``, which turns the skip into a
failure).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reports.merge import main as merge_main
from tests.processes import run_suite

BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
SECTIONS = ("run", "outcomes", "new", "known", "map", "coverage", "budget", "steered", "calibration", "structure")
BACKENDS = ("--backend", "reference", "--backend", "tests.harness_backends:Int64ToInt32")


def browser() -> str:
    if BROWSER is None:
        if os.environ.get("ROUNDTRIP_REQUIRE_BROWSER") == "1":
            pytest.fail("ROUNDTRIP_REQUIRE_BROWSER=1 and no chromium on PATH")
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium)")
    return BROWSER


def chromium(*args: str) -> subprocess.CompletedProcess:
    # As root (CI containers) Chromium needs --no-sandbox; the page needs no network.
    return subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-dev-shm-usage", *args], capture_output=True, text=True, timeout=120)


class _Dom(HTMLParser):
    """Elements by id and class, text under each id, links, and map cells."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.classes: dict[str, int] = {}
        self.links: list[str] = []
        self.text: dict[str, list[str]] = {}
        self.bars = 0
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for c in (a.get("class") or "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "td" and "data-bad" in a:
            self.bars += 1
        if tag not in ("meta", "br", "img", "input", "link"):
            self._open.append(a.get("id"))

    def handle_endtag(self, tag: str) -> None:
        if self._open and tag not in ("meta", "br", "img", "input", "link"):
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for section in {s for s in self._open if s}:
            self.text.setdefault(section, []).append(data)


def rendered_dom(page: Path) -> _Dom:
    done = chromium("--dump-dom", page.resolve().as_uri())
    assert done.returncode == 0 and "<html" in done.stdout, done.stderr[-2000:]
    dom = _Dom()
    dom.feed(done.stdout)
    return dom


def _run(reports: Path, *args: str) -> subprocess.CompletedProcess:
    return run_suite(*BACKENDS, *args, env={"ROUNDTRIP_PROFILE": "ci", "ROUNDTRIP_MAX_EXAMPLES": "40",
                                            "ROUNDTRIP_REPORTS": str(reports),
                                            "ROUNDTRIP_CORPUS": str(reports.parent / "corpus")})


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    browser()
    root = tmp_path_factory.mktemp("pages")
    one = _run(root / "one")
    assert one.returncode == 1, one.stdout[-3000:]  # the distortion is found, shrunk and filed
    for i in (0, 1):
        _run(root / f"machine{i}", "--keep-going", "--shard-index", str(i), "--shard-count", "2")
    assert merge_main([str(root / "machine0"), str(root / "machine1"), "--out", str(root / "merged")]) == 0
    return {"one": root / "one" / "summary.html", "merged": root / "merged" / "summary.html"}


@pytest.mark.parametrize("run", ["one", "merged"])
def test_the_page_shows_every_section_the_finding_and_the_map(pages: dict[str, Path], run: str) -> None:
    dom = rendered_dom(pages[run])
    assert set(SECTIONS) <= dom.ids, set(SECTIONS) - dom.ids
    assert dom.classes.get("finding", 0) >= 1 and dom.classes.get("replay", 0) >= 1
    new = " ".join(dom.text["new"])
    assert "distort-int64_to_int32" in new and "python -m" in new and "int64" in new, new[:2000]
    assert "class Model" in new or "def forward" in new, "the shrunk case's source is not on the page"
    assert dom.classes.get("map", 0) >= 3 and dom.bars >= 20, (dom.classes, dom.bars)
    assert "reference" in " ".join(dom.text["map"])
    budget = " ".join(dom.text["budget"])  # where each backend's cases went: the reference judges them all
    assert "judged" in budget and "reference" in budget and "100%" in budget, budget[:2000]
    if run == "merged":
        assert "Merged from 2 runs" in " ".join(dom.text["run"])
    else:  # the shrunk finding was filed: the page links its entry's reproducer, which is there
        repro = [h for h in dom.links if h.endswith("repro.py")]
        assert repro and (pages[run].parent / repro[0]).is_file(), dom.links


def test_the_page_needs_no_network_and_takes_a_screenshot(pages: dict[str, Path], tmp_path: Path) -> None:
    text = pages["one"].read_text()
    # Nothing fetched: no stylesheet, script or image from elsewhere (a link to an upstream
    # issue in the text is fine).
    assert not re.search(r"<(link|img|iframe)\b|\ssrc=", text), re.search(r"<(link|img|iframe)\b|\ssrc=", text)
    shot = tmp_path / "page.png"
    done = chromium(f"--screenshot={shot}", "--window-size=1200,1800", pages["one"].resolve().as_uri())
    assert done.returncode == 0 and shot.stat().st_size > 10_000, done.stderr[-2000:]
