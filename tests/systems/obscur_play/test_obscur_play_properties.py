"""Properties of whole fights and journeys over many seeds (hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.rng import make_source
from meneur.systems.obscur.combat import (
    STRATEGIES,
    FightParams,
    fighter_of,
    resolve_fight,
)
from meneur.systems.obscur.gear import Survival
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.procedures import JourneyParams, ObscurFight, ObscurJourney
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import Body, body_of
from meneur.systems.obscur.survival import DayParams, Milieu, Traveller

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"
GARANCE = load_character(EXAMPLES / "garance.toml")
CORBEAU = load_character(EXAMPLES / "corbeau.toml")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    sa=st.sampled_from(STRATEGIES),
    sb=st.sampled_from(STRATEGIES),
)
def test_O13_fights_replay_and_damage_adds_up(seed: int, sa: str, sb: str) -> None:
    """O-12/O-13/O-31: any fight replays from its faces; Vie lost = damage dealt; it ends
    only in coma/death when the limit is not reached; damage is never negative."""
    params = FightParams(
        fighter_of(GARANCE, strategy=sa),
        fighter_of(CORBEAU, strategy=sb),
        body_of(GARANCE),
        body_of(CORBEAU),
    )
    source = make_source(seed=seed)
    rolled = ObscurFight().roll(params, [source, source])
    outcome, faces = rolled.outcome, rolled.faces
    assert resolve_fight(params, faces) == outcome
    dealt = {"a": 0, "b": 0}
    for record in outcome.rounds:
        for strike in record["strikes"]:
            assert strike.get("damage", 0) >= 0
            target = "b" if strike["attacker"] == "a" else "a"
            dealt[target] += strike.get("damage", 0)
    assert 14 - outcome.a["vie"] == dealt["a"] and 16 - outcome.b["vie"] == dealt["b"]
    if outcome.end in {"coma", "dead"}:
        winner = {"a": outcome.a, "b": outcome.b}.get(outcome.winner or "")
        assert winner is None or winner["status"] == "ok"
    else:
        assert outcome.a["status"] == "ok" and outcome.b["status"] == "ok"


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    pools=st.lists(st.integers(0, 8), min_size=1, max_size=6),
    factors=st.lists(st.integers(0, 3), min_size=6, max_size=6),
)
def test_O39_aid_never_spends_more_than_the_margin(
    seed: int, pools: list[int], factors: list[int]
) -> None:
    """O-37..O-39: every helper spends 1 + 2 + ... ≤ its MR; Vie only falls."""
    milieu = Milieu(
        **dict(
            zip(("faim", "froid", "obscurite", "soif", "special", "vents"), factors, strict=True)
        )
    )
    party = tuple(Traveller(f"m{i}", Dice(p), Survival()) for i, p in enumerate(pools))
    bodies = [Body(f"m{i}", 10, 10) for i in range(len(pools))]
    source = make_source(seed=seed)
    params = JourneyParams(DayParams("m", milieu, party), tuple(bodies), 3)
    days = ObscurJourney().roll(params, [source] * len(pools)).outcome.days
    for day in days:
        for member in day["members"]:
            helped = len(member.get("helps", []))
            if "margin" in member:
                assert helped * (helped + 1) // 2 <= member["margin"]
                assert member["margin_left"] == member["margin"] - helped * (helped + 1) // 2
    assert all(b.vie <= 10 for b in bodies)
