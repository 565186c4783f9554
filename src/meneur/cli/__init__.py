"""The ``meneur`` command line (Typer + rich)."""
