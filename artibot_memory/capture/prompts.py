"""What a user's prompt says about memory: slash commands and stated preferences.

Standard library only: UserPromptSubmit runs on every prompt, and most prompts hold
nothing to remember, so the hook decides here, cheaply, whether the stores are needed.

- A slash command (``/compact``, ``/review-pr 12``) is counted in the command history.
- An explicit request ("remember that ...", "기억해") is saved as an active preference.
- A stated preference ("I prefer ...", "always use ...", "never ...", "don't use ...",
  "선호", "항상", "절대", "하지 마") is saved as a pending candidate; the same one stated
  in two or more sessions becomes active (seed 003: 2+ occurrences).

Questions are not statements: a sentence ending in "?" is never taken as a preference.

>>> [(d.text, d.explicit) for d in detect_preferences("Remember that we deploy with fly.io.")]
[('we deploy with fly.io', True)]
>>> [(d.text, d.explicit) for d in detect_preferences("I prefer pnpm over npm")]
[('I prefer pnpm over npm', False)]
>>> detect_preferences("Why does the build fail?")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_PREFERENCE_CHARS = 300
_SLASH = re.compile(r"^\s*/([A-Za-z][\w:.-]{0,63})(?=\s|$)")
_SENTENCES = re.compile(r"(?<=[.!?。])\s+|\n+")
_EXPLICIT = re.compile(
    r"^(?:please\s+)?(?:always\s+)?remember(?:\s+that|\s+this)?\s*[:,-]?\s+(?P<rest>.+)$"
    r"|^(?P<ko>.+?)\s*(?:을|를|은|는)?\s*(?:꼭\s*)?기억해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?[.!]?$",
    re.IGNORECASE,
)
_STATED = re.compile(
    r"\bI\s+(?:really\s+|much\s+|strongly\s+)?prefer\b"
    r"|\bI(?:'d| would)\s+rather\b"
    r"|\b(?:always|never)\s+(?:use|run|write|do|put|add|call|commit|push|import|create|"
    r"format|test|ask|answer|reply|respond|explain|keep|make)\b"
    r"|\b(?:don'?t|do\s+not|please\s+don'?t)\s+(?:ever\s+)?(?:use|add|run|write|commit|push|"
    r"put|call|import|create|mock|change|touch|modify|edit|delete|remove)\b"
    r"|\bmy\s+preference\s+is\b"
    r"|선호|항상|절대|하지\s*마|쓰지\s*마|사용하지\s*마",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Detected:
    """A preference found in a prompt; ``explicit`` when the user asked to remember it."""

    text: str
    explicit: bool


def slash_command(prompt: str) -> str | None:
    """Return the slash command a prompt starts with (``/compact``), or None.

    >>> slash_command("/review-pr 12"), slash_command("no command")
    ('/review-pr', None)
    """
    match = _SLASH.match(prompt or "")
    return f"/{match.group(1)}" if match else None


def sentences(text: str) -> list[str]:
    """Split a prompt into trimmed sentences (and lines)."""
    return [s.strip() for s in _SENTENCES.split(text) if s.strip()]


def detect_preferences(prompt: str) -> list[Detected]:
    """Return the preferences a prompt states, explicit ones with their trigger removed."""
    if not prompt or slash_command(prompt):
        return []
    found = []
    for sentence in sentences(prompt[:8_000]):
        detected = _detect(sentence)
        if detected is not None:
            found.append(detected)
    return found


def _detect(sentence: str) -> Detected | None:
    if sentence.endswith(("?", "？")):
        return None
    explicit = _EXPLICIT.match(sentence)
    if explicit:
        rest = explicit.group("rest") or explicit.group("ko") or ""
        text = _tidy(rest)
        return Detected(text, explicit=True) if text else None
    if _STATED.search(sentence):
        return Detected(_tidy(sentence), explicit=False)
    return None


def _tidy(text: str) -> str:
    text = text.strip().rstrip(".!。 ").strip()
    return text[:MAX_PREFERENCE_CHARS]
