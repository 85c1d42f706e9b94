"""``python -m artibot_memory`` runs the product's one entry: hooks and the command line."""

from artibot_memory.plugin.entry import main

raise SystemExit(main())
