"""The label of each form field, in one place: the word beside the field on the page
and the one a refused value names it by.

The pages print it beside the field (``label("threshold", system)`` in the templates)
and a refused value names the field by it, in the reader's language (« Valeur invalide
pour Seuil »), never by the name the form posts (``threshold``), which the reader never
sees. The table's own fields are labelled here; each system labels its own (its roll
options) on its definition (:attr:`meneur.systems.base.System.labels`), read through
the one lookup :func:`meneur.systems.base.field_label`. A field without a label (a
hidden one, a JSON key of the API) keeps its own name.
"""

from __future__ import annotations

from meneur.locale import N_, gettext
from meneur.model_errors import WHOLE, Problem
from meneur.systems.base import field_label
from meneur.web.systems import adapters

LABELS: dict[str, str] = {
    "trait": N_("Trait"),
    "mode": N_("Roll mode"),
    "faces": N_("Physical dice (optional)"),
    "line": N_("Dice and chat"),
    "name": N_("Name"),
    "character": N_("Character"),  # a roll's, an odds question's, a pick's
    "free": N_("Free for a player to pick"),  # the GM's creation form's box
    "initiative": N_("Initiative"),
    "index": N_("attacker"),
    "other": N_("defender"),
    "table_id": N_("the table's number"),  # of the address, /t/<number>/...
}
"""The table's own fields (the roll form's, the dice line's, the creation form's name,
the tracker's), each with its label (English, translated when shown)."""

MAX_FIELD = 60
"""The longest field name quoted back (a hostile key stays short)."""


def label(name: str, system: str = "", *, rule_id: bool = True) -> str:
    """The label of the field ``name`` in the reader's language, else its name.

    ``rule_id``: the rule a system's label cites, kept beside the form's field (« Difficulté
    (K-3) ») and left out of a refusal that names it (:func:`invalid_value`).

    ``system``: the system whose form or roll the field belongs to (a roll's
    ``difficulty`` is named by its own system's label, not by another's). When it is
    not known (a refusal of a form that names no character), or labels no such field
    (the roll form's fields are the same for every system), the field keeps the one
    label every system that labels it agrees on; when they differ, its own name: never
    one system's word chosen by chance.
    """
    found = LABELS.get(name)
    if found is not None:
        return gettext(found)
    installed = adapters()
    own = installed.get(system)
    named = field_label(name, own.definition, rule_id=rule_id) if own is not None else None
    if named is not None:
        return named
    said = {
        text
        for adapter in installed.values()
        if (text := field_label(name, adapter.definition, rule_id=rule_id)) is not None
    }
    return said.pop() if len(said) == 1 else name[:MAX_FIELD]


def invalid_value(problem: Problem, system: str = "") -> str:
    """« Invalid value for Threshold: a whole number is expected. » for a model's first
    problem (:func:`meneur.model_errors.first_problem`), the field named by ``system``'s
    label (:func:`label`) without the rule it cites; a refusal of the whole input (a
    JSON body that is no table of fields) names no field."""
    if problem.where == WHOLE:  # the body itself (JSON ``[]``, ``null``): no field to name
        return gettext("The body of the request is refused: {reason}.").format(
            reason=problem.reason
        )
    return gettext("Invalid value for {field}: {reason}.").format(
        field=label(problem.where, system, rule_id=False), reason=problem.reason
    )
