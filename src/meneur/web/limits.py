"""Rate limits (token buckets) that every server process counts the same.

On PostgreSQL several ``meneur serve`` processes may share the database: a bucket lives
in the ``web_limits`` table, read and written under a row lock in one short transaction,
so that a seat rolling through two processes, or a crowd joining through both, is
counted once. On SQLite one process serves the table: its buckets stay in memory (a
write per roll would wait for the single writer for nothing).
"""

from __future__ import annotations

import threading
import time

from sqlalchemy import func

from meneur.campaign.models import WebLimit
from meneur.campaign.store import Store
from meneur.web.live import TokenBucket


class Limits:
    """``take(key, rate, burst)``: one event allowed now for ``key``, or not."""

    def __init__(self, store: Store, *, shared: bool | None = None) -> None:
        self.store = store
        self.shared = store.engine.dialect.name != "sqlite" if shared is None else shared
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    def take(self, key: str, rate: float, burst: float) -> bool:
        if not self.shared:
            with self._lock:
                bucket = self._buckets.get(key)
                if bucket is None:
                    bucket = self._buckets[key] = TokenBucket(rate, burst)
                return bucket.take()
        if burst < 1:  # a bucket that never holds a whole token
            return False
        from sqlalchemy.dialects.postgresql import insert

        now = time.time()  # wall clock: the processes share it, not their monotonic clocks
        # One statement, atomic under the row's lock: a new bucket starts full (one token
        # taken); an existing one is refilled for the time since its stamp and a token
        # taken only if there is one (no row returned: refused, the bucket left as it was,
        # which refills to the same level later).
        refilled = func.least(
            burst, WebLimit.tokens + func.greatest(0.0, now - WebLimit.stamp) * rate
        )
        fresh = insert(WebLimit).values(key=key[:120], tokens=burst - 1, stamp=now)
        statement = fresh.on_conflict_do_update(
            index_elements=["key"],
            set_={"tokens": refilled - 1, "stamp": now},
            where=refilled >= 1,
        ).returning(WebLimit.key)
        # alone in its transaction: one round trip (autocommit) rather than three
        with self.store.engine.connect().execution_options(
            isolation_level="AUTOCOMMIT"
        ) as connection:
            return connection.execute(statement).first() is not None
