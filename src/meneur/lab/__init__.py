"""The design lab: odds tables over grids, plots, variants side by side, simulation.

Everything here is derived from each system's own checks (``system.checks()[...].odds``
for exact odds, ``resolve`` or its vectorised twin for simulation). What the lab must know
about a system (its grid axes, its variants, how to build params) lives in the system's
own adapter (``systems/<name>/lab_adapter.py``, the :class:`meneur.lab.adapter.Adapter`
contract, offered by ``System.lab_adapter()``); its simulations and lab commands live in
``systems/<name>/lab.py`` and ``lab_cli.py``. The lab names no system and never looks
one up: what it runs is handed to it. A fifth system adds nothing here.
"""
