"""Each seat's score as the boards stand, kept up to date step by step for the
environments' rewards: the totals of :func:`~cascadia.projections.game_scores.score_state`,
from the same scoring functions, with only what a step changed scored again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import islice
from operator import itemgetter

from cascadia.bots.valuation import reads_other_species
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.habitats import CorridorIndex, habitat_bonus
from cascadia.projections.scoresheet import player_total
from cascadia.projections.wildlife import CardScorer, Tokens, card_scorer


class CardSet:
    """One set of scoring cards as the running totals score it: per species its scorer
    and whether the card reads other species' tokens too
    (:func:`~cascadia.bots.valuation.reads_other_species`: the fox cards, salmon D and
    hawk D), which must then be scored again whenever any token is placed."""

    def __init__(self, cards: Mapping[str, str]) -> None:
        self.scorers: dict[str, CardScorer] = {}
        self.whole_board: set[str] = set()
        for species in WILDLIFE:
            card = cards[species]
            self.scorers[species] = card_scorer(species, card)
            if reads_other_species(species, card):
                self.whole_board.add(species)


class SeatWildlife:
    """One board's wildlife points under each card set, rescored card by card. Tokens
    never move (RULES.md 4.3), so a card that reads only its own species (RULES.md
    5.3-5.7) scores the same until a token of that species is placed: after a step,
    only the cards of the species of the tokens placed since are scored again, and
    those that read every species' tokens. The points are those of
    :func:`~cascadia.projections.scoresheet.seat_wildlife`: with two card sets
    (RULES.md 7.6) those of the set with the higher wildlife total, a tie keeping the
    first."""

    def __init__(self, card_sets: Sequence[CardSet]) -> None:
        self._card_sets = card_sets
        self._tokens = -1
        """The number of tokens last scored (-1: none scored yet)."""
        self._index: Tokens | None = None
        """The board's tokens as last scored, grown by the tokens placed since."""
        self._points: list[dict[str, int]] = [{} for _ in card_sets]
        self._best = 0

    def points(self, wildlife: Mapping[Hex, str], options: GameOptions) -> dict[str, int]:
        """Per species, the points of ``wildlife`` (the board's token map, grown by
        placements since the last call) under the better card set."""
        if len(wildlife) == self._tokens:
            return self._points[self._best]
        tokens = self._index
        if tokens is None or tokens.raw is not wildlife:
            changed = set(WILDLIFE)
            tokens = self._index = Tokens(wildlife)  # its groups found once for every card scored
        else:  # the tokens placed since: the last of the map, which only ever grows
            placed = list(islice(reversed(wildlife.items()), len(wildlife) - self._tokens))
            changed = {species for _, species in placed}
            tokens.grow(placed)
        self._tokens = len(wildlife)
        for i, card_set in enumerate(self._card_sets):  # not zip(..., strict=True), a slow call
            points = self._points[i]
            for species in changed | card_set.whole_board:
                points[species] = card_set.scorers[species](tokens, options)
        if len(self._points) > 1:
            totals = [sum(points.values()) for points in self._points]
            self._best = 1 if totals[1] > totals[0] else 0
        return self._points[self._best]


class RunningTotals:
    """The totals of one game's seats. Tiles and tokens never move (RULES.md 4.3), so a
    board with as many tiles as when last scored has the same corridors, and one with as
    many tokens the same wildlife points: a seat's largest corridors are read again when
    its tile count changes (from its :class:`~cascadia.projections.habitats.CorridorIndex`,
    kept up to date tile by tile), its corridor points when it is scored and they were
    read for fewer tiles (and, but with ``corridors_of_three``, the only rule that reads
    more than the largest corridors, its largest corridors changed), a habitat's bonuses
    (which compare every seat's largest corridor of it) when one of those changes, a
    seat's wildlife card by card (:class:`SeatWildlife`) when its tokens change, and its
    total when any of these or its nature tokens changed."""

    def __init__(self, seats: int) -> None:
        self._corridors: list[CorridorIndex | None] = [None] * seats
        """Per seat, its board's corridors as of its last tile read."""
        self._tiles_read = [-1] * seats
        self._tiles_scored = [-1] * seats
        self._habitats: list[dict[str, int]] = [{} for _ in range(seats)]
        self._largest: list[dict[str, int]] = [{} for _ in range(seats)]
        self._points_of: list[dict[str, int] | None] = [None] * seats
        """Per seat, the largest corridors its corridor points were worked out for."""
        self._largest_changed = True
        self._bonus_sizes: dict[str, tuple[int, ...]] = {}
        """Per habitat, each seat's largest corridor its bonuses were worked out for."""
        self._bonuses: list[dict[str, int]] = [{} for _ in range(seats)]
        self._bonus_changes = 0
        """How many times a seat's bonus changed."""
        self._wildlife: list[SeatWildlife] = []
        self._scored: list[tuple[int, int, int, int] | None] = [None] * seats
        """Per seat, what its total was worked out from: its token and tile counts, the
        bonus changes and its nature tokens."""
        self._totals = [0] * seats

    def totals(self, state: GameState, seats: Sequence[int] | None = None) -> list[int]:
        """The totals of ``seats`` (every seat by default), in that order, in ``state`` (a
        state of the game these totals follow). Only those seats' wildlife and corridor
        points are scored; every seat's largest corridors are read, for the habitat
        bonuses."""
        players = state.players
        options = state.options
        tiles_read = self._tiles_read
        for seat, player in enumerate(players):
            if len(player.environment.tiles) != tiles_read[seat]:
                self._read_corridors(seat, player.environment)
        if self._largest_changed:
            self._update_bonuses(options)
        if not self._wildlife:
            card_sets = [CardSet(state.cards)]
            if state.second_cards is not None and options.two_card_sets:
                card_sets.append(CardSet(state.second_cards))
            self._wildlife = [SeatWildlife(card_sets) for _ in players]
        found = []
        for seat in range(len(players)) if seats is None else seats:
            player = players[seat]
            wildlife = player.environment.wildlife
            basis = (len(wildlife), tiles_read[seat], self._bonus_changes, player.nature_tokens)
            if basis != self._scored[seat]:
                self._scored[seat] = basis
                self._totals[seat] = player_total(
                    self._wildlife[seat].points(wildlife, options),
                    self._corridor_points(seat, options),
                    self._bonuses[seat],
                    player.nature_tokens,
                )
            found.append(self._totals[seat])
        return found

    def _read_corridors(self, seat: int, board: Environment) -> None:
        """The largest corridors of ``seat``'s ``board`` (whose tiles changed since the
        last read: a board of the game followed, which only grows)."""
        self._tiles_read[seat] = len(board.tiles)
        corridors = self._corridors[seat] = CorridorIndex.of(board, grown=True)
        largest = corridors.largest()
        if largest != self._largest[seat]:
            self._largest[seat] = largest
            self._largest_changed = True

    def _update_bonuses(self, options: GameOptions) -> None:
        """The habitat bonuses (:func:`~cascadia.projections.habitats.habitat_bonus`) of
        the habitats whose largest corridors changed."""
        self._largest_changed = False
        per_seat = [itemgetter(*HABITATS)(largest) for largest in self._largest]
        for h, sizes in enumerate(zip(*per_seat, strict=True)):  # enumerate: zip's keyword is a slow call
            habitat = HABITATS[h]
            if sizes != self._bonus_sizes.get(habitat):
                self._bonus_sizes[habitat] = sizes
                for seat, bonus in enumerate(habitat_bonus(sizes, options)):
                    bonuses = self._bonuses[seat]
                    if bonuses.get(habitat) != bonus:
                        bonuses[habitat] = bonus
                        self._bonus_changes += 1

    def _corridor_points(self, seat: int, options: GameOptions) -> dict[str, int]:
        """The corridor points of ``seat`` (its corridors read by :meth:`_read_corridors`),
        worked out again if they were read for more tiles since and, but with
        ``corridors_of_three``, its largest corridors changed (the points of the others
        read the largest alone, :meth:`CorridorIndex.points`)."""
        corridors = self._corridors[seat]
        if self._tiles_scored[seat] != self._tiles_read[seat] and corridors is not None:
            self._tiles_scored[seat] = self._tiles_read[seat]
            largest = self._largest[seat]
            if options.corridors_of_three or largest is not self._points_of[seat]:
                self._points_of[seat] = largest
                self._habitats[seat] = corridors.points(options)
        return self._habitats[seat]
