"""``cascadia rules``: the rules version, every option and its default; ``--full`` prints
the rules reference, docs/RULES.md, installed with the package."""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated

import typer
from cascadia.application.documents import document
from cascadia.cli.common import JsonOption, console, print_json
from cascadia.cli.tables import say
from cascadia.domain.options import RESTRICTIONS, RULES_VERSION, RULES_VERSIONS, GameOptions
from rich import box
from rich.table import Table
from rich.text import Text

OPTION_HELP = {
    "cards": "scoring cards: random, all-a, family, intermediate, or letters like A,B,C,D,A (3.3)",
    "balanced_bag": "5 tokens per species per player; 2-3 players only (3.1)",
    "salmon_runs": "strict: a group with a salmon touching 3+ salmon scores nothing; lenient (5.5)",
    "elk_rings": "arc: elk D formations are connected arcs; any-subset allows gaps (5.4)",
    "majority_bonus": "habitat majority bonuses (5.1); may be off for Family/Intermediate (5.8)",
    "must_match": "each new tile touches at least one same-habitat edge (7.1)",
    "must_not_match": "no new tile touches a same habitat; corridors not scored (7.2)",
    "corridors_of_three": "3 points per corridor of exactly 3 tiles, nothing else (7.3)",
    "corridors_min_five": "a largest corridor under 5 tiles scores 0 (7.4)",
    "market_of_three": "3 pairs; three alike is the mandatory wipe; the stack has one tile "
    "fewer (20 x players + 2), so still 20 turns a player (7.5)",
    "two_card_sets": "two card sets; each player scored under the better one (7.6)",
    "no_starter": "two random opening tiles from the stack instead of a starter; the game "
    "is 18 turns a player (solo 19) (7.7, 4.5)",
    "nature_cost_two": "each nature-token action costs 2 (7.8)",
    "no_token_on_new_tile": "the token may not go on the tile placed this turn (7.9)",
    "secret_cards": "one card dealt face down to each player, revealed on first spend (7.10)",
    "achievement_mode": "played for an achievement map: standard or one restriction (8.1)",
}


def rules(
    full: Annotated[
        bool, typer.Option("--full", help="Print the whole rules reference (docs/RULES.md).")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Print the rules version and every game option with its default.

    Section numbers, here and in every error message ("RULES.md 4.3"), refer to
    docs/RULES.md, the rules reference installed with the package: --full prints it."""
    if full:
        console.print(document("rules"), markup=False, highlight=False)
        return
    default = GameOptions()
    rows = [
        {
            "option": f.name,
            "default": getattr(default, f.name),
            "restriction": f.name in RESTRICTIONS,
            "meaning": OPTION_HELP[f.name],
        }
        for f in fields(GameOptions)
    ]
    if json_output:
        print_json(
            {
                "rules_version": RULES_VERSION,
                "rules_versions": list(RULES_VERSIONS),
                "rules_reference": "docs/RULES.md",
                "options": rows,
            }
        )
        return
    console.print(f"rules version: {RULES_VERSION}", markup=False)
    console.print(f"plays, audits and replays: {', '.join(RULES_VERSIONS)}", markup=False)
    say(
        console,
        'The numbers in brackets, and every "RULES.md N" in messages, are sections of '
        "docs/RULES.md, the rules reference shipped with cascadia: `cascadia rules --full` "
        "prints it; `cascadia cards` lists the scoring cards.",
    )
    table = Table("option", "default", "meaning", box=box.SIMPLE_HEAD, pad_edge=False)
    for row in rows:
        table.add_row(row["option"], str(row["default"]), Text(row["meaning"]))
    console.print(table)
    say(
        console,
        "simulate and new set them with --cards, --balanced-bag, --salmon-runs, --elk-rings, "
        "--no-majority and --rule NAME (repeatable) for the restrictions.",
    )


def register(app: typer.Typer) -> None:
    app.command("rules", short_help="The rules version, the options, the rules text.")(rules)
