"""The agents whose hooks feed the memory, by the names the specification gives them.

Every memory a hook saw keeps which agent's it was (``source.agent``); the adapters that
turn each agent's hook payloads into ours are :mod:`artibot_memory.plugin.agents`.
Standard library only, nothing imported: the hooks read it on every call.

>>> NAMES[CODEX]
'Codex CLI'
"""

from __future__ import annotations

CLAUDE = "claude-code"
CODEX = "codex-cli"
GEMINI = "gemini-cli"
CURSOR = "cursor"
AGENTS = (CLAUDE, CODEX, GEMINI, CURSOR)
NAMES = {CLAUDE: "Claude Code", CODEX: "Codex CLI", GEMINI: "Gemini CLI", CURSOR: "Cursor"}
