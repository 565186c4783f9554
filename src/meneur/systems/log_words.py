"""Words that several systems' lines in ``meneur log`` share (``System.log_summary``).

An opposition's or a fight's outcome holds its sides as ``a`` and ``b`` and its
``winner`` as the letter of a side: read as the log's usual fields, it showed
« vainqueur : a ». The systems that oppose two sides say it here in words: what each
side scored, or the winner's name and how long the fight lasted. A test showed its
total or its successes alone (« total : 8 »), not whether it passed nor against what.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meneur.locale import gettext as _
from meneur.locale import ngettext


def opposition_words(outcome: Mapping[str, Any], score: str, *, margin: bool = True) -> str | None:
    """« b l'emporte de 4 (0 contre 4) », « égalité (2 contre 2) »: the winner (by its name
    where the outcome names its sides, else by its letter), by how much
    (``margin``: the outcome's own, where the rule has one) and each side's ``score``
    (successes, a total); None when the outcome has no two sides."""
    a, b = outcome.get("a"), outcome.get("b")
    if not isinstance(a, Mapping) or not isinstance(b, Mapping):
        return None
    winner = outcome.get("winner")
    names = outcome.get("names")  # the live table's exchanges name their sides
    side = winner
    if isinstance(names, list) and len(names) == 2 and winner in ("a", "b"):
        side = str(names[0 if winner == "a" else 1])
    if winner in ("a", "b") and margin:
        words = _("{side} wins by {margin}").format(side=side, margin=outcome.get("margin", "?"))
    elif winner in ("a", "b"):
        words = _("{side} wins").format(side=side)
    else:
        words = _("tie")
    return _("{words} ({a} against {b})").format(
        words=words, a=a.get(score, "?"), b=b.get(score, "?")
    )


def fight_words(ending: Mapping[str, Any]) -> str:
    """« Héros l'emporte après 8 tours », « pas de vainqueur après 3 tours »: the winner
    by the name of its side, after the fight's ``rounds`` (a count, or their list)."""
    rounds = ending.get("rounds")
    count = len(rounds) if isinstance(rounds, list) else rounds if isinstance(rounds, int) else 0
    winner = ending.get("winner")
    if winner in ("a", "b"):
        side = ending.get(winner)
        name = str(side.get("name", "?")) if isinstance(side, Mapping) else "?"
        return ngettext(
            "{name} wins after {count} round", "{name} wins after {count} rounds", count
        ).format(name=name, count=count)
    return ngettext(
        "no winner after {count} round", "no winner after {count} rounds", count
    ).format(count=count)


def test_words(
    outcome: Mapping[str, Any], score: str, goal: str, verdict: str | None = None
) -> str | None:
    """« échec (8 contre 15) », « réussite (3 succès sur 2) »: the verdict (``verdict``
    when the rule names it, a critical failure say, else success or failure), the
    ``score`` and the ``goal`` it was rolled against (successes read « sur »); None
    when the outcome has no verdict. (A test decided without a roll, O-1 or K-3, rolls
    no die and so is never logged.)"""
    passed, value, target = outcome.get("passed"), outcome.get(score), outcome.get(goal)
    if not isinstance(passed, bool) or value is None or target is None:
        return None
    words = verdict or (_("success") if passed else _("failure"))
    if score == "successes" and isinstance(value, int):
        return ngettext(
            "{words} ({count} success of {goal})", "{words} ({count} successes of {goal})", value
        ).format(words=words, count=value, goal=target)
    return _("{words} ({a} against {b})").format(words=words, a=value, b=target)
