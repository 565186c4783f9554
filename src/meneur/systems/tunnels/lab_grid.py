"""Whole rows of Tunnels' exact grid for ``meneur table``, one die multiplied in at a time.

* Without explosion (T-3 to T-5, T-7): a die is one of four kinds (a 1, another
  failure, a success below 6, a 6); the state keeps the successes, the ones (0-2; three
  are a critical failure, dropped) and the sixes (0-3). numpy int64 holds ``6**24``.
* Every 6 explodes (``always``, T-6), sixes per batch (T-7): each pool is its first
  batch times the law of its extra dice, modulo a few primes.

Weights are integers over ``6**n`` (exact); cells are :class:`~meneur.lab.grid.ExactCell`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, cast

import numpy as np

from meneur.lab.fastgrid import INT64_DICE, tail
from meneur.lab.grid import ExactCell, FullRow

# --- Tunnels without explosion ------------------------------------------------------------

_TUNNELS: dict[int, tuple[list[Any], list[tuple[list[int], list[int]]]]] = {}
"""Per lowest succeeding face: ([the state of the last pool], laws of 0, 1, 2... dice)."""


def _grow(state: Any, failures: int, middles: int) -> Any:
    """The state of one die more: ones 0-2 (a third is a critical failure, dropped),
    sixes 0-3 (3: three or more), successes."""
    ones, sixes, successes = state.shape
    dtype: Any = np.int64 if successes <= INT64_DICE else object
    grown = np.zeros((ones, sixes, successes + 1), dtype=dtype)
    grown[:, :, :-1] = state * failures
    grown[1:, :, :-1] += state[:-1]  # a 1
    grown[:, :, 1:] += state * middles  # a success below 6
    grown[:, 1:, 1:] += state[:, :-1]  # a 6
    grown[:, 3, 1:] += state[:, 3]  # a 6 past the third
    return grown


def _tunnels_law(lowest: int, pool: int) -> tuple[list[int], list[int]]:
    """(weights by successes with fewer than three 1s, the same with three 6s or more)."""
    if lowest not in _TUNNELS:
        state = np.zeros((3, 4, 1), dtype=np.int64)
        state[0, 0, 0] = 1
        _TUNNELS[lowest] = ([state], [([1], [0])])
    last, laws = _TUNNELS[lowest]
    while len(laws) <= pool:
        state = _grow(last[0], lowest - 2, 6 - lowest)
        last[0] = state
        laws.append(
            (
                [int(w) for w in state.sum(axis=(0, 1)).tolist()],
                [int(w) for w in state[:, 3, :].sum(axis=0).tolist()],
            )
        )
    return laws[pool]


def tunnels_plain_row(lowest: int, pool: int, thresholds: Sequence[Hashable]) -> FullRow:
    """(success, exceptional, critical) of ``pool`` dice that never explode (T-3 to T-7)."""
    ok, streak = _tunnels_law(lowest, pool)
    total = 6**pool
    critical = total - sum(ok)
    names = ("success", "exceptional", "critical")
    return FullRow(
        ExactCell(names, (w, e, critical), total)
        for w, e in zip(tail(ok, thresholds), tail(streak, thresholds), strict=True)
    )


# --- Tunnels, every 6 explodes (``always``, T-6), sixes per batch (T-7) ------------------

PRIMES = (
    268435399, 268435367, 268435361, 268435337, 268435331, 268435313, 268435291, 268435273,
    268435243, 268435183, 268435171, 268435157, 268435147, 268435133, 268435129, 268435121,
    268435109, 268435091, 268435067, 268435043, 268435039, 268435033, 268435019, 268435009,
)  # fmt: skip
"""Primes below 2**28: a product of two residues and a sum of 16 such fits int64."""
MAX_ALWAYS_DICE = 16
"""The exploding rows computed here (beyond: the system's own engine)."""


def _most(n: int) -> int:
    return n * (n + 1) // 2


def _surjections(top: int, faces: int) -> Any:
    """``table[k, j]``: ways ``k`` dice show exactly ``j`` given faces of ``faces`` (all)."""
    from math import comb

    surj = [[0] * (faces + 1) for _ in range(top + 1)]
    surj[0][0] = 1
    for k in range(1, top + 1):
        for j in range(1, faces + 1):
            surj[k][j] = j * (surj[k - 1][j] + surj[k - 1][j - 1])
    return np.array(
        [[comb(faces, j) * surj[k][j] for j in range(faces + 1)] for k in range(top + 1)],
        dtype=np.float64,
    )


def _batch_law(n: int, lowest: int) -> Any:
    """The law of one batch of ``n`` d6 as int64 ``[extra, successes, ones (0-3), three 6s]``.

    Faces fall in four kinds (a 1, the other failures, successes below 6, a 6); the
    kinds' counts are a multinomial, and how many distinct faces the dice of a kind show
    is a count of surjections: extra dice are ``n`` minus the distinct faces (T-6).
    Weights stay below ``6**n <= 2**53`` (exact in float64 for ``bincount``).
    """
    from math import factorial

    fails, middles = lowest - 2, 6 - lowest
    c1, c6, kb = (g.ravel() for g in np.indices((n + 1, n + 1, n + 1)))
    keep = c1 + c6 + kb <= n
    c1, c6, kb = c1[keep], c6[keep], kb[keep]
    ka = n - c1 - c6 - kb
    fact = np.array([factorial(i) for i in range(n + 1)], dtype=np.float64)
    ways = fact[n] / (fact[c1] * fact[ka] * fact[kb] * fact[c6])
    sa, sb = _surjections(n, fails), _surjections(n, middles)
    weight = ways[:, None, None] * sa[ka][:, :, None] * sb[kb][:, None, :]
    ja = np.arange(fails + 1)[None, :, None]
    jb = np.arange(middles + 1)[None, None, :]
    distinct = (c1 > 0)[:, None, None] + ja + jb + (c6 > 0)[:, None, None]
    extra = np.clip(n - distinct, 0, n)
    successes = np.broadcast_to((kb + c6)[:, None, None], weight.shape)
    ones = np.broadcast_to(np.minimum(c1, 3)[:, None, None], weight.shape)
    streak = np.broadcast_to((c6 >= 3)[:, None, None], weight.shape)
    index = ((extra * (n + 1) + successes) * 4 + ones) * 2 + streak
    law = np.bincount(index.ravel(), weights=weight.ravel(), minlength=(n + 1) * (n + 1) * 8)
    return np.rint(law).astype(np.int64).reshape(n + 1, n + 1, 4, 2)


_ALWAYS: dict[tuple[int, int], tuple[Any, list[tuple[Any, Any]]]] = {}
"""Per (lowest, primes): (powers of 6 mod each prime, [(all, no streak) per pool])."""


def _always_laws(lowest: int, pool: int) -> tuple[Any, list[tuple[Any, Any]]]:
    """Residues of the laws of pools 0..pool, as ``[prime, successes, ones 0-2]``.

    ``all`` counts every roll with fewer than three 1s over ``6**most(n)``; ``none``
    those where no batch showed three 6s (the exceptional ones are the difference).
    Each pool is its first batch times the law of its extra dice (fewer, known), the
    dice never rolled weighing ``6**(most(n) - n - most(extra))``: integer arithmetic
    modulo a few primes, vectorised, read back by the Chinese remainder theorem.
    """
    bucket = 12 if pool <= 12 else MAX_ALWAYS_DICE
    count = _most(bucket) * 2585 // 1000 // 27 + 2  # 6**most(bucket) < product of primes
    key = (lowest, count)
    primes = np.array(PRIMES[:count], dtype=np.int64)
    if key not in _ALWAYS:
        powers = np.ones((count, _most(bucket) + 1), dtype=np.int64)
        for k in range(1, _most(bucket) + 1):
            powers[:, k] = powers[:, k - 1] * 6 % primes
        first = np.zeros((count, 1, 3), dtype=np.int64)
        first[:, 0, 0] = 1
        _ALWAYS[key] = (powers, [(first, first)])
    powers, laws = _ALWAYS[key]
    p = primes[:, None, None]
    while len(laws) <= pool:
        n = len(laws)
        batch = _batch_law(n, lowest)[:n]  # extra dice 0..n-1
        scale = powers[:, [_most(n) - n - _most(e) for e in range(n)]]  # [prime, extra]
        width = _most(n - 1) + 1
        out = []
        for which in (0, 1):  # 0: every roll; 1: no batch with three 6s
            weights = batch.sum(axis=3) if which == 0 else batch[..., 0]
            coef = (
                (weights[None] % primes[:, None, None, None])
                * scale[:, :, None, None]
                % (primes[:, None, None, None])
            )  # [prime, extra, successes, ones]
            tails = np.zeros((count, n, width, 3), dtype=np.int64)
            for e in range(n):
                law = laws[e][which]
                tails[:, e, : law.shape[1], :] = law
            acc = np.zeros((count, _most(n) + 1, 3), dtype=np.int64)
            for s in range(n + 1):
                for o in range(3):
                    term = np.einsum("pe,pesk->psk", coef[:, :, s, o], tails[:, :, :, : 3 - o])
                    acc[:, s : s + width, o:] += term % p
            out.append(acc % p)
        laws.append((out[0], out[1]))
    return primes, laws


def _crt(residues: Any, primes: Any) -> list[int]:
    """Integers from their residues (``[prime, value]``), Garner's mixed radix."""
    rows = residues.T.tolist()
    ps = primes.tolist()
    modulus = 1
    for q in ps:
        modulus *= q
    coefficients = []
    for q in ps:
        partial = modulus // q
        coefficients.append(partial * pow(partial, -1, q))
    return [sum(r * c for r, c in zip(row, coefficients, strict=True)) % modulus for row in rows]


def tunnels_always_row(lowest: int, pool: int, thresholds: Sequence[Hashable]) -> FullRow:
    """(success, exceptional, critical) of ``pool`` dice whose 6s always explode."""
    primes, laws = _always_laws(lowest, pool)
    every, calm = laws[pool]
    p = primes[:, None]
    ok = every.sum(axis=2) % p  # fewer than three 1s, by successes
    streak = (ok - calm.sum(axis=2) % p) % p
    top = ok.shape[1]
    cuts = cast(Sequence[int], thresholds)
    wanted = sorted({min(max(t, 0), top) for t in cuts})
    suffix = [np.cumsum(a[:, ::-1], axis=1)[:, ::-1] % p for a in (ok, streak)]
    padded = [
        np.concatenate([a, np.zeros((len(primes), 1), dtype=np.int64)], axis=1) for a in suffix
    ]
    picked = np.concatenate([padded[0][:, wanted], padded[1][:, wanted], padded[0][:, :1]], axis=1)
    values = _crt(picked, primes)
    success = dict(zip(wanted, values[: len(wanted)], strict=True))
    exceptional = dict(zip(wanted, values[len(wanted) : 2 * len(wanted)], strict=True))
    total = 6 ** _most(pool)
    critical = total - values[-1]
    names = ("success", "exceptional", "critical")
    return FullRow(
        ExactCell(
            names,
            (success[min(max(t, 0), top)], exceptional[min(max(t, 0), top)], critical),
            total,
        )
        for t in cuts
    )


def clear_caches() -> None:
    """Forget the memoised laws (benchmarks time a cold computation)."""
    _TUNNELS.clear()
    _ALWAYS.clear()
