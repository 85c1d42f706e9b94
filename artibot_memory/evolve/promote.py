"""Promote (docs/EVOLVE.md §3): which beliefs are Top Beliefs, and why the others are not.

Pure and deterministic, seed 002's ``promote.js``: the candidates are active beliefs at or
over the thresholds, freshness ``stable`` or ``strengthening``; while few beliefs are active
(``bootstrap_below``) and ``bootstrap`` is on, the thresholds are lowered to
``min(configured, 0.7)`` and ``min(configured, 1)``; the candidates are ranked by
``confidence × ln(sources + 1)`` (ties: more sources, newer evidence, the id) and the first
``top_beliefs_n`` kept. A belief that was top and no longer is, is demoted with its reason.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from artibot_memory.evolve.beliefs import CONTRADICTED, STABLE, STALE, STRENGTHENING

BOOTSTRAP_CONFIDENCE = 0.7
BOOTSTRAP_SOURCES = 1
PROMOTABLE = (STABLE, STRENGTHENING)
BOOTSTRAP, NORMAL = "bootstrap", "normal"
BELOW, PUSHED_OUT = "below threshold", "pushed out by the limit"


@dataclass(frozen=True)
class Belief:
    """A belief as promote sees it: its current confidence, sources and freshness."""

    id: str
    kind: str
    label: str
    confidence: float
    sources: int
    freshness: str
    active: bool
    newest: datetime | None = None
    top: bool = False  # in Top Beliefs now
    state: str = "active"  # the memory's state (a belief not active never qualifies)

    def rank(self) -> float:
        """Return seed 002's composite score: confidence × ln(sources + 1)."""
        return self.confidence * math.log(self.sources + 1)


@dataclass(frozen=True)
class Thresholds:
    """The effective thresholds of one promote, and the mode that made them."""

    mode: str
    confidence: float
    sources: int
    limit: int
    bootstrap_below: int = 20


@dataclass(frozen=True)
class Outcome:
    """What one promote decided: the top, what enters it and what leaves it (with why)."""

    thresholds: Thresholds
    beliefs: int  # active beliefs, the number bootstrap is decided on
    top: tuple[Belief, ...]
    promoted: tuple[Belief, ...]
    demoted: tuple[tuple[Belief, str], ...]


def thresholds(settings: Mapping[str, object], active: int) -> Thresholds:
    """Return the effective thresholds for a memory of ``active`` active beliefs.

    >>> s = {"evolve.promotion_confidence": 0.85, "evolve.promotion_sources": 5,
    ...      "evolve.top_beliefs_n": 10, "evolve.bootstrap": True, "evolve.bootstrap_below": 20}
    >>> low = thresholds(s, 19)
    >>> low.mode, low.confidence, low.sources, thresholds(s, 20).mode
    ('bootstrap', 0.7, 1, 'normal')
    >>> thresholds({**s, "evolve.bootstrap": False}, 3).mode
    'normal'
    """
    confidence = float(settings["evolve.promotion_confidence"])  # type: ignore[arg-type]
    sources = int(settings["evolve.promotion_sources"])  # type: ignore[call-overload]
    limit = int(settings["evolve.top_beliefs_n"])  # type: ignore[call-overload]
    below = int(settings["evolve.bootstrap_below"])  # type: ignore[call-overload]
    if settings["evolve.bootstrap"] and active < below:
        return Thresholds(
            BOOTSTRAP,
            min(confidence, BOOTSTRAP_CONFIDENCE),
            min(sources, BOOTSTRAP_SOURCES),
            limit,
            below,
        )
    return Thresholds(NORMAL, confidence, sources, limit, below)


def qualifies(belief: Belief, at: Thresholds) -> bool:
    """Tell whether ``belief`` is a candidate under ``at``."""
    return (
        belief.active
        and belief.confidence >= at.confidence - 1e-9
        and belief.sources >= at.sources
        and belief.freshness in PROMOTABLE
    )


def order(beliefs: Iterable[Belief]) -> list[Belief]:
    """Return ``beliefs`` best first: the composite score, then sources, newest, id.

    >>> a = Belief("pref-a", "preference", "a", 0.9, 4, "stable", True)
    >>> b = Belief("pref-b", "preference", "b", 0.9, 4, "stable", True)
    >>> c = Belief("pref-c", "preference", "c", 0.8, 9, "stable", True)
    >>> [x.id for x in order([b, c, a])]
    ['pref-c', 'pref-a', 'pref-b']
    """
    return sorted(
        beliefs,
        key=lambda b: (
            -round(b.rank(), 9),
            -b.sources,
            -(b.newest.timestamp() if b.newest else 0.0),
            b.id,
        ),
    )


def promote(beliefs: Iterable[Belief], settings: Mapping[str, object]) -> Outcome:
    """Decide the Top Beliefs among ``beliefs`` (their ``top`` says which are top now)."""
    every = list(beliefs)
    at = thresholds(settings, sum(1 for b in every if b.active))
    ranked = order(b for b in every if qualifies(b, at))
    top = tuple(ranked[: at.limit])
    kept = {b.id for b in top}
    promoted = tuple(b for b in top if not b.top)
    demoted = tuple(
        (b, reason(b, at, pushed=b in ranked)) for b in order(every) if b.top and b.id not in kept
    )
    return Outcome(at, sum(1 for b in every if b.active), top, promoted, demoted)


def reason(belief: Belief, at: Thresholds, *, pushed: bool) -> str:
    """Say why ``belief`` is not top: contradicted, stale, below threshold, pushed out.

    >>> at = Thresholds("normal", 0.85, 5, 10)
    >>> reason(Belief("p", "preference", "p", 0.2, 6, "contradicted", True), at, pushed=False)
    'contradicted'
    >>> reason(Belief("p", "preference", "p", 0.8, 6, "stable", True), at, pushed=False)
    'below threshold: conf 0.80 < 0.85'
    """
    if belief.freshness in (CONTRADICTED, STALE):
        return belief.freshness
    if pushed:
        return PUSHED_OUT
    if not belief.active:
        why = belief.state if belief.state != "active" else "expired"
    elif belief.confidence < at.confidence - 1e-9:
        why = f"conf {belief.confidence:.2f} < {at.confidence:.2f}"
    elif belief.sources < at.sources:
        why = f"sources {belief.sources} < {at.sources}"
    else:
        why = f"freshness {belief.freshness}"
    return f"{BELOW}: {why}"
