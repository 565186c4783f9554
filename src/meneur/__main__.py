"""``python -m meneur`` is the same as the ``meneur`` command."""

from meneur.cli.main import main

main()
