"""artibot-memory: long-term memory for coding agents, kept in plain JSON files."""

from __future__ import annotations

__version__ = "0.1.0"
