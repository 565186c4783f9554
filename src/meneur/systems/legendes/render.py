"""How Légendes results look in a terminal (rich): dice as dice, the verdict in words.

Only presentation lives here; the data shown is the JSON the commands also print.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meneur.locale import N_, fill, labelled, ngettext
from meneur.locale import gettext as _
from meneur.locale.numbers import exact, percent
from meneur.text import literal

if TYPE_CHECKING:
    from rich.console import Console

DIE_GLYPHS = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}

BAND_LABELS = {
    "definitive": N_("victoire définitive"),
    "partial": N_("victoire partielle"),
    "advantage": N_("avantage"),
    "cosmetic": N_("victoire cosmétique"),
    "tie": N_("tie"),
}
KEY_LABELS = {
    "win:definitive": N_("hero: victoire définitive"),
    "win:partial": N_("hero: victoire partielle"),
    "win:advantage": N_("hero: avantage"),
    "win:cosmetic": N_("hero: victoire cosmétique"),
    "tie": N_("tie (nothing changes)"),
    "loss:cosmetic": N_("opposition: victoire cosmétique"),
    "loss:advantage": N_("opposition: avantage"),
    "loss:partial": N_("opposition: victoire partielle"),
    "loss:definitive": N_("opposition: victoire définitive"),
}
EFFECT_LABELS = {
    "extra_die": N_("+1 die"),
    "plus_2": N_("+2 to the total"),
    "plus_1": N_("+1 to the total"),
    "cosmetic": N_("cosmetic effect"),
    "none": N_("no effect (the helped one rolled higher)"),
}
LEVEL_LABELS = {
    "legendaire": N_("Legendary"),
    "heroique": N_("Heroic"),
    "elite": N_("Elite"),
    "commun": N_("Common"),
}
"""Opposition levels (L-3) as a heading names them: English ids, French in the catalogue
(« Élite »), so that an English run does not print the French words."""
WOUND_LABELS = {
    "none": N_("unhurt"),
    "light": N_("blessure légère (−2)"),
    "grave": N_("blessure grave (−1 die)"),
}


def dice_text(faces: Sequence[int]) -> str:
    """Faces as die glyphs with their values: ``⚄5 ⚂3``; a dash when no die was rolled."""
    if not faces:
        return "—"
    return " ".join(f"{DIE_GLYPHS.get(f, '?')}{f}" for f in faces)


PARTIAL_LABELS = {
    "wound": N_("the loser is wounded (L-13)"),
    "doubt": N_("the loser doubts (L-13)"),
}


def verdict(data: Mapping[str, Any]) -> str:
    """The outcome of an opposed roll in words, rich markup included.

    A pair between two participants other than the hero (L-10) names its winner.
    """
    if data.get("swept"):
        return "[bold green]" + _("Commoners are swept away, no roll needed (L-5).") + "[/]"
    band = _(BAND_LABELS[data["outcome"]])
    if data["winner"] is None:
        return "[bold yellow]" + _("Tie: no winner, nothing changes.") + "[/]"
    side = data.get("side")
    if side is not None:
        name = side if data["winner"] == "pc" else data["opposition"]
        text = "[bold]" + _("{name} wins: {band}.").format(name=name, band=band) + "[/]"
    elif data["winner"] == "pc":
        text = "[bold green]" + _("The hero wins: {band}.").format(band=band) + "[/]"
    else:
        text = "[bold red]" + _("The opposition wins: {band}.").format(band=band) + "[/]"
    if data.get("taken") and data["taken"] != data["outcome"]:
        text += " " + _("The winner takes less: {band}.").format(band=_(BAND_LABELS[data["taken"]]))
    return text


def render_opposed(console: Console, data: Mapping[str, Any]) -> None:
    from rich.table import Table

    if data.get("swept"):
        console.print(verdict(data))
        return
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column(_("Side"))
    table.add_column(_("Dice"))
    table.add_column(_("Total"), justify="right")
    table.add_row(_("Hero"), dice_text(data["faces"]), f"[bold]{data['total']}[/]")
    level = data.get("opposition_level")
    side = _("Opposition") + (f" ({_(LEVEL_LABELS[level])})" if level else "")
    table.add_row(side, dice_text(data["vs_faces"]), f"[bold]{data['opposition_total']}[/]")
    console.print(table)
    console.print(_("Difference: {difference}").format(difference=data["difference"]))
    console.print(verdict(data))
    if data.get("taken") == "partial" and data.get("partial") in PARTIAL_LABELS:
        console.print("→ " + _(PARTIAL_LABELS[data["partial"]]))


def render_odds(
    console: Console, title: str, rows: Mapping[str, Fraction], labels: Mapping[str, str]
) -> None:
    from rich.table import Table

    table = Table(title=title, header_style="bold")
    table.add_column(_("Outcome"))
    table.add_column(_("Exact"), justify="right")
    table.add_column("%", justify="right")
    for key, probability in rows.items():
        style = "green" if key.startswith("win") or key == "extra_die" else ""
        table.add_row(
            f"[{style}]{_(labels[key])}[/]" if style else _(labels[key]),
            exact(probability),
            percent(probability, symbol=False),
        )
    console.print(table)


def render_aid(console: Console, data: Mapping[str, Any]) -> None:
    data = literal(data)
    console.print(
        _("Helper: {faces} = {total}").format(
            faces=dice_text(data["helper_faces"]), total=data["helper_total"]
        )
    )
    console.print(
        _("Helped: {faces} = {total}").format(
            faces=dice_text(data["helped_faces"]), total=data["helped_total"]
        )
    )
    style = "bold green" if data["extra_dice"] or data["bonus"] else "bold"
    console.print(
        f"[{style}]" + _("Help: {effect}.").format(effect=_(EFFECT_LABELS[data["effect"]])) + "[/]"
    )


def level_text(opposition: Mapping[str, Any]) -> str:
    """An opposition's level (a group says so), or "character" for a hero of the scene."""
    if opposition.get("character"):
        return _("character")
    text = _(LEVEL_LABELS[opposition["level"]])
    return text + (" " + _("(group)") if opposition.get("group") else "")


def render_hero(console: Console, hero: Mapping[str, Any]) -> None:
    """The sheet, with the scene in progress if any."""
    hero = literal(hero)
    from rich.table import Table

    console.print(
        f"[bold]{hero['name']}[/]" + (" [red]" + _("(dead)") + "[/]" if hero.get("dead") else "")
    )
    console.print(
        _("Legendary domains: {domains}").format(domains=", ".join(hero["legendary"]) or "—")
    )
    console.print(
        _("Secondary domains: {domains}").format(domains=", ".join(hero["secondary"]) or "—")
    )
    console.print(_("Weaknesses: {items}").format(items=", ".join(hero["weaknesses"]) or "—"))
    if hero.get("regret"):
        console.print(_("Regret: {text}").format(text=hero["regret"]))
    if hero.get("blocage"):
        console.print(_("Blocage: {text}").format(text=hero["blocage"]))
    console.print(
        _("Motivation: {text} ({points} point(s))").format(
            text=hero["motivation"] or "—", points=hero["motivation_points"]
        )
    )
    console.print(_("Wound: {wound}").format(wound=_(WOUND_LABELS[hero["wound"]])))
    scene = hero.get("scene")
    if not scene:
        console.print(_("No scene in progress."))
        return
    console.print("[bold]" + _("Scene: {title}").format(title=scene["title"] or "—") + "[/]")
    if scene.get("kind") == "social":
        console.print(_("A social scene: a victoire partielle makes the other doubt (L-13)."))
    if scene.get("hero_defeated"):
        console.print("[red]" + _("The hero is defeated in this scene.") + "[/]")
    table = Table(header_style="bold")
    for column in (_("Opposition"), _("Level"), _("Dice"), _("Rolls"), _("Wound"), _("Out")):
        table.add_column(column)
    for o in scene["oppositions"]:
        table.add_row(
            o["name"],
            level_text(o),
            str(o["dice"]),
            str(o["rolls"]),
            _(WOUND_LABELS[o["wound"]]),
            "✗" if o["out"] else "",
        )
    console.print(table)
    if scene["helpers_used"]:
        console.print(_("Helpers used: {names}").format(names=", ".join(scene["helpers_used"])))
    for help_ in scene["pending_help"]:
        console.print(
            fill(
                _("Waiting for the next roll: {effect} from {helper}"),
                effect=_(EFFECT_LABELS[help_["effect"]]),
                helper=help_["helper"],
            )
        )


def unlisted_words(domain: str) -> str:
    """That the domain named is not on the sheet (L-1: an ordinary domain): rolled with
    0 dice unsaid, a name typed loosely looked like a bad roll."""
    from meneur.systems.legendes.rules import domain_dice

    dice = domain_dice("ordinary")
    return ngettext(
        "'{domain}' is not on the sheet: an ordinary domain, {dice} die (L-1).",
        "'{domain}' is not on the sheet: an ordinary domain, {dice} dice (L-1).",
        dice,
    ).format(domain=domain, dice=dice)


def render_step(console: Console, data: Mapping[str, Any]) -> None:
    """A scene step's report."""
    data = literal(data)
    step = data["step"]
    if data.get("domain_unlisted"):
        console.print(unlisted_words(data["domain"]))
    if step == "roll":
        if not all(pair["swept"] for pair in data["pairs"]):
            console.print(
                ngettext(
                    "Hero rolls {dice} die: {faces}",
                    "Hero rolls {dice} dice: {faces}",
                    data["dice"],
                ).format(dice=data["dice"], faces=dice_text(data["faces"]))
            )
        for ally in data.get("allies", []):
            console.print(
                _("{name} rolls: {faces}").format(name=ally["name"], faces=dice_text(ally["faces"]))
            )
        for pair in data["pairs"]:
            render_pair(console, pair)
        console.print(_("Wound: {wound}").format(wound=_(WOUND_LABELS[data["hero_wound"]])))
        console.print(_("Motivation points: {points}").format(points=data["motivation_points"]))
        if data["hero_dead"]:
            console.print(
                "[bold red]" + _("The hero's spirit gives up the fight: death (L-14).") + "[/]"
            )
        elif data["hero_defeated"]:
            console.print(
                "[red]" + _("The hero is defeated but survives, one way or another (L-14).") + "[/]"
            )
    elif step == "aid":
        render_aid(console, data)
    elif step == "start":
        console.print(_("The scene begins: {title}").format(title=data["title"] or "—"))
        if data.get("kind") == "social":
            console.print(_("A social scene: a victoire partielle makes the other doubt (L-13)."))
    elif step == "add":
        for o in data["added"]:
            console.print(
                ngettext(
                    "{name} joins the scene: {level}, {dice} die.",
                    "{name} joins the scene: {level}, {dice} dice.",
                    o["dice"],
                ).format(name=o["name"], level=level_text(o), dice=o["dice"])
            )
    elif step in ("wound", "heal"):
        console.print(_("Wound: {wound}").format(wound=_(WOUND_LABELS[data["wound"]])))
    elif step in ("progress", "reached"):
        if step == "reached":
            console.print(_("Motivation: {text}").format(text=data["motivation"]))
        console.print(_("Motivation points: {points}").format(points=data["motivation_points"]))
    elif step == "end":
        console.print(_("The scene ends."))
        if data["light_wound_healed"]:
            console.print(_("The light wound heals (L-13)."))
        console.print(_("Wound: {wound}").format(wound=_(WOUND_LABELS[data["wound"]])))


def scene_words(outcome: Mapping[str, Any]) -> tuple[str, str]:
    """The GM's new scene (L-11, L-13): help may be given again, and the light wounds it
    healed, by hero."""
    healed = [str(name) for name in outcome.get("healed") or []]
    words = _("Help may be given again; help not used is lost (L-11).")
    detail = (
        _("Light wounds healed (L-13): {names}").format(names=", ".join(healed)) if healed else ""
    )
    return words, detail


def log_summary(kind: str, outcome: Mapping[str, Any]) -> str | None:
    """A scene roll's pairs in a few words (``meneur log``): « Orsk : opposition :
    victoire définitive (0 contre 7) »; a test's verdict the same way; help (L-12) by
    its effect: « aide : +1 dé, 9 contre 13 »; None for another outcome (the log reads
    its usual fields)."""
    if kind == "scene" and "heroes" in outcome:  # the live table's new scene
        return " · ".join(filter(None, (_("new scene"), scene_words(outcome)[1])))
    if str(outcome.get("effect")) in EFFECT_LABELS:
        return labelled(
            _("help"),
            _("{effect}, {total} against {opposition_total}").format(
                effect=_(EFFECT_LABELS[str(outcome["effect"])]),
                total=outcome.get("helper_total", "?"),
                opposition_total=outcome.get("helped_total", "?"),
            ),
        )
    if str(outcome.get("key")) in KEY_LABELS and "total" in outcome:  # a test (L-3, L-4)
        return _pair_words(outcome)
    pairs = outcome.get("pairs")
    if not isinstance(pairs, list) or not pairs:
        return None
    said = []
    for pair in pairs:
        if not isinstance(pair, Mapping):
            return None
        words = _pair_words(pair)
        said.append(labelled(str(pair.get("opposition", "?")), words))
    return "; ".join(said)


def _pair_words(pair: Mapping[str, Any]) -> str:
    """One verdict with its totals: « opposition : victoire définitive (0 contre 7) »."""
    if pair.get("swept"):
        return _("swept away (L-5)")
    return _("{verdict} ({total} against {opposition_total})").format(
        verdict=_(KEY_LABELS.get(str(pair.get("key")), "?")),
        total=pair.get("total"),
        opposition_total=pair.get("opposition_total"),
    )


def render_pair(console: Console, pair: Mapping[str, Any]) -> None:
    """One pair of a scene roll: the hero's against an opposition, or any two others (L-10)."""
    where = {"number": pair["roll_number"], "duration": _(pair["duration"])}
    if pair.get("side") is None:
        title = _("Against {name} (roll {number}, {duration}):").format(
            name=pair["opposition"], **where
        )
    else:
        title = _("{side} against {name} (roll {number}, {duration}):").format(
            side=pair["side"], name=pair["opposition"], **where
        )
    console.print("[bold]" + title + "[/]")
    if not pair["swept"]:
        console.print(
            "  "
            + _("{total} against {vs_faces} = {opposition_total}").format(
                total=pair["total"],
                vs_faces=dice_text(pair["vs_faces"]),
                opposition_total=pair["opposition_total"],
            )
        )
    console.print("  " + verdict(pair))
    for effect in pair["effects"]:
        console.print("  → " + effect_text(effect, pair["opposition"], pair.get("side")))


def effect_text(effect: str, name: str, side: str | None = None) -> str:
    """An effect of a pair: on the opposition (``name``), the side (``side``) or the hero."""
    kind, _sep, value = effect.partition(":")
    who, _sep, what = kind.partition("_")
    if who == "side" and side is not None:
        name = side
    if who in ("opposition", "side"):
        if what == "out":
            return _("{name} is out of the scene.").format(name=name)
        if what == "doubt":
            return _("{name} doubts (L-13).").format(name=name)
        return _("{name} is wounded: {wound}.").format(name=name, wound=_(WOUND_LABELS[value]))
    if what == "wound":
        return _("The hero is wounded: {wound}.").format(wound=_(WOUND_LABELS[value]))
    if what == "doubt":
        return _("The hero doubts (L-13).")
    return _("The hero is defeated.")
