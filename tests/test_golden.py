"""Golden games: the exact events of a few seeded games, pinned by their SHA-256.

Same seed and same decisions must give the same events, byte for byte, on any machine
and any supported Python. These digests were recorded once; any change to the draws,
the event payloads or the bots' choices changes them. If a change is intended (a new
rules version), record the new digests and say so in the commit.

Logs are forever: the games of every rules version this engine implements are pinned,
each played under its own version (``cascadia-rules-1`` returns the tokens an
overpopulation sets aside after each single wipe, ``cascadia-rules-2`` only once it is
resolved, RULES.md 4.1). Golden *logs* of each version, written from fixed seeds, must
still pass audit, replay, rerun and import as judged by the version they name.

The pinned games are played as they were before games recorded their bots
(``GameStarted.bots``): a game set up without them keeps every byte, which is what an
old log is. A game that records them differs in its first event (and its derived id)
only, which is tested, and its own golden log is pinned too.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest
from cascadia.bots.registry import VERSIONS, bot_game_id, continue_game, make_bots, play_game
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import RULES_V1, RULES_V2, RULES_VERSION, GameOptions
from cascadia.replays.errors import AuditDivergence
from cascadia.replays.format import LogHeader, encode_log
from cascadia.replays.scores import final_score_sheet
from test_replays_helpers import audit_bytes, rechain


def play_unrecorded(seed: int, bots: list[str], options: GameOptions, rules_version: str) -> Game:
    """The game :func:`play_game` plays, set up without recording its bots (as every game
    was before ``GameStarted.bots``)."""
    game = Game.start(seed, bots, options, rules_version=rules_version)
    return continue_game(game, make_bots(bots, seed))


def event_digest(seed: int, bots: list[str], options: GameOptions, rules_version: str) -> str:
    """SHA-256 of the game's events as canonical JSON lines (type, version, payload)."""
    digest = hashlib.sha256()
    for event in play_unrecorded(seed, bots, options, rules_version).collect_events():
        line = [event.type, event.originator_version, event.payload()]
        digest.update(json.dumps(line, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    return digest.hexdigest()


SECRET_THREE = GameOptions(cards="A,B,C,D,A", market_of_three=True, secret_cards=True)
GOLDEN_RULES_1 = [
    (0, ["random"] * 4, GameOptions(), "7ad0b6326fd26843e1fb3f6484833742914ed8771ab48b8e372f7f883ef06efb"),
    (
        1,
        ["random"],
        GameOptions(cards="all-a"),
        "dd48d3c85c6bc6d9e5461d2bc17d999304631f0c23c08f0d4777c5ebe37a7bd6",
    ),
    (
        2,
        ["greedy", "random"],
        GameOptions(),
        "44711fd7eeabb3b241b75550207d9b006bbbfcd2c3e441ce7096ebbd6b4aa79b",
    ),
    (3, ["greedy"] * 3, SECRET_THREE, "26d43eaf64ef4c3d03f0fc39b0ca737b1a56e3cc07ec5d9db853d7521c9f7c87"),
    (5, ["random"] * 4, GameOptions(), "866fa24daf358fec73e858c3b928e2a592b6d38f632797539c08f75dddc7bc69"),
]
"""Recorded before rules version 2 existed (seed 5 added with it). The two games with
greedy seats (seeds 2 and 3, both versions) were re-recorded when the greedy bot learned
to value a move by its whole-board score and to use the wipes (issue 12): the rules and
the draws are unchanged, the bot's choices are not."""
GOLDEN_RULES_2 = [
    (0, ["random"] * 4, GameOptions(), "08d88517e4338bbed4e724c40ac844c78acff13aedc788f115c8bfea327baa39"),
    (
        1,
        ["random"],
        GameOptions(cards="all-a"),
        "a43a43e8410435432b201788ff2c19bb800bde377b9b143c58483c930215b4bf",
    ),
    (
        2,
        ["greedy", "random"],
        GameOptions(),
        "14064122d7b003f4ed3de11718de5c83ce9a53967a5b4cd9c8cf9377594fdc78",
    ),
    (3, ["greedy"] * 3, SECRET_THREE, "f1b00473b4cfab315f623e040b5ef9baecfbed8fe852d0438da523ff18dc4963"),
    (5, ["random"] * 4, GameOptions(), "ae0298872370361d571e880dcef3305dca4ccb308873b08d93f64bf7a79d390e"),
]
"""Seed 5: a three-of-a-kind wipe (event 73) makes four hawks; under version 1 the
three foxes it set aside are back in the bag for the mandatory wipe, under version 2
they are not, so the two versions draw different tokens from there on."""


@pytest.mark.parametrize(("seed", "bots", "options", "expected"), GOLDEN_RULES_1)
def test_rules_1_games_are_the_same_everywhere(seed, bots, options, expected) -> None:
    assert event_digest(seed, bots, options, RULES_V1) == expected


@pytest.mark.parametrize(("seed", "bots", "options", "expected"), GOLDEN_RULES_2)
def test_rules_2_games_are_the_same_everywhere(seed, bots, options, expected) -> None:
    assert event_digest(seed, bots, options, RULES_V2) == expected


def test_new_games_are_played_under_rules_version_2() -> None:
    assert RULES_VERSION == RULES_V2
    seed, bots, options, expected = GOLDEN_RULES_2[0]
    assert play_game(seed, bots, options).state.rules_version == RULES_V2
    assert event_digest(seed, bots, options, RULES_VERSION) == expected


@pytest.mark.parametrize(("seed", "bots", "options", "expected"), GOLDEN_RULES_2[2:4])
def test_a_game_records_its_bots_in_its_first_event_and_nothing_else_changes(
    seed, bots, options, expected
) -> None:
    """Name, version and budget of each seat's bot (issue 12: tournaments), in the first
    event and the derived id; every other event is the pinned game's."""
    recorded = play_game(seed, bots, options).collect_events()
    unrecorded = play_unrecorded(seed, bots, options, RULES_V2).collect_events()
    assert recorded[0].bots == [{"name": b, "version": VERSIONS[b], "budget": None} for b in bots]
    assert "bots" not in unrecorded[0].payload()
    assert recorded[0].payload() == {**unrecorded[0].payload(), "bots": recorded[0].bots}
    assert [(e.type, e.payload()) for e in recorded[1:]] == [(e.type, e.payload()) for e in unrecorded[1:]]
    assert recorded[0].originator_id == bot_game_id(seed, bots, options) != unrecorded[0].originator_id
    assert play_game(seed, ["search@3", *bots[1:]], options).collect_events()[0].bots[0] == {
        "name": "search",
        "version": VERSIONS["search"],
        "budget": 3,
    }


# -- golden logs of each version: audit, replay, rerun, import ---------------------------------

WITH_BOTS = "cascadia-rules-2, bots recorded"
GOLDEN_LOGS = {
    RULES_V1: "42a4d689810108fd63ee1266424345e94fd8c2c2302ad9f62676076faf2a0649",
    RULES_V2: "94ca8040ba265f5e87d351612f0161e7c1f233979cf8180922b60bae34391d95",
    WITH_BOTS: "72429b224fb5eb0ab315c167abe52d364960ba3aaf99d507385ddada2d50354b",
}
"""SHA-256 of the log of seed 5 (four random bots) written under each version. The
rules-1 log is byte for byte the one the engine wrote before version 2 existed, the
rules-2 log the one it wrote before games recorded their bots; the third is the same
game as :func:`play_game` plays it now, its bots in the header and the first event."""


def golden_log(label: str) -> bytes:
    args = (5, ["random"] * 4, GameOptions())
    if label == WITH_BOTS:
        game = play_game(*args, rules_version=RULES_V2)
    else:
        game = play_unrecorded(*args, rules_version=label)
    events = game.collect_events()
    return encode_log(LogHeader.from_events(events), events, final_score_sheet(game.state))


@pytest.fixture(scope="module")
def logs() -> dict[str, bytes]:
    return {label: golden_log(label) for label in GOLDEN_LOGS}


@pytest.mark.parametrize("label", list(GOLDEN_LOGS))
def test_golden_logs_are_the_same_everywhere(logs, label) -> None:
    assert hashlib.sha256(logs[label]).hexdigest() == GOLDEN_LOGS[label]


@pytest.mark.parametrize("label", list(GOLDEN_LOGS))
def test_golden_logs_pass_audit_under_their_own_version(logs, label) -> None:
    events = audit_bytes(logs[label])
    assert events[0].rules_version == (RULES_V2 if label == WITH_BOTS else label)
    assert (events[0].bots is not None) == (label == WITH_BOTS)


def as_version(data: bytes, version: str) -> bytes:
    """The log with its header and ``GameStarted`` naming ``version`` (re-chained), and
    the game id derived for that version (replays/FORMAT.md, "The game id")."""

    def relabel(records):
        seq, type_name, payload = records[0]
        return [[seq, type_name, {**payload, "rules_version": version}], *records[1:]]

    def trailer(scores):
        return {**scores, "rules_version": version}

    def header(h):
        game_id = derive_game_id(h.seed, h.names, GameOptions.from_dict(h.options), version)
        return replace(h, rules_version=version, game_id=game_id)

    return rechain(data, relabel, header=header, scores=trailer)


@pytest.mark.parametrize(("recorded", "judged"), [(RULES_V1, RULES_V2), (RULES_V2, RULES_V1)])
def test_a_log_judged_under_the_other_version_diverges_at_the_held_tokens(logs, recorded, judged) -> None:
    """The same decisions under the other rules draw other tokens for the mandatory wipe
    that follows the three-of-a-kind wipe (event 74 of seed 5)."""
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(as_version(logs[recorded], judged))
    assert (raised.value.kind, raised.value.seq) == ("draw", 74)


def test_a_log_naming_an_unknown_version_is_refused(logs) -> None:
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(as_version(logs[RULES_V1], "cascadia-rules-9"))
    assert (raised.value.kind, raised.value.seq) == ("header", None)
    assert "cascadia-rules-9" in str(raised.value) and RULES_V1 in str(raised.value)


@pytest.mark.parametrize("label", list(GOLDEN_LOGS))
def test_golden_logs_replay_rerun_and_import_under_their_own_version(cli, tmp_path, logs, label) -> None:
    version = RULES_V2 if label == WITH_BOTS else label
    path = tmp_path / "game.cascadia"
    path.write_bytes(logs[label])
    code, out, err = cli("audit", str(path), home=False)
    assert code == 0, err
    code, out, err = cli("replay", str(path), "--json", home=False)
    assert code == 0, err
    final = json.loads(out.splitlines()[-1])
    assert final["state"]["rules_version"] == version and final["finished"]
    code, out, err = cli("rerun", str(path), "-o", str(tmp_path / "again.cascadia"), home=False)
    assert code == 0, err
    assert (tmp_path / "again.cascadia").read_bytes() == logs[label]
    code, out, err = cli("import", str(path))
    assert code == 0, err
    code, out, err = cli("export", "--all", "-o", str(tmp_path / "out"))
    assert code == 0, err
    (exported,) = (tmp_path / "out").iterdir()
    assert exported.read_bytes() == logs[label]


@pytest.mark.parametrize("command", ["audit", "replay", "rerun", "import"])
def test_every_log_command_refuses_an_unknown_version_in_one_line(cli, tmp_path, logs, command) -> None:
    path = tmp_path / "future.cascadia"
    path.write_bytes(as_version(logs[RULES_V2], "cascadia-rules-9"))
    extra = ["-o", str(tmp_path / "out.cascadia")] if command == "rerun" else []
    code, _, err = cli(command, str(path), *extra, home=command == "import")
    assert code == 1
    (line,) = err.strip().splitlines()
    assert line.startswith("error: ") and "cascadia-rules-9" in line
    assert not (tmp_path / "out.cascadia").exists()
