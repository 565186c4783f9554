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

from sqlalchemy import select

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
        from sqlalchemy.dialects.postgresql import insert

        now = time.time()  # wall clock: the processes share it, not their monotonic clocks
        key = key[:120]
        with self.store.transaction() as session:
            # a full bucket unless one exists (two first takes at once: one row, no error)
            fresh = insert(WebLimit).values(key=key, tokens=burst, stamp=now)
            session.execute(fresh.on_conflict_do_nothing(index_elements=["key"]))
            row = session.scalar(select(WebLimit).where(WebLimit.key == key).with_for_update())
            assert row is not None
            tokens = min(burst, row.tokens + max(0.0, now - row.stamp) * rate)
            row.stamp = now
            row.tokens = tokens - 1 if tokens >= 1 else tokens
            return tokens >= 1
