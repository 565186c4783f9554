"""PostgreSQL for the tests that need a real server (storage, web).

The suite runs on two processes (pytest-xdist, ``scripts/check``): each worker has
databases of its own on the one test server, named after it, so no worker empties the
schema another is using.
"""

from __future__ import annotations

import os


def worker_database(url: str, suffix: str = "") -> str:
    """``url`` on a database of this worker's own (made if missing): the base database's
    name, ``suffix``, then the xdist worker (``gw0``...) when the suite runs on several."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from meneur.campaign.engine import parse_url

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    base = make_url(parse_url(url))
    name = "_".join(part for part in (base.database, suffix, worker) if part)
    if name == base.database:
        return url
    mine = base.set(database=name)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).scalar()
            if not exists:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return mine.render_as_string(hide_password=False)


def reset_postgres(url: str) -> None:
    """Empty the database at ``url``: a fresh ``public`` schema."""
    from sqlalchemy import create_engine

    from meneur.campaign.engine import parse_url

    engine = create_engine(parse_url(url))
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
            connection.exec_driver_sql("CREATE SCHEMA public")
    finally:
        engine.dispose()
