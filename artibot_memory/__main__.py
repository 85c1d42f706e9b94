"""``python -m artibot_memory`` runs the command line."""

from artibot_memory.cli import main

raise SystemExit(main())
