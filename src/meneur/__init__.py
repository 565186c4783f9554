"""meneur: play and design four French tabletop role-playing systems.

The package is organised around one idea (see DESIGN.md): a test is a pure function of
the dice faces. Play, exact odds, simulation and the roll log are all derived from it.
"""

__version__ = "0.1.0"
