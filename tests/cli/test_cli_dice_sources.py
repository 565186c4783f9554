"""Where a command's dice come from: typed faces, a seed, or the secure source."""

from __future__ import annotations

import pytest

from cli_helpers import invoke


def test_a_seed_where_every_die_is_typed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seed`` with every die typed drew nothing and was silently unused: a user who
    kept the seed to replay the roll kept nothing. Refused in one line (status 2); a seed
    beside one typed side still draws the other side's dice, the same ones each time."""
    typed = ("test", "tunnels", "--dice", "2", "--threshold", "1", "--faces", "4,4")
    both = ("oppose", "tunnels", "--dice", "2", "--vs", "2", "--faces", "4,4", "--vs-faces", "1,2")
    for args in (typed, both):
        refused = invoke(capsys, "--lang", "en", *args, "--seed", "3")
        assert refused.status == 2 and refused.out == "", args
        assert refused.err == (
            "Error: --seed draws no die here: every die is typed (--faces); give one or the"
            " other.\n"
        )
        assert invoke(capsys, *args).status == 0
    half = ("oppose", "tunnels", "--dice", "2", "--vs", "3", "--faces", "4,5", "--seed", "3")
    first, again = (invoke(capsys, *half, "--json") for _ in range(2))
    assert first.status == 0 and first.json() == again.json()
    assert first.json()["a"]["batches"] == [[4, 5]] and len(first.json()["b"]["batches"][0]) == 3
