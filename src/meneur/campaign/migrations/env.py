"""Alembic's environment: always run programmatically by :mod:`meneur.campaign.migrate`.

The caller passes an open connection in ``config.attributes["connection"]``; there is no
``alembic.ini`` and no URL here.
"""

from __future__ import annotations

from alembic import context

from meneur.campaign.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
    transaction_per_migration=False,
)
with context.begin_transaction():
    context.run_migrations()
