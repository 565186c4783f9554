"""Each registered system's part at the web table, listed explicitly like the registry.

The web app installs these adapters when it is created (:func:`meneur.web.systems.install`);
the web code itself names no system. This list lives apart from :mod:`.registry` because
an adapter sits above the web toolkit (it logs rolls through it), while the registry sits
below everything: one import from the registry to an adapter would close a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meneur.web.systems import WebAdapter


def web_adapters() -> tuple[WebAdapter, ...]:
    """One adapter per system the table can roll for, in the registry's order."""
    from meneur.systems.krasses.web.adapter import KrassesWeb
    from meneur.systems.legendes.web.adapter import LegendesWeb
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.systems.tunnels.web.adapter import TunnelsWeb

    return (TunnelsWeb(), ObscurWeb(), KrassesWeb(), LegendesWeb())
