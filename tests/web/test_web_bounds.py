"""One bound per parameter: the CLI and the web table refuse the same value (issue 18).

The bound is declared once on the system's params type (Krâsses ``TestParams.MAX_VALUE``
for a difficulty, Légendes ``OpposedParams.MAX_SPEND`` for the motivation points spent);
the CLI's parser and the web's form read it there.
"""

from __future__ import annotations

import pytest

from cli_helpers import invoke
from meneur.systems.krasses.rules import TestParams as KrassesParams
from meneur.systems.legendes.rules import OpposedParams as LegendesParams
from web.web_helpers import Table


def test_K3_a_difficulty_past_the_bound_is_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """K-3: a difficulty is any whole number up to ``KrassesParams.MAX_VALUE``: 500 is
    rolled by both (the web used to stop at 200), one more than the bound is refused by
    both with the bound in the message (exit 2 for the CLI, 400 for the web)."""
    bound = KrassesParams.MAX_VALUE
    over = bound + 1
    cli = invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", str(over))
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    assert invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", "500").status == 0
    table.create(table.gm, "krasses", "Héros", characteristics="Force=2", skills="Bagarre=3")
    assert table.roll(table.gm, "Héros", "Bagarre", difficulty=500)["entry"]
    web = table.client.post(
        f"/api{table.gm}/roll",
        json={"character": "Héros", "trait": "Bagarre", "difficulty": over},
    )
    assert web.status_code == 400 and f"{bound}" in web.json()["error"]


def test_L12_motivation_points_spent_past_the_bound_are_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """L-12: at most ``LegendesParams.MAX_SPEND`` points on one roll, for both."""
    bound = LegendesParams.MAX_SPEND
    over = str(bound + 1)
    cli = invoke(capsys, "test", "legendes", "--dice", "3", "--vs", "elite", "--spend", over)
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    web = table.client.post(
        f"/api{table.gm}/roll", json={"character": "Aube", "trait": "Épée", "spend": bound + 1}
    )
    assert web.status_code == 400 and f"{bound}" in web.json()["error"]


def test_T3_a_threshold_past_the_bound_is_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """T-3: a threshold is any whole number from 1 to ``TunnelsParams.MAX_THRESHOLD``:
    60 is rolled by both (the web form used to stop at 50), one more than the bound and 0
    are refused by both, with the params type's message."""
    from meneur.systems.tunnels.rules import TestParams as TunnelsParams

    bound = TunnelsParams.MAX_THRESHOLD
    cli = invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", str(bound + 1))
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    assert invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", "60").status == 0
    table.create(table.gm, "tunnels", "Pip", Force="3")
    assert table.roll(table.gm, "Pip", "Force", threshold=60)["entry"]
    for refused, words in ((bound + 1, f"{bound}"), (0, "1")):
        web = table.client.post(
            f"/api{table.gm}/roll",
            json={"character": "Pip", "trait": "Force", "threshold": refused},
        )
        assert web.status_code == 400 and words in web.json()["error"], web.json()
