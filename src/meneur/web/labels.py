"""The label of each form field, in one place: the word beside the field on the page
and the one a refused value names it by.

The pages print it beside the field (``label("threshold")`` in the templates) and a
refused value names the field by it, in the reader's language (« Valeur invalide pour
Seuil »), never by the name the form posts (``threshold``), which the reader never sees.
The table's own fields are labelled here; each system labels its own (its roll options,
its creation form's fields) on its adapter (:attr:`WebAdapter.labels`). A field without
a label (a hidden one, a JSON key of the API) keeps its own name.
"""

from __future__ import annotations

from meneur.locale import N_, gettext
from meneur.model_errors import Problem
from meneur.web.systems import adapters

LABELS: dict[str, str] = {
    "trait": N_("Trait"),
    "mode": N_("Roll mode"),
    "faces": N_("Physical dice (optional)"),
    "line": N_("Dice and chat"),
    "name": N_("Name"),
    "initiative": N_("Initiative"),
    "index": N_("attacker"),
    "other": N_("defender"),
}
"""The table's own fields (the roll form's, the dice line's, the creation form's name,
the tracker's), each with its label (English, translated when shown)."""

MAX_FIELD = 60
"""The longest field name quoted back (a hostile key stays short)."""


def label(name: str, system: str = "") -> str:
    """The label of the field ``name`` in the reader's language, else its name.

    ``system``: the system whose form shows the field, whose label wins; without it (a
    refusal does not know which system's form was posted) the first system that labels
    a field of that name names it.
    """
    found = LABELS.get(name)
    if found is None:
        installed = adapters()
        own = installed.get(system)
        for adapter in (*((own,) if own is not None else ()), *installed.values()):
            found = adapter.labels.get(name)
            if found is not None:
                break
    return gettext(found) if found is not None else name[:MAX_FIELD]


def invalid_value(problem: Problem) -> str:
    """« Invalid value for Threshold: a whole number is expected. » for a model's first
    problem (:func:`meneur.model_errors.first_problem`)."""
    return gettext("Invalid value for {field}: {reason}.").format(
        field=label(problem.where), reason=problem.reason
    )
