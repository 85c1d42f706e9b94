r"""Each failed command of a session paired with what fixed it, how that is known, how sure.

The one rule behind both readers of a session: the ingest, which walks the journal the
hooks wrote (commands, failures, edits, recalled fixes), and the transcript digest read at
SessionEnd, which also holds the assistant's words. Each turns what it read into
:class:`Step`\ s and calls :func:`pair`; nothing else decides what fixed an error.

How a failure is paired, strongest first (the confidence of each in :data:`CONFIDENCE`):

- **same-command** (0.9): the same command (its
  :func:`~artibot_memory.text.shell.command_signature`) later succeeded in the session;
- **same-target** (0.7): the same program on the same target succeeded instead, the rest
  of :func:`~artibot_memory.text.shell.same_attempt` (``pytest tests/x.py -q`` after
  ``pytest tests/x.py -x``, ``git push -u origin x`` after ``git push``);
- **explained** (0.6): no retry succeeded, but the assistant said after the failure what
  the problem or the fix was ("the fix was …", "fixed by …", "the problem was …",
  "I changed …", "Fixed: …", "root cause …", "원인은 …", "… 수정했습니다", "… 고쳤습니다",
  "해결: …"), or what was wrong ("… does not exist", "… is not installed", "… only needs …",
  "a typo", "존재하지 않…"), never in a sentence that only says what comes next ("Let me …",
  "I'll …", "…겠습니다") or asks: its words are kept, with the edits and commands that came
  with them;
- **unresolved** (0): none of these; what happened next is kept instead.

The assistant's words count within a window: from the failure to the retry that fixed
it, plus the reply right after that retry (where "Fixed: …" usually stands), never past
the end of the turn (the next prompt). A retry's pairing keeps the words too, when any
were said; of the sentences that carry a cue, the two nearest the failure are kept,
redacted before they are cut.

A fix the failure hook recalled is judged by what the session did next (:func:`outcomes`):
evidence when the same command then succeeded, counter-evidence when the same error
came back, once per session and memory; :func:`fix_confidence` says what that does to
the confidence shown.

>>> steps = [command_step(FAILED, "pytest -q", signature="e"), command_step(SUCCEEDED, "pytest -q")]
>>> [(at, fix.method, fix.confidence) for at, fix in pair(steps)]
[(0, 'same-command', 0.9)]
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from artibot_memory.capture.journal import redacted
from artibot_memory.text.shell import CommandLine
from artibot_memory.text.trim import clip

__all__ = [
    "CONFIDENCE",
    "Fix",
    "Outcome",
    "Step",
    "command_step",
    "explanation",
    "fix_confidence",
    "outcomes",
    "pair",
    "relative",
]

# Step kinds, in the order a session shows them.
FAILED = "failed"  # a command (or tool call) that failed, with its error signature
SUCCEEDED = "succeeded"  # a command that succeeded
RAN = "ran"  # a command whose outcome cannot be told (in the background, tests unclear)
EDITED = "edited"  # a file changed, with what changed
SAID = "said"  # the assistant's words
TURN = "turn"  # a prompt: the turn before it is over
RECALLED = "recalled"  # the failure hook offered a stored fix (``ref`` is its memory id)

SAME_COMMAND = "same-command"
SAME_TARGET = "same-target"
EXPLAINED = "explained"
UNRESOLVED = "unresolved"
CONFIDENCE = {SAME_COMMAND: 0.9, SAME_TARGET: 0.7, EXPLAINED: 0.6, UNRESOLVED: 0.0}
VERIFIED = frozenset({SAME_COMMAND, SAME_TARGET})

MAX_SENTENCES = 2  # of the assistant's words kept for one failure
SENTENCE_CHARS = 200
EXPLANATION_CHARS = 300
MAX_STEPS = 8  # steps named in one fix (or in what happened next)
COMMAND_CHARS = 80

Keys = frozenset[tuple[str, ...]]

_CUE = re.compile(
    r"\b(?:the\s+(?:fix|solution|cause|root\s+cause|problem|issue|error|bug)\s+(?:was|is)\b"
    r"|fixed\s+(?:it\s+|this\s+|that\s+)?by\b"
    r"|(?:fixed|fix|solution|cause)\s*:"
    r"|root\s+cause"
    r"|caused\s+by\b"
    r"|(?:resolved|solved)\s+(?:it\s+|this\s+)?by\b"
    r")"
    # "I changed …" says what was done when it leads a sentence or a clause, not in an aside
    r"|(?:^|[,;:]\s*|\b(?:so|then|and)\s+)i(?:'ve|\s+have)?\s+(?:changed|replaced|updated|"
    r"switched|removed|added|renamed|installed|rewrote|moved)\b"
    # a diagnosis: what is wrong, in the words people use for it
    r"|\b(?:does|did|do)\s*(?:not|n't)\s+exist\b"
    r"|\b(?:is|was|are|were)(?:\s+still)?\s+(?:missing|undefined|misspelled|not\s+(?:installed|"
    r"defined|set|exported))\b|\b(?:isn't|wasn't|aren't)\s+(?:installed|defined|set|exported)\b"
    r"|\bonly\s+needs?\b|\btypo\b|\b(?:fails|failed|broke)\s+because\b"
    r"|원인은|원인\s*:|문제는|해결\s*:|해결책은|수정했습니다|고쳤습니다|해결했습니다|"
    r"변경했습니다|바꿨습니다|존재하지\s*않|설치되지\s*않|오타",
    re.IGNORECASE,
)
# A sentence that only says what comes next, or asks, explains nothing.
_INTENT = re.compile(
    r"^(?:let\s+me|let's|i'll|i\s+will|i'm\s+going\s+to|we'll|next\b)|\?$|겠습니다\.?$",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\s*\n\s*")
_MARKUP = re.compile(r"\*\*|__|^(?:[-*>]|#+|\d+[.)])\s+")


@dataclass(frozen=True)
class Step:
    """One thing a session did, as pairing needs it.

    ``text`` is the command (failed, succeeded, ran, recalled), the file (edited) or the
    words (said); ``ref`` names the tool call (or, recalled, the memory offered); ``keys``
    are a failure's :meth:`~artibot_memory.text.shell.CommandLine.attempt_keys` or a
    success's :meth:`~artibot_memory.text.shell.CommandLine.fix_keys`.
    """

    kind: str
    text: str = ""
    at: str = ""
    ref: str = ""
    signature: str = ""
    change: str = ""  # edited: what changed (artibot_memory.text.change)
    keys: Keys = frozenset()


def command_step(
    kind: str, command: str, *, at: str = "", ref: str = "", signature: str = ""
) -> Step:
    """Return the step of a command, with the keys its kind pairs by, read from the command.

    >>> sorted(command_step(SUCCEEDED, "git push -u origin x").keys)[0]
    ('command', 'git push -u origin x')
    """
    if kind not in (FAILED, SUCCEEDED, RECALLED):
        return Step(kind, command, at, ref, signature)
    line = CommandLine(command)
    keys = line.fix_keys() if kind == SUCCEEDED else line.attempt_keys()
    return Step(kind, command, at, ref, signature, keys=keys)


@dataclass(frozen=True)
class Fix:
    """What closed one failure (or, unresolved, what happened next), and how that is known.

    ``between`` holds the commands and edits after the failure: up to the success that
    fixed it, else to the end of the turn.
    """

    method: str = UNRESOLVED
    at: str = ""  # when the fix was established: the success, or the words
    fixed_by: str = ""  # the command whose success closed the failure
    explanation: str = ""  # the assistant's words, redacted
    between: tuple[Step, ...] = ()

    @property
    def confidence(self) -> float:
        """How sure the pairing is, by its method alone (outcomes move it later)."""
        return CONFIDENCE[self.method]

    @property
    def resolved(self) -> bool:
        """True when something says what fixed the failure."""
        return self.method != UNRESOLVED

    @property
    def verified(self) -> bool:
        """True when a later success of the same attempt closed it."""
        return self.method in VERIFIED

    def commands(self) -> tuple[str, ...]:
        """Return the commands run in between (any outcome), once each, the fixing one left out."""
        found = [s.text for s in self.between if s.kind in (SUCCEEDED, RAN, FAILED)]
        return tuple(c for c in dict.fromkeys(found) if c and c != self.fixed_by)

    def files(self) -> tuple[str, ...]:
        """Return the files edited in between, once each."""
        return tuple(dict.fromkeys(s.text for s in self.between if s.kind == EDITED and s.text))

    def edits(self, root: str | None = None) -> tuple[str, ...]:
        """Each edit in between as ``file (what changed)``, paths relative to ``root``."""
        edited = [s for s in self.between if s.kind == EDITED and s.text]
        return tuple(dict.fromkeys(_edit_text(s, root) for s in edited))[:MAX_STEPS]

    def describe(self, root: str | None = None) -> str:
        """Return the resolution in words; for an unresolved failure, what happened next."""
        if not self.resolved:
            done = _described(self.between, root, failures=True)
            return "; ".join(done) if done else "nothing else ran"
        parts = [self.explanation.rstrip(". ")] if self.explanation else []
        parts += _described(self.between, root, failures=False)
        if self.method == SAME_COMMAND and not parts:
            return f"re-running `{_cmd(self.fixed_by)}` unchanged succeeded"
        if self.verified:
            parts.append(f"then `{_cmd(self.fixed_by)}` succeeded")
        return "; ".join(parts)


def pair(steps: Sequence[Step], limit: int | None = None) -> list[tuple[int, Fix]]:
    """Return ``(index, fix)`` for each failed step (the first ``limit`` of them), in order."""
    index = _SuccessIndex(steps)
    turns = [at for at, step in enumerate(steps) if step.kind == TURN]
    failures = [at for at, step in enumerate(steps) if step.kind == FAILED][:limit]
    found = []
    for at in failures:
        following = bisect_right(turns, at)
        turn_end = turns[following] if following < len(turns) else len(steps)
        found.append((at, _fix_of(steps, at, index.first_fix(steps[at], at), turn_end)))
    return found


def _fix_of(steps: Sequence[Step], at: int, fix_at: int | None, end: int) -> Fix:
    failed = steps[at]
    said, said_at = explanation(steps[at + 1 : _window_end(steps, fix_at, end)])
    if fix_at is not None:
        fixer = steps[fix_at]
        method = SAME_COMMAND if _same_command(failed, fixer) else SAME_TARGET
        return Fix(method, fixer.at, fixer.text, said, _actions(steps[at + 1 : fix_at]))
    actions = _actions(steps[at + 1 : end])
    if said:
        return Fix(EXPLAINED, said_at or failed.at, "", said, actions)
    return Fix(UNRESOLVED, failed.at, "", "", actions[:MAX_STEPS])


def _window_end(steps: Sequence[Step], fix_at: int | None, turn_end: int) -> int:
    """Where the words about a failure stop: after the fix's reply, or at the turn's end."""
    if fix_at is None or fix_at >= turn_end:
        return turn_end
    end = fix_at + 1
    while end < turn_end and steps[end].kind == SAID:
        end += 1
    return end


def _same_command(failed: Step, fixer: Step) -> bool:
    return any(key[0] == "command" and key in fixer.keys for key in failed.keys)


def _actions(steps: Sequence[Step]) -> tuple[Step, ...]:
    return tuple(s for s in steps if s.kind in (SUCCEEDED, RAN, FAILED, EDITED))


class _SuccessIndex:
    """Positions of the successes by each key they offer, so pairing is not quadratic.

    A failure's fix is the first later success offering one of the failure's attempt
    keys: exactly :func:`artibot_memory.text.shell.same_attempt`.
    """

    def __init__(self, steps: Sequence[Step]) -> None:
        self.positions: dict[tuple[str, ...], list[int]] = {}
        for at, step in enumerate(steps):
            if step.kind == SUCCEEDED:
                for key in step.keys:
                    self.positions.setdefault(key, []).append(at)

    def first_fix(self, failed: Step, after: int) -> int | None:
        found = [self._first(self.positions.get(key, []), after) for key in failed.keys]
        hits = [at for at in found if at is not None]
        return min(hits) if hits else None

    @staticmethod
    def _first(positions: list[int], after: int) -> int | None:
        at = bisect_right(positions, after)
        return positions[at] if at < len(positions) else None


def explanation(steps: Sequence[Step]) -> tuple[str, str]:
    """Return the assistant's sentences that say what went wrong or what fixed it, and when.

    The first sentences with a cue, nearest first, redacted, then cut; ``('', '')`` when
    none has one.

    >>> words = [Step(SAID, "Let me look. **Fixed:** the loader now uses json.", "t1")]
    >>> explanation(words)
    ('Fixed: the loader now uses json.', 't1')
    >>> explanation([Step(SAID, "원인은 설정 파일의 오타였습니다. 다시 실행합니다.", "t2")])
    ('원인은 설정 파일의 오타였습니다.', 't2')
    """
    chosen: list[str] = []
    when = ""
    for step in steps:
        if step.kind != SAID:
            continue
        for sentence in _sentences(step.text):
            if _explains(sentence) and sentence not in chosen:
                chosen.append(sentence)
                when = when or step.at
            if len(chosen) == MAX_SENTENCES:
                break
        if len(chosen) == MAX_SENTENCES:
            break
    if not chosen:
        return "", ""
    kept = [clip(str(redacted(s)), SENTENCE_CHARS) for s in chosen]
    return clip(" ".join(kept), EXPLANATION_CHARS), when


def _explains(sentence: str) -> bool:
    return _CUE.search(sentence) is not None and _INTENT.search(sentence) is None


def _sentences(text: str) -> list[str]:
    pieces = (_MARKUP.sub("", piece).strip() for piece in _SENTENCE_END.split(text))
    return [piece for piece in pieces if piece]


def _described(steps: Sequence[Step], root: str | None, *, failures: bool) -> list[str]:
    """Name each step once: ``ran `x```, ``edited f (change)``, and failures when asked."""
    named: list[str] = []
    for step in steps:
        if step.kind == EDITED:
            named.append(f"edited {_edit_text(step, root)}")
        elif step.kind in (SUCCEEDED, RAN):
            named.append(f"ran `{_cmd(step.text)}`")
        elif step.kind == FAILED and failures:
            named.append(f"`{_cmd(step.text)}` failed")
    return list(dict.fromkeys(named))[-MAX_STEPS:]


def _edit_text(step: Step, root: str | None) -> str:
    name = relative(step.text, root)
    return f"{name} ({step.change})" if step.change else name


def relative(path: str, root: str | None) -> str:
    """Return ``path`` relative to ``root`` when inside it, else unchanged.

    >>> relative("/src/app/lib/a.py", "/src/app"), relative("/etc/hosts", "/src/app")
    ('lib/a.py', '/etc/hosts')
    """
    if root and path.startswith(root.rstrip(os.sep) + os.sep):
        return path[len(root.rstrip(os.sep)) + 1 :]
    return path


def _cmd(command: str) -> str:
    return clip(command, COMMAND_CHARS)


@dataclass(frozen=True)
class Outcome:
    """What became of a recalled fix in the session: it worked, or the error came back."""

    memory_id: str
    worked: bool
    at: str  # when the session showed it
    ref: str  # the tool call that showed it


def outcomes(steps: Sequence[Step]) -> list[Outcome]:
    """Judge each recalled fix by what came next: the first retry success, or the error again.

    Once per memory: the first recall that comes to an outcome decides it.

    >>> steps = [Step(RECALLED, "make", ref="err-1", signature="boom",
    ...               keys=command_step(FAILED, "make").keys),
    ...          command_step(SUCCEEDED, "make", ref="t2")]
    >>> outcomes(steps)
    [Outcome(memory_id='err-1', worked=True, at='', ref='t2')]
    """
    decided: dict[str, Outcome] = {}
    for at, step in enumerate(steps):
        if step.kind == RECALLED and step.ref and step.ref not in decided:
            outcome = _outcome(step, steps[at + 1 :])
            if outcome is not None:
                decided[step.ref] = outcome
    return list(decided.values())


def _outcome(recalled: Step, later: Sequence[Step]) -> Outcome | None:
    for step in later:
        if step.kind == SUCCEEDED and not recalled.keys.isdisjoint(step.keys):
            return Outcome(recalled.ref, worked=True, at=step.at, ref=step.ref)
        if step.kind == FAILED and recalled.signature and step.signature == recalled.signature:
            return Outcome(recalled.ref, worked=False, at=step.at, ref=step.ref)
    return None


def fix_confidence(base: float, confirmed: int, contradicted: int) -> float:
    """Return a fix's confidence after its recalls worked or the error came back.

    Each time it worked closes a third of the gap to 1; each return of the error halves it.

    >>> fix_confidence(0.6, 0, 0), fix_confidence(0.6, 1, 0), fix_confidence(0.6, 0, 1)
    (0.6, 0.73, 0.3)
    """
    sure = 1 - (1 - base) * (2 / 3) ** max(confirmed, 0)
    return round(sure * 0.5 ** max(contradicted, 0), 2)
