"""A session digest as plain, dated text: the session summary a project context keeps.

Every text from the transcript is redacted before any cut, so a secret is never half kept.
Its ``Asked`` line holds each prompt in words (:func:`artibot_memory.text.ask.ask_in_words`):
what was pasted with it (a log, code, an image, a data URL) is a short marker.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from artibot_memory.capture.journal import redacted
from artibot_memory.capture.sessions import ASKED
from artibot_memory.capture.transcript import FailedCommand, SessionDigest
from artibot_memory.text.ask import ask_in_words
from artibot_memory.text.trim import clip

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["render_summary"]


def render_summary(digest: SessionDigest, max_chars: int = 2000) -> str:
    """Plain, dated text of the session for a project-context memory, at most ``max_chars``.

    >>> digest = SessionDigest(readable=True, session_id="abc", prompts=("fix login",))
    >>> print(render_summary(digest))
    Session abc (time unknown)
    Asked: fix login
    """
    shown = _redacted(digest, _redactor())  # before any cut, so a secret is never half-kept
    text = "\n".join(line for line in _render_lines(shown) if line)
    return clip(text, max_chars, at="\n", min_keep=0)


def _redactor() -> Callable[[str], str]:
    # The journal's redaction, which fails closed: without the redact module a text is
    # replaced by a marker, never written as it is.
    return redacted


def _redacted(d: SessionDigest, redact: Callable[[str], str]) -> SessionDigest:
    """Return the digest with every text from the transcript passed through ``redact``."""

    def many(items: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(redact(item) for item in items)

    errors = tuple(
        replace(
            e,
            command=redact(e.command),
            error_first_line=redact(e.error_first_line),
            fixed_by=redact(e.fixed_by),
            fix_commands=many(e.fix_commands),
            fix_files=many(e.fix_files),
        )
        for e in d.errors
    )
    tests = tuple(replace(t, command=redact(t.command), summary=redact(t.summary)) for t in d.tests)
    return replace(
        d,
        cwd=redact(d.cwd),
        git_branch=redact(d.git_branch),
        prompts=many(d.prompts),
        files_created=many(d.files_created),
        files_edited=many(d.files_edited),
        errors=errors,
        tests=tests,
        commands=Counter({redact(k): n for k, n in d.commands.items()}),
        slash_commands=Counter({redact(k): n for k, n in d.slash_commands.items()}),
    )


def _render_lines(d: SessionDigest) -> list[str]:
    """Most useful first, so a tight ``max_chars`` cuts the least useful lines."""
    return [
        _header(d),
        _list_line(ASKED, [ask_in_words(p, ASK_CHARS) for p in d.prompts], 4, " | "),
        _list_line("Created", [_short(p, d.cwd) for p in d.files_created], 8, ", "),
        _list_line("Edited", [_short(p, d.cwd) for p in d.files_edited], 8, ", "),
        *_test_lines(d),
        *_error_lines(d),
        _counter_line("Commands", d.commands, 6),
        _counter_line("Slash commands", d.slash_commands, 5),
        _other_line(d),
    ]


def _header(d: SessionDigest) -> str:
    parts = [f"Session {d.session_id[:8] or '?'} {_when(d)}"]
    parts += [f"branch {d.git_branch}"] if d.git_branch else []
    parts += [f"in {d.cwd}"] if d.cwd else []
    return ", ".join(parts)


def _when(d: SessionDigest) -> str:
    if d.started_at is None or d.ended_at is None:
        return "(time unknown)"
    same_day = d.started_at.date() == d.ended_at.date()
    end = d.ended_at.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")
    took = f"{_duration(d.duration_seconds)}, {_duration(d.active_seconds)} active"
    return f"{d.started_at:%Y-%m-%d %H:%M}–{end} UTC ({took})"


def _duration(seconds: float) -> str:
    """``_duration(3725)`` -> '1h02m'; ``_duration(42)`` -> '42s'."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m" if minutes else f"{secs}s"


ASK_CHARS = 120  # of one ask on the Asked line


def _list_line(label: str, items: tuple[str, ...] | list[str], top: int, sep: str) -> str:
    if not items:
        return ""
    count = f" ({len(items)})" if len(items) > 1 else ""
    more = f"{sep}+{len(items) - top} more" if len(items) > top else ""
    return f"{label}{count}: {sep.join(items[:top])}{more}"


def _counter_line(label: str, counter: Counter[str], top: int) -> str:
    if not counter:
        return ""
    shown = "; ".join(f"`{clip(key, 70)}` ×{n}" for key, n in counter.most_common(top))
    return f"{label} ({sum(counter.values())} total, {len(counter)} distinct): {shown}"


def _error_lines(d: SessionDigest) -> list[str]:
    if not d.errors:
        return []
    seen = Counter((e.command, e.error_first_line) for e in d.errors)  # one line per repeat
    first = {(e.command, e.error_first_line): e for e in reversed(d.errors)}
    lines = [f"Errors ({len(d.errors)}, {sum(e.fixed for e in d.errors)} fixed):"]
    for key, n in list(seen.items())[:4]:
        lines.append(_error_line(first[key], n, d.cwd))
    return lines


def _error_line(e: FailedCommand, repeats: int, cwd: str) -> str:
    code = f"exit {e.exit_code}: " if e.exit_code is not None else ""
    times = f" ×{repeats}" if repeats > 1 else ""
    line = f"- `{clip(e.command, 70)}`{times} ({code}{clip(e.error_first_line, 90)})"
    if not e.fixed:
        return line + " not fixed"
    line += " fixed on retry" if e.fixed_by == e.command else f" fixed by `{clip(e.fixed_by, 70)}`"
    if e.fix_commands:
        line += " after " + "; ".join(f"`{clip(c, 40)}`" for c in e.fix_commands[:2])
    if e.fix_files:
        line += ", changing " + ", ".join(clip(_short(f, cwd), 50) for f in e.fix_files[:2])
    return line


def _test_lines(d: SessionDigest) -> list[str]:
    if not d.tests:
        return []
    word = {True: "passed", False: "FAILED", None: "outcome unknown"}
    tally = Counter(word[t.passed] for t in d.tests)
    lines = [
        f"Tests ({len(d.tests)} runs: {', '.join(f'{n} {w}' for w, n in tally.items())}), last:"
    ]
    for t in d.tests[-3:]:  # the latest runs tell where the session left the tests
        summary = f" ({clip(t.summary, 80)})" if t.summary else ""
        lines.append(f"- `{clip(t.command, 70)}` {word[t.passed]}{summary}")
    return lines


def _other_line(d: SessionDigest) -> str:
    parts = [f"{d.compactions} compaction(s)"] if d.compactions else []
    parts += [f"{d.subagent_count} subagent(s)"] if d.subagent_count else []
    parts += [f"{d.denied} tool call(s) refused"] if d.denied else []
    parts += [f"model {', '.join(d.models)}"] if d.models else []
    parts += ["transcript truncated"] if d.truncated else []
    return "Also: " + "; ".join(parts) if parts else ""


def _short(path: str, cwd: str) -> str:
    """Make a path relative to the session's directory when inside it."""
    prefix = cwd.rstrip("/") + "/"
    return path[len(prefix) :] if cwd and path.startswith(prefix) else path
