"""How the command line presents itself: plain help that fits 80 columns, readable
placeholders for option values, and usage errors as one line ``error: ...``.

typer builds the commands on click (its own copy or the ``click`` package, depending on
the version); the click exception classes are taken from the module that defines
``typer.BadParameter``, so both work.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from typing import Any

import typer

_click_exceptions = importlib.import_module(typer.BadParameter.__module__)
ClickException: type[Exception] = _click_exceptions.ClickException
UsageError: type[Exception] = _click_exceptions.UsageError
NoSuchOption: type[Exception] = _click_exceptions.NoSuchOption
NoArgsIsHelpError: type[Exception] | None = getattr(_click_exceptions, "NoArgsIsHelpError", None)

PLACEHOLDERS = {
    "home": "DIR",
    "output": "PATH",
    "where": "CONDITION",
    "games": "N",
    "players": "N",
    "workers": "K",
    "bin_width": "POINTS",
    "max_rows": "N",
    "turn": "N",
    "to": "N",
    "from_turn": "N",
    "seat": "SEAT",
    "as_player": "SEAT",
    "seed": "SEED",
    "seeds": "START:STOP",
    "shard": "I/N",
    "rule": "NAME",
    "bot": "NAME",
    "source": "STORE",
    "salmon_runs": "strict|lenient",
    "elk_rings": "arc|any-subset",
    "fmt": "FORMAT",
    "sort": "COLUMN",
}
"""The placeholder shown after an option in help, by parameter name; other options, and
arguments, show their name in capitals (``--cards CARDS``, ``GAME``)."""


def one_line(text: str) -> str:
    """``text`` on one line: its non-blank lines stripped and joined with ``; ``."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return "; ".join(lines)


def walk(command: Any) -> Iterator[Any]:
    """``command`` and every command under it (groups and their subcommands)."""
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from walk(sub)


def set_placeholders(command: Any) -> None:
    """Give every option that takes a value, and every argument, a plain placeholder
    (``--seed SEED``, ``FILES...``) instead of typer's type names (``<int range>``,
    ``<list[Path]>``); flags show none."""
    for each in walk(command):
        for param in getattr(each, "params", []):
            if param.metavar is not None or getattr(param, "is_flag", False) or not param.name:
                continue
            if param.param_type_name == "argument":
                param.metavar = param.name.upper()
                _plain_argument(param)
            else:
                param.metavar = PLACEHOLDERS.get(param.name, param.name.upper())


def _plain_argument(param: Any) -> None:
    """Recent typer versions print an argument as ``{GAME}`` in the usage line and add
    its type (``GAME <str>``) in the help; show ``GAME``, ``FILES...``, ``[GAMES]...``."""
    dots = "..." if param.nargs != 1 else ""
    usage = f"{param.metavar}{dots}" if param.required else f"[{param.metavar}]{dots}"
    if hasattr(param, "_usage_display_name"):
        param._usage_display_name = lambda: usage
    if hasattr(param, "_rich_display_name"):
        param._rich_display_name = lambda: f"{param.metavar}{dots}"
    if hasattr(param, "display_type_rich"):
        param.display_type_rich = lambda ctx: None


def _raw_value(error: Any, args: Sequence[str]) -> str | None:
    """The value the user gave to the option of a bad-parameter ``error``, from ``args``."""
    param = getattr(error, "param", None)
    opts = getattr(param, "opts", None) or []
    for position, arg in enumerate(args):
        for opt in opts:
            if arg == opt and position + 1 < len(args):
                return args[position + 1]
            if opt.startswith("--") and arg.startswith(opt + "="):
                return arg[len(opt) + 1 :]
    return None


def usage_message(error: Exception, args: Sequence[str]) -> str:
    """One line saying what is wrong with the command line, naming the option or value
    and, where it helps, the command's ``--help``."""
    if isinstance(error, NoSuchOption):
        name = getattr(error, "option_name", "")
        if any(c.isspace() for c in name) or name.startswith("-- "):
            return (
                f"{name!r} is read as an option; put the options first and `--` before an "
                'argument that starts with "-", e.g. cascadia sql --home DIR -- "-- note ..."'
            )
    message = one_line(error.format_message()).rstrip(".")  # type: ignore[attr-defined]
    value = _raw_value(error, args)
    if value is not None and value not in message:
        message = f"{message} (given: {value!r})"
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        message = f"{message}; see `{ctx.command_path} --help`"
    return message
