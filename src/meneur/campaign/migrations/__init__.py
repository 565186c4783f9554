"""Alembic migrations of the campaign database, shipped in the package and run on open."""
