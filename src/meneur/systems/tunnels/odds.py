"""Exact odds of the Tunnels test and opposed test, explosions included (T-3 to T-9).

No sampling and no depth cut: a batch of n dice grants at most n - 1 extra dice (T-5),
so a pool of n dice rolls at most ``n(n+1)/2`` dice in all and every law is finite.

The test's law comes from :mod:`meneur.systems.tunnels.polylaw`: one batch is a law over
its successes, ones, sixes state and *distinct faces* (at most 6, so a batch of p dice
leaves p - 6 to p - 1 extra dice), built face value by face value with multinomial
weights; the explosions chain polynomial products in the successes. An opposition where
a side plays ``needed`` walks the joint state of both sides, the lead of each pair of
states as one polynomial (:mod:`meneur.systems.tunnels.opposed`). Weights are exact integers;
no ``Fraction`` arithmetic happens inside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import zip_longest

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.systems.tunnels.passlaw import PassWeights
from meneur.systems.tunnels.polylaw import (
    always_law,
    always_tail,
    build_chain,
    built,
    chain_work,
    coefficients,
    leaf_law,
    meet_work,
    meets,
    most_dice,
    needed_law,
)
from meneur.systems.tunnels.rules import (
    CRITICAL_ONES,
    EXCEPTIONAL_SIXES,
    LOWEST_SUCCESS,
    OpposedParams,
    Policy,
    SixesRule,
    TestParams,
    judge,
)

MAX_OPPOSED_ODDS_DICE = 14
"""Largest side of an opposition whose whole law, three 6s included (T-7), is computed
when a side plays ``needed`` (:func:`opposed_odds`, ``TunnelsOppose.odds``). T-9 makes
a ``needed`` side explode while it is not ahead, so the sides look at each other and the
odds walk their joint state (:mod:`meneur.systems.tunnels.opposed`). Cold, 14 against
14 takes 1.2 s, 16 against 16 2.9 s and 20 against 20 11 s
(benchmarks/bench_tunnels_opposed.py, 5 Dec.; about three times as long on a slower day):
14 is where one query still answers in a few seconds.
The margins alone go further (:data:`MAX_MARGIN_DICE`); who wins alone (``odds --vs``,
the lab's opposition grids) is exact for every accepted pool (``TestParams.MAX_DICE``)
with ``needed`` or ``never`` on both sides (:mod:`meneur.systems.tunnels.chase`), and so
are sides that play ``never`` or ``always`` (independent)."""
MAX_OPPOSED_SMALL_SIDE = 4
MAX_OPPOSED_WIDE_DICE = 30
"""A side of at most ``MAX_OPPOSED_SMALL_SIDE`` dice may face up to
``MAX_OPPOSED_WIDE_DICE``: the joint state grows with both sides, so a small side buys a
large one (a starting character, Force 2 to 4, against a monster of MR 30: 4 against 30
takes 2.3 s where 14 against 14 takes 1.4 s, 5 against 30 already 3.6 s; 5 Dec.)."""
MAX_MARGIN_DICE = 20
MAX_MARGIN_SMALL_SIDE = 10
"""The same bounds for the law of (winner, margin) alone (:func:`margin_lead`): what
``fight --odds`` reads (a round's damage is its margin, T-10), the luck of a logged
opposition, and who wins when a ``needed`` side faces an ``always`` one. The walk then
leaves the three 6s out (they decide neither who wins nor by how much), which makes a
side's state one of two fewer (four under the ``all`` rule) and the walk ~5 times
faster: 14 against 14 in 0.24 s, 20 against 20 in 2.1 s, 10 against 30 in 2.2 s, 12
against 30 already 3.1 s (cold, 5 Dec.); a ``needed`` side against an ``always`` one of 20
takes 7.5 s."""

MAX_CHASED_MARGIN_DICE = 30
"""Largest side of an opposition whose law of (winner, margin) is read from each side's
trajectory (:mod:`meneur.systems.tunnels.margins`): both sides play ``needed`` or
``never``, one at least ``needed`` (T-9), as a fight's rounds do (T-10). Cold, 20
against 20 takes 0.21 s where the joint walk takes 1.8 s, 30 against 30 1.6 s (the walk:
24 s), 40 against 40 8 s (benchmarks/bench_tunnels_opposed.py, 6 Dec.): the cost grows
about as the fifth power of the pool, and a fight reads one law per MR (Force 4 against
MR 40: 14 s, most of it the 40 trajectories; Force 30 against MR 30, Endurance 20: ~47 s
in all, most of it the fight's own chain). So 30 a side keeps a fight's odds within
seconds."""

TestKey = tuple[int, bool, bool]
"""(successes, exceptional, critical): what the test's odds distribute over."""

Law = dict[tuple[int, int], list[int]]
"""(ones capped at 3, sixes state) -> weights by successes."""


def check_opposed_size(dice_a: int, dice_b: int, policies: Iterable[str]) -> None:
    """Refuse, before any work, an opposition whose whole law (three 6s included) is out
    of reach (:data:`MAX_OPPOSED_ODDS_DICE`): the bound of :func:`opposed_odds`."""
    message = N_(
        "The exact law of an opposition where a side plays needed, three 6s included, "
        "is computed for at most {limit} dice a side, or {wide} against at most "
        "{small}, not {a} against {b}; its margins up to {margin} a side (meneur "
        "fight tunnels --odds), who wins up to {bound} (meneur odds tunnels --vs)."
    )
    _check_walk(dice_a, dice_b, policies, MAX_OPPOSED_ODDS_DICE, MAX_OPPOSED_SMALL_SIDE, message)


def check_margin_size(dice_a: int, dice_b: int, policies: Iterable[str]) -> None:
    """Refuse, before any work, an opposition whose law of (winner, margin) is out of
    reach: the bound of :func:`winner_odds` and of ``fight --odds``. Sides that play
    ``needed`` or ``never`` are read by their trajectories, up to
    :data:`MAX_CHASED_MARGIN_DICE` a side; a ``needed`` side against an ``always`` one
    walks the joint state (:func:`check_walk_size`). Who wins alone has no such bound
    (:func:`who_wins`), and a simulation goes up to the params' own bound."""
    from meneur.systems.tunnels.chase import chases

    chosen = tuple(policies)
    if not chases(chosen):
        check_walk_size(dice_a, dice_b, chosen)
    elif max(dice_a, dice_b) > MAX_CHASED_MARGIN_DICE:
        raise LimitError(
            N_(
                "The exact margins of an opposition where a side plays needed (a "
                "fight's damage) are computed for at most {limit} dice a side, not {a} "
                "against {b}; who wins is exact up to {bound} (meneur odds tunnels --vs), "
                "and a simulation goes up to {bound} (meneur simulate fight tunnels)."
            ),
            limit=MAX_CHASED_MARGIN_DICE,
            a=dice_a,
            b=dice_b,
            bound=TestParams.MAX_DICE,
        )


def check_walk_size(dice_a: int, dice_b: int, policies: Iterable[str]) -> None:
    """Refuse, before any work, an opposition whose margins walk the joint state (a
    ``needed`` side against an ``always`` one: ``fight --odds``) out of its reach: a
    side plays ``needed`` (T-9) and the sides pass both :data:`MAX_MARGIN_DICE` a side
    and :data:`MAX_OPPOSED_WIDE_DICE` against :data:`MAX_MARGIN_SMALL_SIDE`."""
    message = N_(
        "The exact margins of an opposition where a side plays needed (a fight's "
        "damage) are computed for at most {limit} dice a side, or {wide} against at "
        "most {small}, not {a} against {b} (never and always: up to {bound}); who "
        "wins is exact up to {bound} when both sides play needed (meneur odds tunnels "
        "--vs), and a simulation goes up to {bound} (meneur simulate fight tunnels)."
    )
    _check_walk(dice_a, dice_b, policies, MAX_MARGIN_DICE, MAX_MARGIN_SMALL_SIDE, message)


def check_lead_size(dice_a: int, dice_b: int, policies: Iterable[str]) -> None:
    """Refuse, before any work, an opposition whose law of the lead without the three 6s
    (:func:`margin_lead`: a lab cell's distribution, a roll's luck) is out of reach of
    the joint walk, as :func:`check_walk_size` does, in the words of what was asked: the
    lead, and where who wins goes on (the lab's curves and heatmaps)."""
    message = N_(
        "The exact law of the lead (who is ahead, by how much) of an opposition where a "
        "side plays needed is computed for at most {limit} dice a side, or {wide} "
        "against at most {small}, not {a} against {b} (never and always: up to "
        "{bound}); who wins is exact up to {bound} when both sides play needed (meneur "
        "odds tunnels --vs, the lab's curves and heatmaps), and a simulation goes up to "
        "{bound} (meneur simulate test tunnels --check oppose)."
    )
    _check_walk(dice_a, dice_b, policies, MAX_MARGIN_DICE, MAX_MARGIN_SMALL_SIDE, message)


def _check_walk(
    dice_a: int, dice_b: int, policies: Iterable[str], side: int, small: int, message: str
) -> None:
    """Refuse with ``message`` a pair the joint walk does not take (:func:`_within`)."""
    if _within(dice_a, dice_b, policies, side, small):
        return
    raise LimitError(
        message,
        limit=side,
        wide=MAX_OPPOSED_WIDE_DICE,
        small=small,
        a=dice_a,
        b=dice_b,
        margin=MAX_MARGIN_DICE,
        bound=TestParams.MAX_DICE,
    )


def _within(dice_a: int, dice_b: int, policies: Iterable[str], side: int, small: int) -> bool:
    """Whether the joint walk takes this pair: no ``needed`` side (no walk), both sides
    within ``side``, or the smaller within ``small`` and the larger within
    :data:`MAX_OPPOSED_WIDE_DICE`."""
    low, high = sorted((dice_a, dice_b))
    return (
        "needed" not in policies or high <= side or (low <= small and high <= MAX_OPPOSED_WIDE_DICE)
    )


def side_law(
    dice: int,
    need: int,
    lowest: int,
    rule: SixesRule,
    policy: Policy,
    progress: Callable[[int], None] | None = None,
    *,
    alone: bool = False,
) -> Law:
    """The law of one side's dice: ``never`` one batch, ``always`` every batch, ``needed``
    while the successes are below ``need`` (reporting to ``progress``, see
    :func:`whole_law_work`). ``alone``: no other pool's law will be asked (one test), so
    a large ``always`` pool meets in the middle (:func:`~meneur.systems.tunnels.polylaw.
    always_law`) instead of building the chain of every smaller pool, which a grid or an
    opposition shares."""
    if policy == "never":
        return {key: list(poly) for key, poly in leaf_law(dice, lowest, rule).items()}
    if policy == "always":
        law = always_law(dice, lowest, rule, progress) if alone else always_tail(dice, lowest, rule)
    else:
        law = needed_law(dice, need, lowest, rule, progress)
    return {key: coefficients(value) for key, value in law.items()}


_PREPARED: dict[TestParams, Dist[TestKey]] = {}
"""The ``needed`` law :func:`prepare_test_odds` built with a bar, handed to
:func:`test_odds`'s cache by its next call for the same params (one at most)."""


@lru_cache(maxsize=4096)
def test_odds(params: TestParams) -> Dist[TestKey]:
    """The exact law of (successes, exceptional, critical) of a test."""
    prepared = _PREPARED.pop(params, None)
    return prepared if prepared is not None else _tally(params, _side_law(params))


def prepare_test_odds(params: TestParams, progress: Callable[[int], None]) -> None:
    """Build what :func:`test_odds` reads for ``params``, reporting the work as it goes
    (:func:`whole_law_work` in all): the ``always`` laws of every pool up to it
    (:func:`prepare_whole_law`), or the ``needed`` law itself, handed to the cache.

    Why: at 60 dice a test that always explodes takes about 3 s, and one that explodes
    while short of a threshold of 1,000 about 15 s (45 s under the ``all`` rule):
    ``meneur odds`` and ``meneur table --kind distribution`` show a bar rather than
    seeming to hang.
    """
    lowest = LOWEST_SUCCESS[params.mode]
    if params.explode == "needed" or (
        params.explode == "always" and meets(params.dice, lowest, params.sixes)
    ):
        _PREPARED.clear()  # never more than the one about to be read
        _PREPARED[params] = _tally(params, _side_law(params, progress))
    else:
        prepare_whole_law(params, progress)


def reported_test_odds(params: TestParams, progress: Callable[[int], None]) -> Dist[TestKey]:
    """:func:`test_odds`, reporting its work as it goes (:func:`prepare_test_odds`)."""
    prepare_test_odds(params, progress)
    return test_odds(params)


def _side_law(params: TestParams, progress: Callable[[int], None] | None = None) -> Law:
    lowest = LOWEST_SUCCESS[params.mode]
    return side_law(
        params.dice, params.threshold, lowest, params.sixes, params.explode, progress, alone=True
    )


def _tally(params: TestParams, law: Law) -> Dist[TestKey]:
    """(successes, exceptional, critical) from the law by (ones, sixes state)."""
    weights: dict[TestKey, int] = {}
    for (ones, sixes), poly in law.items():
        critical = ones >= CRITICAL_ONES
        exceptional = sixes >= EXCEPTIONAL_SIXES and not critical
        for successes, weight in enumerate(poly):
            if weight:
                key = (successes, exceptional and successes >= params.threshold, critical)
                weights[key] = weights.get(key, 0) + weight
    return Dist(weights)


test_odds.__test__ = False  # type: ignore[attr-defined]


def whole_law_work(params: TestParams) -> int:
    """What :func:`reported_test_odds` will report in all (0: nothing worth a bar):
    ``always`` about the pool to the sixth, in its steps' units (the chain of smaller
    pools, :func:`prepare_whole_law`, or one pool meeting in the middle,
    :func:`~meneur.systems.tunnels.polylaw.meet_work`), ``needed`` one per level of
    pending dice (:func:`~meneur.systems.tunnels.polylaw.needed_law`)."""
    if params.explode == "always":
        lowest = LOWEST_SUCCESS[params.mode]
        if built(params.dice, lowest, params.sixes):
            return 0
        if meets(params.dice, lowest, params.sixes):
            return sum(meet_work(params.dice))
        return sum(chain_work(params.dice))
    return params.dice if params.explode == "needed" else 0


def prepare_whole_law(params: TestParams, progress: Callable[[int], None]) -> None:
    """Build the memoised chain of laws that an opposition, and one test of a pool too
    small to meet in the middle, read: smallest pool first, reporting each
    (:func:`~meneur.systems.tunnels.polylaw.build_chain`); nothing when the pool's law is
    already in memory.

    Why: the whole law of a large pool that always explodes takes seconds (60 dice: about
    7 s by the chain; the verdicts alone, :func:`pass_odds`, well under one), and ``meneur odds``
    shows a bar rather than seeming to hang. Each pool's law reads the smaller ones', so
    building them in order computes nothing twice. Other policies take at most a couple
    of seconds at the bound and report nothing.
    """
    lowest = LOWEST_SUCCESS[params.mode]
    if params.explode == "always" and not built(params.dice, lowest, params.sixes):
        build_chain(params.dice, lowest, params.sixes, progress)


def opposition_work(params: OpposedParams) -> int:
    """What :func:`prepare_opposition` will report in all, in its units."""
    from meneur.systems.tunnels import chase

    laws, chasing = _opposition_parts(params)
    work = sum(sum(chain_work(law.dice)) for law in laws)
    return work + sum(sum(chase.side_work(dice, "needed")) for dice, _ in chasing)


def prepare_opposition(params: OpposedParams, progress: Callable[[int], None]) -> None:
    """Build what :func:`who_wins` reads of an opposition's sides, reporting the work
    done (:func:`opposition_work` in all): the whole laws of the sides that always
    explode, the trajectories of the ``needed`` ones
    (:mod:`meneur.systems.tunnels.chase`). Why: at 60 dice a side these take seconds,
    and the interfaces show a bar rather than seeming to hang (``odds tunnels --vs``,
    ``simulate test tunnels --check oppose``)."""
    from meneur.systems.tunnels import chase

    laws, chasing = _opposition_parts(params)
    for law in laws:
        prepare_whole_law(law, progress)
    for dice, lowest in sorted(chasing):
        chase.side(dice, lowest, "needed", progress)


def _opposition_parts(params: OpposedParams) -> tuple[list[TestParams], set[tuple[int, int]]]:
    """The whole laws (one per mode: a mode's laws hold its smaller pools') and the
    trajectories ((dice, lowest success)) that :func:`prepare_opposition` builds."""
    largest: dict[tuple[bool, bool], int] = {}
    for side in (params.a, params.b):
        if side.explode == "always":
            mode = (side.blessed, side.cursed)
            largest[mode] = max(largest.get(mode, 0), side.dice)
    laws = [
        TestParams(dice, 1, blessed=blessed, cursed=cursed, explode="always", sixes=params.sixes)
        for (blessed, cursed), dice in largest.items()
    ]
    chasing = {
        (side.dice, LOWEST_SUCCESS[side.mode])
        for side in (params.a, params.b)
        if side.explode == "needed"
    }
    return laws, chasing


MEET_FROM = 16
"""A single exploding query of this many dice or more meets in the middle (``passmid``);
below, the two halves cost what the backward tables cost (a few milliseconds), and the
tables serve every threshold below their cap."""
CAP_STEP = 16
"""A single query's backward tables are cut at a multiple of this: thresholds near each
other (a sheet's traits, the web's questions) share them. A grid gives its own cap."""


def pass_odds(params: TestParams, cap: int | None = None) -> PassWeights:
    """A test's verdicts (success, exceptional success, critical failure) as exact weights,
    without the whole law of successes: the same numbers as :func:`test_odds` reads, from
    polynomials cut at the threshold (:mod:`meneur.systems.tunnels.passlaw`).

    One query meets in the middle (:mod:`meneur.systems.tunnels.passmid`): forward from the
    pool, backward tables cut at a multiple of ``CAP_STEP`` below it. ``cap`` (above every
    threshold asked) reads the whole tables instead, which a grid shares across its cells.
    """
    if cap is not None:
        return pass_row(params, (params.threshold,), cap)[0]
    threshold = min(params.threshold, most_dice(params.dice) + 1)  # beyond: never reached
    cap = min(-(-(threshold + 1) // CAP_STEP) * CAP_STEP, most_dice(params.dice) + 2)
    if params.explode == "never" or params.dice < MEET_FROM:
        return pass_row(params, (threshold,), cap)[0]
    from meneur.systems.tunnels.passmid import pass_at

    if params.chosen_batches is not None:
        raise RuleError(N_("A test whose explosions the player chose has no exact odds."))
    lowest = LOWEST_SUCCESS[params.mode]
    return pass_at(params.dice, threshold, lowest, params.sixes, params.explode, cap)


def pass_row(params: TestParams, thresholds: Sequence[int], cap: int = 0) -> list[PassWeights]:
    """:func:`pass_odds` of ``params`` at each of ``thresholds`` (its own threshold is not
    read), from one table cut above the largest: a lab grid's row reads its cells at once.

    Every row of a grid takes the grid's cap, small pools too: their tables are the first
    steps of the largest pool's (a polynomial of ``q`` dice is no longer than its most
    successes whatever the cap), where a cap of their own would build them again.
    """
    from meneur.systems.tunnels.passlaw import verdicts

    if params.chosen_batches is not None:
        raise RuleError(N_("A test whose explosions the player chose has no exact odds."))
    top = most_dice(params.dice) + 1  # beyond: never reached, the same as ``top``
    clamped = [min(threshold, top) for threshold in thresholds]
    cap = max(cap, max(clamped, default=0) + 1)
    table = verdicts(params.dice, LOWEST_SUCCESS[params.mode], params.sixes, params.explode, cap)
    return [table.at(threshold) for threshold in clamped]


# --- opposed test -----------------------------------------------------------------

OpposedKey = tuple[int, bool, bool, bool, bool]
"""(a's successes minus b's, three 6s a, critical a, three 6s b, critical b).

Winner, margin, each side's verdict and exceptional success all follow from it.
"""


@lru_cache(maxsize=1024)
def opposed_odds(params: OpposedParams) -> Dist[OpposedKey]:
    """The exact law of an opposition (T-9): lead, three 6s and critical of each side.

    When neither side plays ``needed``, the sides are independent and their laws
    multiply (:func:`independent_lead`). Otherwise the sides look at each other's
    successes: :func:`meneur.systems.tunnels.opposed.needed_lead` walks their joint
    state with the whole law of the lead of each pair of states as one polynomial.
    """
    rule = params.sixes
    lowest_a, policy_a = LOWEST_SUCCESS[params.a.mode], params.a.explode
    lowest_b, policy_b = LOWEST_SUCCESS[params.b.mode], params.b.explode
    dice_a, dice_b = params.a.dice, params.b.dice
    if "needed" not in (policy_a, policy_b):  # independent sides: the laws multiply
        return Dist(
            independent_lead(
                side_law(dice_a, 0, lowest_a, rule, policy_a),
                side_law(dice_b, 0, lowest_b, rule, policy_b),
            )
        )
    check_opposed_size(dice_a, dice_b, (policy_a, policy_b))
    return _joint_walk(params, rule)


def _joint_walk(params: OpposedParams, rule: SixesRule | None) -> Dist[OpposedKey]:
    """The joint walk of an opposition with a ``needed`` side
    (:func:`~meneur.systems.tunnels.opposed.needed_lead`), following the three 6s under
    ``rule``, or not at all (``None``)."""
    from meneur.systems.tunnels.opposed import needed_lead

    a, b = params.a, params.b
    lowest_a, lowest_b = LOWEST_SUCCESS[a.mode], LOWEST_SUCCESS[b.mode]
    return Dist(needed_lead(a.dice, lowest_a, a.explode, b.dice, lowest_b, b.explode, rule))


def _by_flags(law: Law) -> dict[tuple[bool, bool], list[int]]:
    """A side's law by (three 6s, critical failure): weights by successes."""
    out: dict[tuple[bool, bool], list[int]] = {}
    for (ones, sixes), poly in law.items():
        into = out.setdefault((sixes >= EXCEPTIONAL_SIXES, ones >= CRITICAL_ONES), [])
        into.extend([0] * (len(poly) - len(into)))
        for successes, weight in enumerate(poly):
            into[successes] += weight
    return out


def independent_lead(law_a: Law, law_b: Law) -> dict[OpposedKey, int]:
    """The weights of (a's successes minus b's, flags of a, flags of b) of two sides that
    do not look at each other (``never``, ``always``): one product per pair of flags.

    The lead's law is a's polynomial times b's read backwards (``x**-k`` for k
    successes, shifted by b's most successes): a product of two polynomials of up to
    ``most_dice`` coefficients each, in FLINT, instead of a loop over every pair of
    success counts (3.3 million pairs at 60 dice a side with ``always``).
    """
    from flint import fmpz_poly

    weights: dict[OpposedKey, int] = {}
    flags_b = _by_flags(law_b)
    for (sixes_a, critical_a), poly_a in _by_flags(law_a).items():
        for (sixes_b, critical_b), poly_b in flags_b.items():
            shift = len(poly_b) - 1
            product = fmpz_poly(poly_a) * fmpz_poly(poly_b[::-1])
            for index, weight in enumerate(product.coeffs()):
                if weight:
                    key = (index - shift, sixes_a, critical_a, sixes_b, critical_b)
                    weights[key] = int(weight)
    return weights


@lru_cache(maxsize=256)
def _side_verdicts(
    dice: int, lowest: int, rule: SixesRule, policy: Policy
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """A side that does not look at the other (``never``, ``always``), as an opposition
    reads it: its weights by successes without a critical failure, their running sums
    (fewer than ``s`` successes at index ``s``), its critical mass, and its total."""
    standing: list[int] = []
    critical = 0
    for (_sixes, failed), poly in _by_flags(side_law(dice, 0, lowest, rule, policy)).items():
        if failed:
            critical += sum(poly)
            continue
        standing = [a + b for a, b in zip_longest(standing, poly, fillvalue=0)]
    below = [0]
    for weight in standing:
        below.append(below[-1] + weight)
    return tuple(standing), tuple(below), critical, critical + below[-1]


def independent_verdicts(params: OpposedParams) -> tuple[int, int, int, int]:
    """The weights of a winning, b winning and nobody winning, over a total, of an
    opposition whose sides do not look at each other (T-8, T-9: a critical failure
    loses, both: nobody wins; else more successes win).

    What a grid of oppositions reads: two sums over the successes of side a (its
    weights times b's running sums), where the whole law of the lead
    (:func:`opposed_odds`) is a product of two polynomials of up to 1,831 terms each.
    """
    assert "needed" not in (params.a.explode, params.b.explode), "sides that look: opposed_odds"
    rule = params.sixes
    standing_a, _, critical_a, total_a = _side_verdicts(
        params.a.dice, LOWEST_SUCCESS[params.a.mode], rule, params.a.explode
    )
    standing_b, below_b, critical_b, total_b = _side_verdicts(
        params.b.dice, LOWEST_SUCCESS[params.b.mode], rule, params.b.explode
    )
    top_b = len(below_b) - 1
    ahead = sum(w * below_b[min(s, top_b)] for s, w in enumerate(standing_a) if w)
    level = sum(w * standing_b[s] for s, w in enumerate(standing_a[: len(standing_b)]) if w)
    win = ahead + (total_a - critical_a) * critical_b  # b's critical failure: a wins
    tie = level + critical_a * critical_b
    total = total_a * total_b
    return win, total - win - tie, tie, total


def who_wins_weights(params: OpposedParams) -> tuple[int, int, int, int]:
    """The weights of a winning, b winning and nobody winning, over a total (T-8, T-9),
    by the cheapest exact reading: independent sides by two sums over a's successes
    (:func:`independent_verdicts`); ``needed`` sides (or one beside ``never``) by their
    trajectories (:mod:`meneur.systems.tunnels.chase`), at every accepted pool; only a
    ``needed`` side facing an ``always`` one walks the joint state (:func:`winner_odds`,
    within :func:`check_margin_size`)."""
    from meneur.systems.tunnels import chase

    policies = {params.a.explode, params.b.explode}
    if "needed" in policies and not chase.chases(policies):  # beside always: the walk
        law = winner_odds(params)
        by_winner: dict[str | None, int] = {"a": 0, "b": 0, None: 0}
        for (winner, _margin), weight in law.items():
            by_winner[winner] += weight
        return by_winner["a"], by_winner["b"], by_winner[None], law.total
    reading = independent_verdicts if "needed" not in policies else chase.verdicts
    return reading(params)


def who_wins(params: OpposedParams) -> tuple[Fraction, Fraction, Fraction]:
    """The exact chances that a wins, that b wins and that nobody does
    (:func:`who_wins_weights`)."""
    win, loss, tie, total = who_wins_weights(params)
    return Fraction(win, total), Fraction(loss, total), Fraction(tie, total)


def winner_odds(params: OpposedParams) -> Dist[tuple[str | None, int]]:
    """The exact law of (winner, margin) of an opposition (T-9, T-10): read from each
    side's trajectory when both play ``needed`` or ``never``, one at least ``needed``
    (:mod:`meneur.systems.tunnels.margins`, within :func:`check_margin_size`), else
    from the law of the lead (:func:`margin_lead`)."""
    from meneur.systems.tunnels import chase

    policies = (params.a.explode, params.b.explode)
    if chase.chases(policies):
        from meneur.systems.tunnels.margins import margin_weights

        check_margin_size(params.a.dice, params.b.dice, policies)
        weights, total = margin_weights(params)
        assert sum(weights.values()) == total, "every outcome once"
        return Dist(weights)
    return margin_lead(params).map(lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4]))


@lru_cache(maxsize=1024)
def margin_lead(params: OpposedParams) -> Dist[OpposedKey]:
    """The exact law of (lead, critical a, critical b) of an opposition (T-8, T-9), keyed
    as :func:`opposed_odds` with every flag of three 6s false: who wins, by how much and
    a roll's luck (``TunnelsOppose.score``) read nothing else. With a ``needed`` side the
    joint walk leaves the three 6s out (``rule`` ``None``): ~5 times faster than the whole
    law, so bounded further (:func:`check_lead_size`)."""
    policy_a, policy_b = params.a.explode, params.b.explode
    if "needed" not in (policy_a, policy_b):
        return opposed_odds(params).map(lambda k: (k[0], False, k[2], False, k[4]))
    check_lead_size(params.a.dice, params.b.dice, (policy_a, policy_b))
    return _joint_walk(params, None)


def clear_caches() -> None:
    """Forget every memoised result (for benchmarks that time a cold engine)."""
    from meneur.systems.tunnels import chase, margins, opposed, passlaw, passmid, polylaw

    chase.clear_caches()
    margins.clear_caches()
    polylaw.clear_tails()
    _PREPARED.clear()

    for function in (
        passmid.pass_at,
        passlaw._failures,
        passlaw._successes,
        passlaw._sides,
        passlaw._batch,
        passlaw.flint_batch,
        passlaw.always_family,
        passlaw.always_mass,
        passlaw.needed_table,
        passlaw.verdicts,
        polylaw.batch_law,
        polylaw.leaf_law,
        polylaw.flint_batch_law,
        polylaw.onto,
        polylaw._side,
        test_odds,
        _side_verdicts,
        opposed._moves,
        opposed._steps,
        opposed._rest,
        opposed_odds,
        margin_lead,
    ):
        function.cache_clear()
