"""Tunnels bounds read both by the light command modules and by the rules.

Kept apart so that registering the commands (every start of the CLI) does not load the
rules: the one bound is declared once and read by ``--chance``, the lab's ``--points``
and the params of the Chance procedure (:class:`~meneur.systems.tunnels.chance.ChanceParams`).
"""

from __future__ import annotations

MAX_CHANCE_SPENT = 100
"""The most Chance one roll may spend (T-12), in play (``--chance``) and in the lab's
policies (``--points``, which stopped at 30)."""
