"""Property tests: for random parameters, the exact engines equal brute force over the faces.

K-1/K-2 (test), K-4 (opposition of a PC and an NPC, where brute force is finite) and K-7
(cooperation of up to three members), each against ``meneur.odds.brute_force``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.errors import SheetError
from meneur.odds import brute_force
from meneur.systems.krasses.rules import (
    CooperateParams,
    Krasse,
    KrassesCooperate,
    KrassesOppose,
    KrassesTest,
    Member,
    OpposeParams,
    Side,
    TestParams,
)

values = st.integers(min_value=-30, max_value=50)


@settings(max_examples=60, deadline=None)
@given(bonus=values, difficulty=values, modifier=st.integers(-5, 5), krasse=st.integers(-10, 10))
def test_K1_K2_K5_test_odds_equal_brute_force(
    bonus: int, difficulty: int, modifier: int, krasse: int
) -> None:
    params = TestParams(bonus, difficulty, modifier, (Krasse("k", krasse),))
    check = KrassesTest()
    assert check.odds(params) == brute_force(check, params)


@settings(max_examples=30, deadline=None)
@given(a=values, b=values, pc_first=st.booleans(), naturals=st.booleans())
def test_K4_pc_npc_odds_equal_brute_force(a: int, b: int, pc_first: bool, naturals: bool) -> None:
    kinds = ("pc", "npc") if pc_first else ("npc", "pc")
    params = OpposeParams(Side(a, kinds[0]), Side(b, kinds[1]), naturals=naturals)
    check = KrassesOppose()
    assert check.odds(params) == brute_force(check, params)


members = st.builds(Member, st.integers(-5, 15), st.integers(0, 2))


@settings(max_examples=25, deadline=None)
@given(group=st.lists(members, min_size=1, max_size=3), difficulty=st.integers(5, 40))
def test_K7_cooperation_odds_equal_brute_force(group: list[Member], difficulty: int) -> None:
    params = CooperateParams(tuple(group), difficulty)
    check = KrassesCooperate()
    assert check.odds(params) == brute_force(check, params)


def test_K3_user_ladder_overrides_and_is_checked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """K-3: a table may replace the ladder; a broken file is one clear SheetError."""
    from meneur.systems.krasses import ladder

    folder = tmp_path / "krasses"
    folder.mkdir()
    path = folder / "difficulties.toml"
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    try:
        path.write_text('[[level]]\nname = "Corsé"\nvalue = 18\n', encoding="utf-8")
        ladder.ladder.cache_clear()
        assert ladder.parse_difficulty("corse").value == 18
        assert ladder.parse_difficulty("automatique").value is None
        path.write_text('[[level]]\nname = "Corsé"\nvalue = "dur"\n', encoding="utf-8")
        ladder.ladder.cache_clear()
        with pytest.raises(SheetError, match=r"level\.0\.value"):
            ladder.parse_difficulty("corse")
        twice = '[[level]]\nname = "A"\nvalue = 1\n[[level]]\nname = "a"\nvalue = 2\n'
        path.write_text(twice, encoding="utf-8")
        ladder.ladder.cache_clear()
        with pytest.raises(SheetError, match=r"level\.1"):
            ladder.parse_difficulty("a")
    finally:
        ladder.ladder.cache_clear()
