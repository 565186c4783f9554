"""Refuse an option given twice where it takes one value (``--seed 1 --seed 2``).

Click keeps the last value in silence. A player who typed ``--faces 6,6 --faces 1`` would
see, and log, a roll of the 1 alone, believing the first faces counted; a designer who
wrote ``--dice 3 ... --dice 5`` would read odds of 5 dice. The options that take several
values say so (``multiple``: ``--modifier``, ``--variant``...) and are left alone; a flag
and its negation (``--blessed`` then ``--no-blessed``) count as one option.

Reading the words typed here also names a bad value's option as the user spelled it
(:func:`name_as_typed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meneur.cli.clickcompat import BadParameter
from meneur.locale import _


def refuse_repeats(command: Any) -> None:
    """Make ``command`` and every command under it refuse a single-value option given twice
    (their own options: a group's words after it belong to its subcommand)."""
    stack = [command]
    while stack:
        current = stack.pop()
        children = getattr(current, "commands", None)
        if children:
            stack.extend(children.values())
            continue
        current.parse_args = _checked(current, current.parse_args)


def _checked(command: Any, parse_args: Any) -> Any:
    def parse(ctx: Any, args: list[str]) -> Any:
        check_repeats(command.params, args)
        typed = list(args)  # click empties ``args`` as it parses them
        try:
            return parse_args(ctx, args)
        except BadParameter as error:
            name_as_typed(error, typed)
            raise

    return parse


def name_as_typed(error: Any, args: Sequence[str]) -> None:
    """Make a bad value's message name its option as the user typed it: click names an
    option of several spellings by its first (« --max-rounds » for ``--rounds 0``), one
    the user never wrote. Before ``--``, the first word that is one of its spellings
    (``--rounds`` or ``--rounds=0``); a single spelling is left alone."""
    param = getattr(error, "param", None)
    spellings = tuple(getattr(param, "opts", ())) + tuple(getattr(param, "secondary_opts", ()))
    if error.param_hint is not None or len(spellings) < 2:
        return
    for word in args:
        if word == "--":
            return
        name = word.partition("=")[0]
        if name in spellings:
            error.param_hint = name
            return


def check_repeats(params: Sequence[Any], args: Sequence[str]) -> None:
    """Raise ``BadParameter`` at the second occurrence of an option that takes one value.

    Reads the words as click does: ``--name=value`` or ``--name value`` (the value, even
    one that starts with ``-``, is skipped), everything after ``--`` is an argument.
    """
    single: dict[str, str] = {}  # every spelling -> the option's first name
    takes_value: set[str] = set()
    for param in params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        if not param.is_flag:
            takes_value.update(param.opts)
        if param.multiple or param.count:
            continue
        for name in (*param.opts, *param.secondary_opts):
            single[name] = param.opts[0]
    seen: set[str] = set()
    words = iter(args)
    for word in words:
        if word == "--":
            return
        name, equals, _value = word.partition("=")
        option = single.get(name)
        if option is None:
            continue
        if option in seen:
            raise BadParameter(_("given more than once; give it once."), param_hint=option)
        seen.add(option)
        if not equals and name in takes_value:
            next(words, None)
