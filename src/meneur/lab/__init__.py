"""The design lab: odds tables over grids, plots, variants side by side, simulation.

Everything here is derived from each system's own checks (``system.checks()[...].odds``
for exact odds, ``resolve`` or its vectorised twin for simulation). What the lab must know
about a system (its grid axes, its variants, how to build params) lives in a small adapter,
``meneur.lab.adapters.<system>``: a fifth system needs an adapter and nothing else here.
"""
