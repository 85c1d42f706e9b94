"""The one Markdown reader: sections, line numbers, bullets, markers, a lossless round trip."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from artibot_memory.text.markdown import bullets, fingerprint, marked, parse, render, unmarked

NOTE = """# 2026-11-30

## Events
- 10:02 [shop] Asked: fix the login redirect (session 1a2b3c4d:3-40)

## Decisions
```
## not a heading
- not a bullet
```
* 11:00 [shop] Chose argon2 over bcrypt because of memory hardness (ctx-0a1b2c3d4e)
"""


def test_sections_keep_their_titles_and_line_numbers() -> None:
    doc = parse(NOTE)
    assert [s.title for s in doc.sections] == ["Events", "Decisions"]
    assert [line.number for line in doc.preamble] == [1, 2]
    assert doc.sections[0].heading.number == 3
    assert [(b.line, b.text) for b in bullets(doc.section("Events"))] == [
        (4, "10:02 [shop] Asked: fix the login redirect (session 1a2b3c4d:3-40)")
    ]


def test_a_code_fence_hides_headings_and_bullets() -> None:
    found = bullets(parse(NOTE).section("Decisions"))
    assert [b.line for b in found] == [11]
    assert found[0].text.startswith("11:00 [shop] Chose argon2")


def test_markers_are_split_off_and_written_back() -> None:
    line = marked("Use pnpm, not npm", "pref-1a2b3c4d5e")
    doc = parse("## User Preferences\n" + line + "\n")
    (bullet,) = bullets(doc.section("User Preferences"))
    assert (bullet.text, bullet.marker) == ("Use pnpm, not npm", "pref-1a2b3c4d5e")
    assert bullet.raw == line
    assert unmarked("text <!--am:ctx-1-->  ") == ("text", "ctx-1")
    assert unmarked("a <!-- not ours -->") == ("a <!-- not ours -->", None)


def test_a_missing_section_has_no_bullets() -> None:
    assert parse("just prose\n").section("Events") is None
    assert bullets(None) == []


def test_fingerprints_differ_by_one_byte() -> None:
    assert fingerprint(NOTE) != fingerprint(NOTE + " ")
    assert fingerprint(NOTE) == fingerprint(NOTE.encode())


PIECES = st.sampled_from([*"#- *`~\n\tab<>!:", "## ", "```", "\r", "<!-- am:x -->"])


@given(st.lists(PIECES).map("".join))
def test_render_gives_back_the_parsed_text_byte_for_byte(text: str) -> None:
    assert render(parse(text)) == text
