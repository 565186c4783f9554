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
        now = time.time()  # wall clock: the processes share it, not their monotonic clocks
        # One statement, atomic under the row's lock: a new bucket starts full (one token
        # taken); an existing one is refilled for the time since its stamp and a token
        # taken only if there is one (no row returned: refused, the bucket left as it was,
        # which refills to the same level later). Alone in its transaction: one round
        # trip, sent as constant text (prepared by the driver, no statement built per call).
        found = self.store.read_one(
            TAKE, {"key": key[:120], "burst": float(burst), "rate": float(rate), "now": now}
        )
        return found is not None


TAKE = (
    "INSERT INTO web_limits (key, tokens, stamp) VALUES (%(key)s, %(burst)s - 1, %(now)s)"
    " ON CONFLICT (key) DO UPDATE SET"
    " tokens = LEAST(%(burst)s, web_limits.tokens"
    " + GREATEST(0.0, %(now)s - web_limits.stamp) * %(rate)s) - 1, stamp = %(now)s"
    " WHERE LEAST(%(burst)s, web_limits.tokens"
    " + GREATEST(0.0, %(now)s - web_limits.stamp) * %(rate)s) >= 1"
    " RETURNING key"
)
"""PostgreSQL's statement of :meth:`Limits.take` (the shared buckets live there only)."""
