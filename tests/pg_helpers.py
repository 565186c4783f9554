"""PostgreSQL for the tests that need a real server (storage, web)."""

from __future__ import annotations


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
