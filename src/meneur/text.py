"""Matching names the way players type them: without regard to case, accents or spacing."""

from __future__ import annotations

import unicodedata


def fold(name: str) -> str:
    """``"Dextérité"``, ``"dexterite"`` and ``" DEXTÉRITÉ "`` all fold to ``"dexterite"``.

    Spaces, underscores and apostrophes become hyphens, so ``"Gardien du feu"`` matches
    ``gardien-du-feu``.
    """
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    for separator in (" ", "_", "'", "’"):
        plain = plain.replace(separator, "-")
    while "--" in plain:
        plain = plain.replace("--", "-")
    return plain.strip("-")
