"""`artibot-memory report`: one offline HTML page of the home, escaped, redacted, 0600."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import stat
import webbrowser
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories, report
from artibot_memory.api.memories import Draft
from artibot_memory.cli import report_html, report_page
from artibot_memory.cli.app import main
from artibot_memory.store import audit
from artibot_memory.store.model import Source
from artibot_memory.store.table import spec_for

SHOP, API = "/src/shop", "/src/api"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
CANARY = "zebra-canary-7781 the forgotten thing"
KOREAN = "앞으로 커밋 메시지는 한국어로 써줘."
HOSTILE = '<script>alert("x")</script> in the api notes'
TOKEN = "ghp_" + "a1B2c3D4e5" * 4
RULE = {"why": "stated as a rule", "confidence": 0.8}


@pytest.fixture
def lived(memory_home: Path) -> Iterator[dict[str, str]]:
    """A small home of two projects, lived over a month, with the clock frozen after it."""
    ids: dict[str, str] = {}
    with freeze_time("2026-11-02T10:00:00Z"):
        ids["pnpm"] = memories.save(
            "preference", "Always use pnpm, never npm", key="package-manager", **RULE
        ).id
        ids["postgres"] = memories.save(
            "context",
            "We'll go with Postgres for the orders database because we need row-level locks.",
            tags=["decision"],
            project=SHOP,
        ).id
        ids["sara"] = memories.save(
            "context",
            "Sara owns the cart module, so keep her API stable.",
            scope="person",
            project=SHOP,
        ).id
    with freeze_time("2026-11-16T10:00:00Z"):
        ids["korean"] = memories.save(
            "preference",
            KOREAN,
            key="commit-language",
            project=SHOP,
            source=Source(channel="hook:UserPromptSubmit", agent="codex-cli"),
            **RULE,
        ).id
        ids["error"] = memories.save(
            "error",
            "TypeError: coupon.amount.toFixed is not a function",
            resolution="parse it with Number() before adding",
            project=SHOP,
        ).id
        ids["hostile"] = memories.save("context", HOSTILE, project=API).id
        ids["canary"] = memories.save("context", CANARY, project=API).id
        ids["session"] = memories.save(
            "context",
            "Session 1a2b3c4d 2026-11-16 10:00–10:40 UTC (40m)\nAsked: fix the coupon total",
            key="session:1a2b3c4d",
            project=SHOP,
        ).id
    with freeze_time("2026-11-23T10:00:00Z"):
        ids["npm"] = memories.save("preference", "Use npm", key="package-manager", **RULE).id
        memories.forget(ids["canary"])
    audit.append(
        memory_home,
        "REFLECT",
        f"{ids['pnpm']} conf 0.62→0.74 freshness=stable",
        at=datetime(2026, 11, 23, tzinfo=timezone.utc),
    )
    with freeze_time(NOW):
        yield ids


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def page_of(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[Path, str]:
    code, out, err = run(capsys, "report", *argv)
    assert (code, err) == (0, "")
    path = Path(out.strip())
    return path, path.read_text(encoding="utf-8")


@pytest.mark.usefixtures("lived")
def test_the_page_is_written_0600_in_the_home_and_its_path_printed(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, page = page_of(capsys)
    assert path == memory_home / "report.html"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert page.startswith("<!doctype html>")
    assert '<html lang="en">' in page


@pytest.mark.usefixtures("lived")
def test_every_section_the_browser_test_relies_on_is_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys)
    for ident in ("overview", "health", "beliefs", "conflicts", "project-shop", "project-api"):
        assert f'<section id="{ident}"' in page
        assert f'href="#{ident}"' in page
    assert '<input id="q" type="search"' in page
    assert page.count('class="item"') > 10
    assert '<a class="skip" href="#main">' in page
    assert "<nav" in page


@pytest.mark.usefixtures("lived")
def test_memory_text_is_escaped_so_a_script_in_a_memory_is_shown_as_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys)
    assert html.escape(HOSTILE) in page
    assert 'alert("x")' not in page
    assert page.count("<script") == 1  # the search box's own


@pytest.mark.usefixtures("lived")
def test_nothing_is_fetched_and_the_policy_allows_only_the_pages_own_script(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys)
    [policy] = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert "default-src 'none'" in policy
    assert "form-action 'none'" in policy
    assert "base-uri 'none'" in policy
    [script] = re.findall(r"<script>(.*?)</script>", page, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    links = re.findall(r'\b(?:src|href|action|xlink:href)\s*=\s*"([^"]*)"', page)
    assert links
    assert all(link.startswith("#") for link in links), links
    assert not re.search(r"\b(?:src|href)\s*=\s*\"?(?:https?:)?//", page)
    assert "@import" not in page
    assert "url(" not in page


def test_a_forgotten_memory_is_nowhere_in_the_page(
    lived: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, page = page_of(capsys)
    assert "zebra-canary" not in page
    assert lived["canary"] not in page


@pytest.mark.usefixtures("lived")
def test_korean_text_is_kept_as_it_was_said(capsys: pytest.CaptureFixture[str]) -> None:
    _, page = page_of(capsys)
    assert html.escape(KOREAN) in page
    assert "codex-cli" in page  # which agent wrote what


def test_a_secret_that_reached_a_store_is_redacted_by_the_writer(
    lived: dict[str, str], memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = memory_home / spec_for("context").filename
    document = json.loads(store.read_text(encoding="utf-8"))
    for entry in document["entries"]:
        if entry["id"] == lived["postgres"]:
            entry["text"] += f" The deploy token is {TOKEN}"
    store.write_text(json.dumps(document), encoding="utf-8")  # past every redactor: a test only
    _, page = page_of(capsys)
    assert TOKEN not in page
    assert "[REDACTED:github-token]" in page


def test_a_project_page_shows_decisions_people_errors_preferences_and_the_next_start(
    lived: dict[str, str], memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, page = page_of(capsys)
    shop = page[page.index('<section id="project-shop"') :]
    shop = shop[: shop.index("</section>")]
    assert "row-level locks" in shop
    assert "Sara owns the cart module" in shop
    assert "parse it with Number() before adding" in shop
    assert html.escape(KOREAN) in shop
    assert "fix the coupon total" in shop
    assert f"artibot-memory forget {lived['postgres']}" in shop
    start = report.next_start(memory_home, SHOP)
    assert "Postgres" in start
    assert f"<pre>{report_page.escape(start)}</pre>" in shop


def test_health_says_each_figure_with_the_command_that_acts_on_it(
    lived: dict[str, str], memory_home: Path
) -> None:
    built = report.build(memory_home)
    figures = {figure.name.split(" (")[0]: figure for figure in built.health.figures}
    assert figures["open conflicts"].count == 1
    assert figures["open conflicts"].command == "artibot-memory conflicts"
    [(superseded, command)] = figures["superseded"].examples
    assert superseded.id == lived["pnpm"]  # the newer value of its key took its place
    assert command == f"artibot-memory forget {lived['pnpm']}"
    assert figures["never recalled"].count >= 5
    assert all(figure.command.startswith("artibot-memory") for figure in figures.values())


def test_conflicts_show_both_sides_and_the_commands_that_settle_them(
    lived: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, page = page_of(capsys)
    section = page[page.index('<section id="conflicts"') :]
    [conflict] = re.findall(r"artibot-memory conflicts resolve (cf-[0-9a-f]{8}) --keep", section)
    assert "Always use pnpm, never npm" in section
    assert "Use npm" in section
    assert f"artibot-memory forget {lived['npm']}" in section
    assert conflict in section


def test_a_beliefs_confidence_over_time_comes_from_the_evolution_log(
    lived: dict[str, str], memory_home: Path
) -> None:
    built = report.build(memory_home)
    [pnpm] = [b for b in built.beliefs.items if b.item.id == lived["pnpm"]]
    assert pnpm.series[:2] == [("2026-11-23", 0.62), ("2026-11-23", 0.74)]
    assert pnpm.evidence_for
    assert 'id="beliefs"' in report_html.render(built)


@pytest.mark.usefixtures("lived")
def test_project_keeps_only_that_projects_page_and_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys, "--project", "shop")
    assert '<section id="project-shop"' in page
    assert "project-api" not in page
    assert "in the api notes" not in page
    assert "Health of shop" in page


@pytest.mark.usefixtures("lived")
def test_an_unknown_project_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "report", "--project", "nope")
    assert (code, out) == (1, "")
    assert err == "artibot-memory: no memories of project 'nope'; the projects are: api, shop\n"


@pytest.mark.usefixtures("lived")
def test_json_gives_the_path_size_and_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out.html"
    code, out, _ = run(capsys, "report", "--out", str(target), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["schema"] == "artibot-memory/1"
    assert data["path"] == str(target)
    assert data["bytes"] == target.stat().st_size
    assert data["sections"] == [
        "overview",
        "health",
        "project-api",
        "project-shop",
        "beliefs",
        "conflicts",
    ]


@pytest.mark.usefixtures("lived")
def test_open_shows_the_page_in_the_browser(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open_new_tab", opened.append)
    path, _ = page_of(capsys, "--open")
    assert opened == [path.resolve().as_uri()]


@pytest.mark.usefixtures("lived")
def test_an_out_folder_that_does_not_exist_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "report", "--out", str(tmp_path / "nowhere" / "r.html"))
    assert code == 1
    assert err.startswith("artibot-memory: --out ")
    assert err.count("\n") == 1


def test_long_lists_are_capped_with_the_command_that_shows_the_rest(
    memory_home: Path,
) -> None:
    with freeze_time(NOW):
        drafts = [
            Draft("context", f"fact number {n} about the cart", project=SHOP) for n in range(60)
        ]
        memories.save_many(drafts)
        built = report.build(memory_home)
    [shop] = built.projects
    assert (len(shop.facts.items), shop.facts.total) == (report.MAX_ITEMS, 60)
    assert "and 20 more" in report_html.render(built)
    assert shop.facts.command == "artibot-memory list --type context --project shop"


def test_an_empty_home_still_makes_a_page(memory_home: Path) -> None:
    built = report.build(memory_home)
    page = report_html.render(built)
    assert built.projects == []
    assert '<section id="overview"' in page
    assert "No memories yet." in page
    assert "Nothing is remembered yet. Install the plugin in your agent" in page


@pytest.mark.usefixtures("lived")
def test_a_home_with_memories_does_not_say_how_to_start(memory_home: Path) -> None:
    assert "Nothing is remembered yet" not in report_html.render(report.build(memory_home))


@pytest.mark.usefixtures("lived")
def test_the_first_screen_has_the_key_figures_each_a_link_to_its_section(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys)
    strip = page[page.index('<ul class="glance"') :]
    strip = strip[: strip.index("</ul>")]
    assert strip.index('<ul class="glance"') < page.index('<main id="main">')
    targets = re.findall(r'href="#([\w-]+)"', strip)
    labels = re.findall(r'<span class="label">([^<]+)</span>', strip)
    assert labels[:7] == [
        "memories",
        "projects",
        "sessions in the last 30 days",
        "open conflicts",
        "proposals waiting",
        "stale",
        "never recalled",
    ]
    for target in targets:
        assert f'id="{target}"' in page, target
    # One conflict is open: its tile is marked in words, not by colour alone.
    conflicts = strip[strip.index('href="#conflicts"') :]
    conflicts = conflicts[: conflicts.index("</li>")]
    assert 'class="tile warn"' in strip
    assert "needs attention" in conflicts


@pytest.mark.usefixtures("lived")
def test_health_is_a_grid_of_cards_each_with_its_figure_command_and_details(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, page = page_of(capsys)
    health = page[page.index('<section id="health"') :]
    health = health[: health.index("</section>")]
    assert '<div class="cards">' in health
    cards = re.findall(r'<article class="card( warn)?" id="fig-([\w-]+)"', health)
    keys = [key for _, key in cards]
    assert {"stale", "never-recalled", "conflicts", "proposals", "expiring"} <= set(keys)
    assert {key: warn for warn, key in cards}["conflicts"] == " warn"
    never = health[health.index('id="fig-never-recalled"') :]
    never = never[: never.index("</article>")]
    assert '<code class="cmd">artibot-memory list --all-projects</code>' in never
    assert "<details><summary>" in never
    assert 'class="item"' in never


@pytest.mark.usefixtures("lived")
def test_the_overview_names_kinds_a_person_reads_and_the_chart_says_itself(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built = report.build(memory_home)
    shop = built.overview.counts["shop"]
    assert (shop["session"], shop["context"], shop["preference"]) == (1, 2, 1)
    assert built.overview.recent_sessions == 1  # on Nov 16: within the 30 days before Nov 30
    assert [monday for monday, _ in built.overview.weeks] == [
        "2026-11-02",
        "2026-11-09",
        "2026-11-16",
        "2026-11-23",
    ]
    _, page = page_of(capsys)
    overview = page[page.index('<section id="overview"') :]
    overview = overview[: overview.index("</section>")]
    for label in ("preferences", "decisions &amp; facts", "sessions", "commands", "errors"):
        assert f'<th scope="col" class="n">{label}</th>' in overview
    [label] = re.findall(r'<svg viewBox="[^"]+" role="img" aria-label="([^"]+)">', overview)
    assert label.startswith(f"{built.memories} memories created in the last 4 weeks")
    assert "most in the week of Nov 16, 2026" in label
    assert f"<title>{label}</title>" in overview
    assert re.search(r'<text class="axis"[^>]*>\d+</text>', overview)  # the y axis's top
    assert ">Nov 2</text>" in overview  # a week on the x axis
    assert '<ul class="legend">' in overview


@pytest.mark.usefixtures("lived")
def test_every_projects_next_start_read_at_once_is_what_the_hook_renders(
    memory_home: Path,
) -> None:
    with freeze_time(NOW):
        memories.save("context", "A note about the shop, by its folder name only", project="shop")
        starts = report.next_starts(memory_home, [SHOP, API, "shop"])
        assert starts == {p: report.next_start(memory_home, p) for p in (SHOP, API, "shop")}
    assert "by its folder name only" in starts[SHOP]
    assert "Postgres" in starts[SHOP]
    assert "Postgres" not in starts[API]


@pytest.mark.usefixtures("memory_home")
def test_an_apostrophe_is_shown_as_it_is_and_never_read_as_a_secret(
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = "We'll go with Postgres for the orders database because we need row-level locks."
    with freeze_time(NOW):
        memories.save("context", said, tags=["decision"], project=SHOP)
        _, page = page_of(capsys)
    assert said.rstrip(".") in page
    assert not re.search(r"\[REDACTED:[a-z-]+\]", page)
    assert (
        report_page.escape('<a href="x">it\'s</a>') == "&lt;a href=&quot;x&quot;&gt;it's&lt;/a&gt;"
    )
