"""``artibot-memory report`` as a person sees it, in a real headless Chromium (issue 27).

A lived quarter (tests/quarter.py: four projects, English and Korean, evolved every week as
tests/test_quarter.py does), plus one memory carrying a canary string that is then
forgotten; the report is written through the CLI and opened from its file at 390 and 1440 px,
light and dark. What the contract promises is checked there: every section (one per project
of the home), nothing wider than the screen, no request attempted, no console error, Korean
drawn with a CJK font, the search box filtering the items, Tab reaching the search box and
the navigation, and the forgotten text nowhere in the file.

Screenshots go to a tmp folder, and are copied to ``$ARTIBOT_SCREENSHOTS`` when it is set.
Without Chromium these skip; ``ARTIBOT_REQUIRE_BROWSER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from freezegun import freeze_time
from quarter import DIFF_FIRST, KOREAN_COMMITS, POSTGRES, evolve_times, quarter, week_of
from week import live, lived_home

from artibot_memory.api import evolve

from .browser import Browser, Page, require_chromium

if TYPE_CHECKING:
    from collections.abc import Iterator

WIDTHS = (390, 1440)
SCHEMES = ("light", "dark")
SECTIONS = ("overview", "health", "beliefs", "conflicts")
CANARY = "canary-7f3e9b21-forgotten-lighthouse"
SCREENSHOTS_ENV = "ARTIBOT_SCREENSHOTS"
CLI_TIMEOUT = 120
TAB_PRESSES = 40


@dataclass(frozen=True)
class Written:
    """The report, as written by the CLI from the lived home."""

    html: Path
    home: Path
    projects: tuple[str, ...]  # the names of the home's projects (their folders')
    redacted: int  # how many [REDACTED:…] markers the home's records hold
    shots: Path  # where this module's screenshots go


def _env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "ARTIBOT_MEMORY_HOME": str(home),
        "ARTIBOT_MEMORY_VECTORS": "off",
        "TZ": "UTC",
        "NO_COLOR": "1",
    }


def _cli(home: Path, *argv: str) -> str:
    """Run ``artibot-memory`` as a person would (its own process); its stdout."""
    done = subprocess.run(  # noqa: S603 - this interpreter, our own CLI
        [sys.executable, "-m", "artibot_memory", *argv],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"artibot-memory {' '.join(argv)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Written:
    """The lived quarter with a forgotten canary, and its report written through the CLI."""
    root = tmp_path_factory.mktemp("report")
    with lived_home(root / "memory") as home:
        sessions = quarter()
        for week, when in enumerate(evolve_times(), start=1):
            live(root / "work", [s for s in sessions if week_of(s) == week])
            with freeze_time(when):
                evolve.run(home, now=when)
    shop = root / "work" / "shop"
    saved = json.loads(
        _cli(
            home,
            "save",
            "context",
            f"The staging key lives in {CANARY}.",
            "--project",
            str(shop),
            "--json",
        )
    )
    assert CANARY in _cli(home, "show", saved["id"])
    _cli(home, "forget", saved["id"])
    exported = _cli(home, "export")
    projects = {
        Path(record["project"]).name
        for record in map(json.loads, exported.splitlines())
        if record.get("project")
    }
    assert projects == {"shop", "api", "infra", "docs"}
    html = root / "out" / "report.html"
    html.parent.mkdir()
    _cli(home, "report", "--out", str(html))
    assert html.is_file()
    redacted = exported.count("[REDACTED:")
    return Written(html, home, tuple(sorted(projects)), redacted, root / "screenshots")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(require_chromium()) as started:
        yield started


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = browser.new_page()
    yield opened
    opened.close()


def _open(page: Page, written: Written, width: int, scheme: str = "light") -> None:
    page.set_viewport(width)
    page.set_color_scheme(scheme)
    page.goto(written.html)


def _keep(shot: Path) -> None:
    """Copy a screenshot to ``$ARTIBOT_SCREENSHOTS`` when it is set."""
    wanted = os.environ.get(SCREENSHOTS_ENV)
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copy2(shot, Path(wanted) / shot.name)


def test_the_report_verb_is_there() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "artibot_memory", "report", "--help"],
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "--out" in done.stdout


def test_the_forgotten_canary_is_nowhere_in_the_file(written: Written) -> None:
    text = written.html.read_text(encoding="utf-8")
    assert CANARY not in text
    assert CANARY.split("-")[1] not in text  # not even its middle, as an escaped fragment


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_reads_well_at(page: Page, written: Written, width: int, scheme: str) -> None:
    """Sections, width, requests, console and Korean glyphs, at one size and scheme."""
    _open(page, written, width, scheme)
    problems: list[str] = []

    sections = page.evaluate("[...document.querySelectorAll('section[id]')].map(s => s.id)")
    wanted = [*SECTIONS, *(f"project-{_slug(p)}" for p in written.projects)]
    missing = [s for s in wanted if s not in sections]
    if missing:
        problems.append(f"sections missing: {missing} (found {sections})")
    extra = [s for s in sections if s.startswith("project-") and s not in wanted]
    if extra:
        problems.append(f"project sections of no project of the home: {extra}")

    overflow = page.overflow()
    if overflow.overflows:
        problems.append(f"wider than the screen: {overflow}")
    if page.foreign_requests:
        problems.append(f"requests attempted: {page.foreign_requests}")
    if page.errors:
        problems.append(f"console errors: {page.errors}")
    if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is not (
        scheme == "dark"
    ):
        problems.append(f"the {scheme} scheme was not applied")
    rendered, why = page.hangul_rendered()
    if not rendered:
        problems.append(f"Korean not drawn with a CJK font: {why}")

    shot = page.screenshot(written.shots / f"report-{width}-{scheme}.png")
    _keep(shot)
    assert not problems, f"at {width} px, {scheme} ({shot}):\n" + "\n".join(problems)


def _a_word_of_one_item(page: Page) -> tuple[str, str]:
    """A word in the text of one shown item only (of all the items): the word, that item's text."""
    texts = [i.text.lower() for i in page.items()]
    for item in page.items():
        if not item.visible:
            continue
        for word in re.findall(r"[a-z][a-z0-9]{4,}", item.text.lower()):
            if sum(word in t for t in texts) == 1:
                return word, item.text
    pytest.fail(f"no word belongs to one item only, among {len(texts)} items")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_search_box_filters_the_items_and_clearing_restores_them(
    page: Page, written: Written, width: int
) -> None:
    _open(page, written, width)
    before = page.items()
    assert len(before) >= 2, before
    word, text = _a_word_of_one_item(page)
    page.type_into("#q", word)
    shown = [i.text for i in page.items() if i.visible]
    assert shown == [text], f"typed {word!r}: shown {shown}"
    shot = page.screenshot(written.shots / f"report-{width}-search.png")
    _keep(shot)
    page.clear("#q")
    assert page.items() == before, "clearing the search box did not restore the items"
    assert page.errors == [], page.errors


def test_tab_reaches_the_search_box_and_a_nav_link(page: Page, written: Written) -> None:
    _open(page, written, 1440)
    stops = page.tab_stops(TAB_PRESSES)
    assert any(s["id"] == "q" and s["tag"] == "input" for s in stops), stops
    assert any(s["nav"] and s["tag"] == "a" and s["href"].startswith("#") for s in stops), stops


def test_the_words_are_shown_as_they_were_said(page: Page, written: Written) -> None:
    """An apostrophe or Hangul comes out as written, and no redaction is made up on the way."""
    _open(page, written, 1440)
    shown = page.evaluate(
        "(() => { const copy = document.body.cloneNode(true);"
        " copy.querySelectorAll('code, pre, script, style').forEach(c => c.remove());"
        " document.body.append(copy); copy.hidden = false;"
        " const text = copy.innerText; copy.remove(); return text; })()"
    )
    # The home holds these as said (a memory's text drops its final full stop).
    missing = [t for t in (POSTGRES, DIFF_FIRST, KOREAN_COMMITS) if t.rstrip(".") not in shown]
    invented = [
        shown[max(0, m.start() - 30) : m.end() + 40]
        for m in re.finditer(r"\[REDACTED:[a-z-]*\]", shown)
    ]
    problems = [f"not shown as said: {t!r}" for t in missing]
    if written.redacted == 0 and invented:
        problems.append(f"redaction markers the home does not hold: {invented}")
    assert not problems, "\n".join(problems)
