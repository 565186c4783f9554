"""A finite probability distribution with exact integer weights (icepool's discipline).

Weights are integers and probabilities are ``Fraction``s, so two computations of the
same odds are equal or they are not: no tolerance hides a wrong rule. Values are
immutable; operations return new distributions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=Hashable)


class Dist(Generic[K]):
    """Outcomes with integer weights; ``dist.p(outcome)`` is an exact ``Fraction``."""

    __slots__ = ("_total", "_weights")

    def __init__(self, weights: Mapping[K, int] | Iterable[tuple[K, int]]) -> None:
        items = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[K, int] = {}
        for outcome, weight in items:
            if weight < 0:
                raise ValueError("negative weight")
            if weight:
                merged[outcome] = merged.get(outcome, 0) + weight
        if not merged:
            raise ValueError("a distribution needs at least one outcome of positive weight")
        divisor = 0
        for weight in merged.values():
            divisor = gcd(divisor, weight)
        self._weights = {k: w // divisor for k, w in merged.items()}
        self._total = sum(self._weights.values())

    @classmethod
    def uniform(cls, outcomes: Iterable[K]) -> Dist[K]:
        return cls((outcome, 1) for outcome in outcomes)

    @classmethod
    def certain(cls, outcome: K) -> Dist[K]:
        return cls({outcome: 1})

    @classmethod
    def from_fractions(cls, probabilities: Mapping[K, Fraction]) -> Dist[K]:
        denominator = 1
        for p in probabilities.values():
            denominator = denominator * p.denominator // gcd(denominator, p.denominator)
        return cls({k: int(p * denominator) for k, p in probabilities.items()})

    @property
    def total(self) -> int:
        """The sum of the (reduced) integer weights."""
        return self._total

    def weight(self, outcome: K) -> int:
        return self._weights.get(outcome, 0)

    def p(self, outcome: K) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def p_where(self, predicate: Callable[[K], bool]) -> Fraction:
        return Fraction(sum(w for k, w in self._weights.items() if predicate(k)), self._total)

    def map(self, function: Callable[[K], V]) -> Dist[V]:
        """The distribution of ``function(outcome)`` (a marginal when it projects)."""
        return Dist((function(k), w) for k, w in self._weights.items())

    def bind(self, function: Callable[[K], Dist[V]]) -> Dist[V]:
        """Chain a second random step that depends on the first outcome."""
        weights: dict[V, int] = {}
        parts = [(function(k), w) for k, w in self._weights.items()]
        scale = 1
        for inner, _ in parts:
            scale = scale * inner.total // gcd(scale, inner.total)
        for inner, w in parts:
            factor = w * (scale // inner.total)
            for k2, w2 in inner._weights.items():
                weights[k2] = weights.get(k2, 0) + factor * w2
        return Dist(weights)

    def combine(self, other: Dist[V], function: Callable[[K, V], Hashable]) -> Dist[Hashable]:
        """The distribution of ``function(a, b)`` for independent ``a`` and ``b``."""
        weights: dict[Hashable, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = function(a, b)
                weights[key] = weights.get(key, 0) + wa * wb
        return Dist(weights)

    def probabilities(self) -> dict[K, Fraction]:
        return {k: Fraction(w, self._total) for k, w in self._weights.items()}

    def outcomes(self) -> list[K]:
        return list(self._weights)

    def items(self) -> Iterator[tuple[K, int]]:
        return iter(self._weights.items())

    def __iter__(self) -> Iterator[K]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k!r}: {w}/{self._total}" for k, w in list(self._weights.items())[:8])
        more = ", ..." if len(self._weights) > 8 else ""
        return f"Dist({{{shown}{more}}})"
