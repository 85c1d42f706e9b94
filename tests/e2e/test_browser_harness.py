"""The headless Chromium driver (tests/e2e/browser.py) catches what it is there to catch.

Tiny pages written into tmp_path: one wider than a phone, one that reaches out to the
network (and reaches nothing), one that logs an error, one that breaks its own CSP, and a
clean one that passes every check the report's test makes. Without Chromium these skip
(install it with ``.ci/install-debian``, see ``browser.INSTALL_COMMAND``);
``ARTIBOT_REQUIRE_BROWSER=1`` (CI) turns the skip into a failure.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .browser import (
    Browser,
    BrowserMissingError,
    Page,
    find_chromium,
    live_in_group,
    require_chromium,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

HEAD = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>t</title>'
)
CLEAN = (
    HEAD + '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
    "<style>body{margin:0;font:16px sans-serif} .item{padding:4px}"
    " @media (prefers-color-scheme: dark){body{background:#111;color:#eee}}</style></head>"
    '<body><nav><a href="#one">One</a></nav><input id="q" type="search" aria-label="Search">'
    '<section id="one"><p class="item" id="a">pnpm everywhere, never npm</p>'
    '<p class="item" id="b">Postgres for the orders database</p>'
    '<p class="item" id="c" lang="ko">앞으로 커밋 메시지는 한국어로 써줘.</p></section>'
    "<script>const q = document.getElementById('q');"
    "q.addEventListener('input', () => { const w = q.value.toLowerCase();"
    " for (const el of document.querySelectorAll('.item'))"
    " el.hidden = !!w && !el.textContent.toLowerCase().includes(w); });</script>"
    "</body></html>"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(require_chromium()) as started:
        yield started


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = browser.new_page()
    yield opened
    opened.close()


def _write(tmp_path: Path, html: str, name: str = "page.html") -> Path:
    path = tmp_path / name
    path.write_text(html, encoding="utf-8")
    return path


def test_a_page_wider_than_a_phone_is_caught_and_its_culprit_named(
    page: Page, tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        HEAD + '</head><body><p>fits</p><pre id="log" class="wide" style="width:700px">'
        "a long line</pre></body></html>",
    )
    page.set_viewport(390)
    page.goto(path)
    found = page.overflow()
    assert found.overflows, found
    assert found.scroll_width >= 700
    assert any(o.startswith("pre#log.wide spans") for o in found.offenders), found
    page.set_viewport(1440)
    page.goto(path)
    assert not page.overflow().overflows, page.overflow()


def test_a_page_without_a_viewport_meta_is_too_wide_for_a_phone(page: Page, tmp_path: Path) -> None:
    path = _write(tmp_path, "<!doctype html><html><body><p>desktop only</p></body></html>")
    page.set_viewport(390)
    page.goto(path)
    assert page.overflow().overflows  # laid out 980 px wide, as a phone would


def test_every_request_attempted_is_caught_and_none_reaches_anything(
    page: Page, tmp_path: Path
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.setblocking(False)  # noqa: FBT003 - socket's own API
        port = listener.getsockname()[1]
        path = _write(
            tmp_path,
            HEAD + "</head><body><p>hi</p>"
            '<img alt="" src="http://127.0.0.1:9/x.png">'
            f'<img alt="" src="http://127.0.0.1:{port}/y.png">'
            '<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
            "<script>fetch('https://example.invalid/').catch(() => {});</script>"
            "</body></html>",
        )
        page.set_viewport(1440)
        page.goto(path)
        page.evaluate("new Promise(r => setTimeout(r, 200))")  # the page's own time, not ours
        urls = {r.url for r in page.foreign_requests}
        assert urls == {
            "http://127.0.0.1:9/x.png",
            f"http://127.0.0.1:{port}/y.png",
            "https://example.invalid/",
        }, page.requests
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing connected: the driver failed the request first
    assert all("ERR_BLOCKED_BY_CLIENT" in m.text for m in page.errors), page.errors


def test_console_errors_exceptions_and_csp_violations_are_caught(
    page: Page, tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        HEAD + '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline'\"></head><body><p>hi</p><script>"
        "console.error('something broke');"
        "fetch('https://example.invalid/').catch(() => {});"
        "setTimeout(() => { throw new Error('uncaught here'); }, 0);"
        "</script></body></html>",
    )
    page.set_viewport(1440)
    page.goto(path)
    texts = [m.text for m in page.errors]
    assert "something broke" in texts, page.messages
    assert any("uncaught here" in t for t in texts), page.messages
    assert any("Content Security Policy" in t for t in texts), page.messages
    assert page.foreign_requests == []  # the CSP stopped the fetch before it was a request


def test_a_clean_page_passes_every_check(page: Page, tmp_path: Path) -> None:
    path = _write(tmp_path, CLEAN)
    for width in (390, 1440):
        for scheme in ("light", "dark"):
            page.set_viewport(width)
            page.set_color_scheme(scheme)
            page.goto(path)
            assert not page.overflow().overflows, page.overflow()
            assert page.foreign_requests == [], page.foreign_requests
            assert page.errors == [], page.errors
            dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            assert dark is (scheme == "dark")
            shot = page.screenshot(tmp_path / f"clean-{width}-{scheme}.png")
            assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    rendered, why = page.hangul_rendered()
    assert rendered, why


def test_typing_filters_the_items_and_clearing_restores_them(page: Page, tmp_path: Path) -> None:
    page.set_viewport(390)
    page.goto(_write(tmp_path, CLEAN))
    assert all(i.visible for i in page.items())
    page.type_into("#q", "postgres")
    assert [i.id for i in page.items() if i.visible] == ["b"]
    page.clear("#q")
    assert page.evaluate("document.getElementById('q').value") == ""
    assert [i.id for i in page.items() if i.visible] == ["a", "b", "c"]


def test_tab_moves_the_focus_through_the_link_and_the_search_box(
    page: Page, tmp_path: Path
) -> None:
    page.set_viewport(1440)
    page.goto(_write(tmp_path, CLEAN))
    stops = page.tab_stops(2)
    assert stops[0]["href"] == "#one", stops
    assert stops[1]["id"] == "q", stops


def test_a_clip_of_the_top_is_saved_at_its_size_as_jpeg(page: Page, tmp_path: Path) -> None:
    page.set_viewport(1440)
    page.goto(_write(tmp_path, CLEAN))
    shot = page.screenshot(tmp_path / "top.jpg", clip=(1440, 900), quality=70)
    data = shot.read_bytes()
    assert data.startswith(b"\xff\xd8")


def test_the_browser_is_gone_and_its_profile_removed_after_the_block(tmp_path: Path) -> None:
    with Browser(require_chromium()) as browser:
        pid = browser._pid  # noqa: SLF001 - what the block must end
        profile = browser._dir  # noqa: SLF001
        assert pid is not None
        assert profile.is_dir()
        browser.new_page().goto(_write(tmp_path, CLEAN))
    assert live_in_group(pid) == []  # the whole process group is gone
    assert not profile.exists()


def test_a_missing_chromium_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARTIBOT_CHROMIUM_BIN", str(tmp_path / "no-such-chromium"))
    assert find_chromium() is None
    with pytest.raises(BrowserMissingError, match=r"Chromium not found .* install it with"):
        Browser()


def test_a_missing_chromium_skips_unless_the_run_requires_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARTIBOT_CHROMIUM_BIN", str(tmp_path / "no-such-chromium"))
    monkeypatch.delenv("ARTIBOT_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Chromium not found"):
        require_chromium()
    monkeypatch.setenv("ARTIBOT_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match=r"ARTIBOT_REQUIRE_BROWSER=1"):
        require_chromium()
