"""What a move is worth to the player making it: the change of their whole score now.

A turn's move is a take (a pair, or any tile and token after free choice), a tile
placement and a token placement (or the token returned). Its value is the change of
the player's own total as the score sheet counts it (RULES.md 5): every wildlife card
(a token changes other species' cards too: foxes count their neighbours, salmon D the
tokens touching a run, hawk D the species between two hawks), every corridor, the
majority (or solo) bonus against the other players' corridors as they stand, a nature
token earned on a keystone and the nature tokens spent.

The value splits exactly into two parts, because no card reads tiles (an elk D ring's
centre and a hawk's line of sight ignore them) and no corridor reads tokens:

- the tile part: per habitat of the tile, the corridor it joins (1 + the corridors its
  matching edges touch) changes that habitat's corridor points (under the game's rule
  restrictions) and the bonus for its largest corridor;
- the token part: the change of the wildlife total (under the better card set with
  ``two_card_sets``), plus 1 for a keystone.

:class:`TurnValuation` computes each part once per turn and caches it, so a whole
market of choices costs little more than one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import NamedTuple

from cascadia.domain.components import CARD_LETTERS, HABITATS, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import ADJACENT, NEIGHBOUR_SET, Hex, tile_edges
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.habitats import (
    NO_TILES,
    CorridorIndex,
    Frontier,
    NearEdges,
    habitat_bonus,
    habitat_points,
    largest_corridors,
)
from cascadia.projections.wildlife import card_scorer, normalise_card
from cascadia.projections.wildlife.fox import PER_FOX
from cascadia.projections.wildlife.groups import connected_groups

Placement = tuple[Hex, int]
ALONE: frozenset[Hex] = frozenset(((10**6, 10**6),))
"""The cells of a token far from every board: a token that forms a group of its own is
scored there (a group scores alike wherever it is)."""
UNVALUED = -(10**9)
"""Below every value of a move (a start for maxima)."""
KEYSTONE: tuple[int, ...] = tuple(1 if tile.keystone else 0 for tile in TILES)
"""Per tile id, the nature token a token placed on it earns (RULES.md 4.3: keystones)."""


def reads_other_species(species: str, card: str) -> bool:
    """Whether ``species``' card scores tokens of other species too: the fox cards
    (RULES.md 5.7: adjacent species), salmon D (5.5: tokens adjacent to a run) and hawk
    D (5.6: species between two hawks). Every other card reads its own species only."""
    if species == "fox":
        return card in CARD_LETTERS
    return species in ("salmon", "hawk") and card == "D"


def scores_group_sizes(species: str, card: str) -> bool:
    """Whether ``species``' card reads nothing but the sizes of its groups: the bear
    cards (RULES.md 5.3: groups by size) and hawk A (5.6: hawks adjacent to no other
    hawk, the groups of one)."""
    return (species == "bear" and card in CARD_LETTERS) or (species == "hawk" and card == "A")


class CardCache:
    """Card scores remembered across turns, keyed by only the tokens the card reads:
    ``(species, card, hexes of that species)`` for a card that reads its own species,
    ``(species, card, every (hex, species))`` for one that reads others; and for a card
    that reads only group sizes, ``(species, card, the sizes sorted)``.

    A score also depends on the rulings the cards read (RULES.md 5.4-5.5: ``elk_rings``
    and ``salmon_runs``), so the scores are kept apart per ruling: one cache may serve
    games of any options."""

    def __init__(self) -> None:
        self._options: GameOptions | None = None
        self._points: dict[tuple[str, str, frozenset], int] = {}
        self._by_sizes: dict[tuple[str, str, tuple[int, ...]], int] = {}
        self._by_ruling: dict[tuple[str, str], tuple[dict, dict]] = {}

    def _use(self, options: GameOptions) -> None:
        """Read and write the scores of ``options``' rulings (a cheap check when the
        options are those of the last call)."""
        if options is self._options:
            return
        ruling = (options.elk_rings, options.salmon_runs)
        self._points, self._by_sizes = self._by_ruling.setdefault(ruling, ({}, {}))
        self._options = options

    def sized(
        self,
        species: str,
        card: str,
        sizes: tuple[int, ...],
        wildlife: Mapping[Hex, str],
        options: GameOptions,
        added: tuple[Hex, str] | None = None,
    ) -> int:
        """The score of ``wildlife`` (with ``added`` placed) under a card that reads only
        the sizes of the groups (:func:`scores_group_sizes`), whose sorted sizes are ``sizes``."""
        self._use(options)
        key = (species, card, sizes)
        found = self._by_sizes.get(key)
        if found is None:
            if added is not None:
                wildlife = {**wildlife, added[0]: added[1]}
            found = self._by_sizes[key] = card_scorer(species, card)(wildlife, options)
        return found

    def points(
        self, species: str, card: str, tokens: frozenset, wildlife: Mapping[Hex, str], options: GameOptions
    ) -> int:
        """The card's score of ``wildlife``, whose tokens the card reads are ``tokens``."""
        self._use(options)
        key = (species, card, tokens)
        found = self._points.get(key)
        if found is None:
            found = self._points[key] = card_scorer(species, card)(wildlife, options)
        return found

    def known(self, species: str, card: str, tokens: frozenset, options: GameOptions) -> int | None:
        """The remembered score for ``tokens`` under ``options``' rulings, if any."""
        self._use(options)
        return self._points.get((species, card, tokens))


WHOLE_BOARD_READERS = {("fox", "D"), ("salmon", "D"), ("hawk", "D")}
"""The cards that read other species' tokens anywhere on the board (RULES.md 5.5-5.7)."""


class TokenMemo:
    """Token values (:meth:`TurnValuation.token_value` without the keystone) kept from one
    valuation to the next.

    A token's value is a function of the board's tokens (no card reads tiles), the card
    set and the options. When the next board holds the same tokens plus one ``w`` token
    on ``t``, a value of a ``s`` token on ``h`` that fox A-C do not read the new token for
    (:func:`_read_by_foxes`) still holds if

    - ``s`` is not ``w``: the groups and group sizes of ``s`` are unchanged;
    - or ``s`` is ``w``, ``w``'s card is a sum over its groups (:func:`sums_groups`) and
      ``h`` is not next to the group the new token is in: the groups next to ``h``, all
      that card's change reads, are unchanged.

    The species points are kept alike: the last board's plus the card changes
    (:meth:`TurnValuation.card_changes`) of the token placed since, when it was valued on
    the last board.

    With a whole-board reader in play, or two card sets (a value then depends on both
    sets' totals), nothing is kept."""

    def __init__(self) -> None:
        self._wildlife: dict[Hex, str] | None = None
        self._rules: tuple[list[dict[str, str]], GameOptions] | None = None
        self._values: TokenValues = _per_species()
        self.points: dict[str, int] | None = None
        """Each species' points on the board last given to :meth:`values`, if known (the
        valuation sets them when it finds them)."""
        self.changes: TokenChanges = _per_species()
        """The card changes of the tokens valued on that board (the valuation adds them);
        the changes of a value kept are kept with it."""

    def values(
        self, wildlife: Mapping[Hex, str], card_sets: list[dict[str, str]], options: GameOptions
    ) -> TokenValues:
        """The remembered values that hold for ``wildlife``; the valuation adds to it."""
        rules = (card_sets, options)
        previous = self._wildlife
        same_rules = previous is not None and rules == self._rules and _keeps_values(card_sets)
        self._wildlife = dict(wildlife)
        self._rules = rules
        if same_rules and len(wildlife) == len(previous) and wildlife == previous:
            return self._values
        if not (same_rules and len(wildlife) == len(previous) + 1 and previous.items() <= wildlife.items()):
            self._values, self.changes, self.points = _per_species(), _per_species(), None
            return self._values
        t = next(reversed(wildlife))  # the token placed last, unless a board was built otherwise
        if t in previous:
            ((t, _),) = wildlife.items() - previous.items()
        placed = wildlife[t]
        change = self.changes[placed].get(t)
        self.points = (
            None
            if change is None or self.points is None
            else {species: p + change.get(species, 0) for species, p in self.points.items()}
        )
        near = _read_by_foxes(wildlife, t) if card_sets[0]["fox"] in PER_FOX else {t}
        values = {species: dict(found) for species, found in self._values.items()}
        changes = {species: dict(found) for species, found in self.changes.items()}
        if sums_groups(placed, card_sets[0][placed], options):
            _forget(_next_to_group(wildlife, t), values[placed], changes[placed])
        else:
            values[placed], changes[placed] = {}, {}
        for species in WILDLIFE:
            _forget(near, values[species], changes[species])
        self._values, self.changes = values, changes
        return values


TokenValues = dict[str, dict[Hex, int]]
"""Per species, per hex, a token's value (see :class:`TokenMemo`)."""
TokenChanges = dict[str, dict[Hex, dict[str, int]]]
"""Per species, per hex, the card changes of a token valued (:meth:`TurnValuation.card_changes`)."""


def _per_species() -> dict[str, dict]:
    return {species: {} for species in WILDLIFE}


def _forget(hexes: set[Hex], values: dict[Hex, int], changes: dict[Hex, dict[str, int]]) -> None:
    """Drop the values (and their changes) of tokens on ``hexes``."""
    for h in values.keys() & hexes:
        del values[h]
        changes.pop(h, None)


@cache
def _normalised(cards: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """A card per species, its name normalised (shared: not to be changed)."""
    return {species: normalise_card(card) for species, card in cards}


def _cells_by_species(wildlife: Mapping[Hex, str]) -> dict[str, frozenset[Hex]]:
    """Per species, the hexes of its tokens."""
    cells: dict[str, list[Hex]] = {species: [] for species in WILDLIFE}
    for h, species in wildlife.items():
        cells[species].append(h)
    return {species: frozenset(hexes) for species, hexes in cells.items()}


def sums_groups(species: str, card: str, options: GameOptions) -> bool:
    """Whether ``species``' card is a sum of what each of its groups scores alone: elk
    A-C, elk D with arcs (RULES.md 5.4), salmon A-C (5.5: per run) and the variant
    cards."""
    if card in VARIANT_CARDS:
        return True
    if species == "elk":
        return card != "D" or options.elk_rings == "arc"
    return species == "salmon" and card != "D"


def _next_to_group(wildlife: Mapping[Hex, str], t: Hex) -> set[Hex]:
    """The hexes of the group holding the token on ``t`` (its species' tokens connected
    to it, RULES.md 5.2) and every hex next to one of them."""
    species = wildlife[t]
    group = [t]
    found = {t}
    for h in group:
        for n in ADJACENT[h]:
            if n not in found:
                found.add(n)
                if wildlife.get(n) == species:
                    group.append(n)
    return found


def _read_by_foxes(wildlife: Mapping[Hex, str], t: Hex) -> set[Hex]:
    """The hexes where a token's value under fox A-C reads the token on ``t``: ``t``, its
    neighbours (a fox there counts it, RULES.md 5.7) and the neighbours of each fox next
    to ``t`` (a token there changes what that fox counts)."""
    found = {t, *ADJACENT[t]}
    for n in ADJACENT[t]:
        if wildlife.get(n) == "fox":
            found.update(ADJACENT[n])
    return found


def _keeps_values(card_sets: list[dict[str, str]]) -> bool:
    return len(card_sets) == 1 and WHOLE_BOARD_READERS.isdisjoint(card_sets[0].items())


FIRST_RUNS: tuple[int, ...] = tuple(sum(1 << (rho + k) % 6 for k in range(3)) for rho in range(6))
"""Per rotation ``rho``, the set (a bit per edge) of edges ``rho, rho + 1, rho + 2``: where
a dual tile turned by ``rho`` shows its first habitat (RULES.md 2, ``hexgrid.edges_of``)."""
SECOND_RUNS: tuple[int, ...] = FIRST_RUNS[3:] + FIRST_RUNS[:3]
"""Per rotation, the edges where a dual tile shows its second habitat."""
NO_EDGES: tuple[int, tuple[int, ...]] = (0, NO_TILES)
"""A habitat no neighbour's touching edge shows (see :data:`~cascadia.projections.habitats.NearEdges`)."""
NO_NEAR: NearEdges = {}
"""No neighbour's touching edge (not to be changed)."""

RotationChoice = tuple[int, tuple[int, ...], tuple[int, ...], int]
"""A rotation of a dual tile, the edges where its first and its second habitat meet the
same habitat on a neighbour, and how many edges match in all."""


@cache
def rotation_choices(first: int, second: int, legal: tuple[int, ...]) -> tuple[RotationChoice, ...]:
    """The rotations among ``legal`` of a dual tile at a hex whose neighbours show its
    first habitat on the edge set ``first`` and its second on ``second`` (a bit per edge),
    one per distinct way of matching them: the first (in ``legal``'s order) of the
    rotations that match the same edges. Rotations matching the same edges join the same
    corridors (RULES.md 5.1), so they have the same value and the first is the one chosen."""
    found: dict[tuple[int, int], RotationChoice] = {}
    for rotation in legal:
        a, b = first & FIRST_RUNS[rotation], second & SECOND_RUNS[rotation]
        if (a, b) not in found:
            found[a, b] = (rotation, _edges_in(a), _edges_in(b), a.bit_count() + b.bit_count())
    return tuple(found.values())


def _edges_in(edges: int) -> tuple[int, ...]:
    """The edges 0..5 in the set ``edges`` (a bit per edge)."""
    return tuple(edge for edge in range(6) if edges >> edge & 1)


class MoveValue(NamedTuple):
    """The best way to play one (tile, token) take: its value and how to place them.

    ``shape`` breaks ties between equal values: the number of the tile's edges that
    match their neighbours (room for corridors to grow), then a token placed rather
    than returned."""

    value: int
    shape: tuple[int, int]
    placement: Placement
    target: Hex | None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.value, *self.shape)


class TurnValuation:
    """The values of the active player's possible moves on the board as it stands."""

    def __init__(
        self,
        state: GameState,
        tile_placements: Mapping[int, Mapping[Hex, Sequence[int]]],
        cards: CardCache | None = None,
        tokens: TokenMemo | None = None,
    ) -> None:
        """``tile_placements`` gives the legal placements of each market tile, per hex
        where it may go its rotations there (the rules' answer, which knows the placement
        restrictions); ``tokens`` keeps token values from the last valuation that still
        hold."""
        self.state = state
        self.options: GameOptions = state.options
        self.seat = state.current
        self.environment: Environment = state.players[self.seat].environment
        self.wildlife = self.environment.wildlife
        self.tile_placements = tile_placements
        self.cards = cards or CardCache()
        self.card_sets = [_normalised(tuple(state.cards.items()))]
        if self.options.two_card_sets and state.second_cards:
            self.card_sets.append(_normalised(tuple(state.second_cards.items())))
        self.corridors = CorridorIndex.of(self.environment)
        self.sizes = self.corridors.sizes()
        self.largest = [largest_corridors(player.environment) for player in state.players]
        self.base_bonus = {
            habitat: habitat_bonus([p[habitat] for p in self.largest], self.options)[self.seat]
            for habitat in HABITATS
        }
        self.base_points = {h: habitat_points(sizes, self.options) for h, sizes in self.sizes.items()}
        self._cells = _cells_by_species(self.wildlife)
        self._everything = frozenset(self.wildlife.items())
        self._hawks = len(self._cells["hawk"])
        self._group_of: dict[str, dict[Hex, frozenset[Hex]]] = {}
        self._group_points: dict[tuple[str, frozenset[Hex]], int] = {}
        self._group_sizes: dict[str, tuple[int, ...]] = {}
        """Per species whose groups were found, their sizes sorted."""
        self._sized_now: dict[tuple[str, str], int] = {}
        """Per card that reads only group sizes, ``(species, card)``, its points now."""
        self._fox_points: dict[tuple[str, Hex], int] = {}
        self._plans = [_card_plan(tuple(cards.items()), self.options) for cards in self.card_sets]
        self._token = (
            _per_species() if tokens is None else tokens.values(self.wildlife, self.card_sets, self.options)
        )
        self._changes = _per_species() if tokens is None else tokens.changes
        """Per token valued (one card set), its card changes (kept by ``tokens``)."""
        carried = None if tokens is None else tokens.points
        self._species_points: list[dict[str, int]] = (
            [carried]
            if carried is not None
            else [
                {s: self._card(s, cs[s], self._read(s, cs[s]), self.wildlife) for s in WILDLIFE}
                for cs in self.card_sets
            ]
        )
        if tokens is not None and len(self.card_sets) == 1:
            tokens.points = self._species_points[0]
        self._wildlife_totals = [sum(p.values()) for p in self._species_points]
        self._corridor: dict[tuple[str, int], int] = {}
        self._joining: dict[str, dict[int, int]] = {habitat: {} for habitat in HABITATS}
        """Per habitat, the corridor value of a new tile joining the tiles whose numbers
        are the bits of a mask (:meth:`_corridor_value` of their corridors)."""
        self._bonus: dict[tuple[str, int], int] = {}
        self._tile: dict[tuple[str, ...], dict[Hex, tuple[int, int, Placement]]] = {}
        self._frontier = Frontier.of(self.environment)
        self._moves: dict[tuple[int, str], MoveValue] = {}
        self._best_tile: dict[tuple[str, ...], tuple[int, int, Placement]] = {}
        self._targets: dict[str, tuple[Hex | None, int]] = {}
        self._new_tile_tokens: dict[str, int] = {}

    def _card(self, species: str, card: str, tokens: frozenset, wildlife: Mapping[Hex, str]) -> int:
        return self.cards.points(species, card, tokens, wildlife, self.options)

    def _read(self, species: str, card: str, added: tuple[Hex, str] | None = None) -> frozenset:
        """The tokens ``species``' card reads (with ``added`` placed), as a cache key."""
        if reads_other_species(species, card):
            return self._everything if added is None else self._everything | {added}
        cells = self._cells[species]
        return cells if added is None or added[1] != species else cells | {added[0]}

    # -- the token part ------------------------------------------------------------

    def token_value(self, species: str, h: Hex, tile: int | None = None) -> int:
        """The change of the player's total when a ``species`` token goes on ``h``
        (every card it touches, the better card set, a keystone's nature token).
        ``tile`` is the tile at ``h`` when it is not on the board yet (the new tile)."""
        if tile is None:
            tile = self.environment.tiles[h][0]
        return self._token_base(species, h) + KEYSTONE[tile]

    def _token_base(self, species: str, h: Hex) -> int:
        """:meth:`token_value` without the keystone's nature token (a function of the
        board's tokens only)."""
        known = self._token[species]
        found = known.get(h)
        if found is None:
            if len(self._plans) == 1:
                changes = self._changes_under(self._plans[0], species, h)
                self._changes[species][h] = changes
                found = known[h] = sum(changes.values())
            else:
                changes = self.card_changes(species, h)
                totals = [
                    total + sum(change.values())
                    for total, change in zip(self._wildlife_totals, changes, strict=True)
                ]
                found = known[h] = max(totals) - max(self._wildlife_totals)
        return found

    def card_changes(self, species: str, h: Hex) -> list[dict[str, int]]:
        """Per card set, the change of each card that a ``species`` token on ``h`` can
        change (the cards it cannot touch are left out: they do not change)."""
        return [self._changes_under(plan, species, h) for plan in self._plans]

    def _changes_under(self, plan: CardPlan, species: str, h: Hex) -> dict[str, int]:
        """:meth:`card_changes` under one card set's ``plan``."""
        card, change, readers = plan[species]
        changes = {species: change(self, species, card, h, species)}
        for other, card, change in readers:
            if self._may_touch(other, h):
                changes[other] = change(self, other, card, h, species)
        return changes

    def species_points(self) -> dict[str, int]:
        """Each species' points now, under the card set that scores the player best."""
        return max(self._species_points, key=lambda points: sum(points.values()))

    # How a card changes when a ``species`` token goes on ``h`` (``scored`` is the card's
    # species), rescoring only what the token touches where the card allows it; which
    # one a card takes is :func:`card_change`'s choice.

    def _change_of_groups(self, scored: str, card: str, h: Hex, species: str) -> int:
        """A card that is a sum over the groups of its species (elk A-C and D with arcs,
        salmon A-C, the variant cards): the groups next to ``h``, before and after."""
        group_of = self._groups(species)
        touched = {group_of[n] for n in ADJACENT[h] if n in group_of}
        if not touched:  # a group of its own: it scores alike wherever it is
            return self._score_of(species, card, ALONE)
        before = 0
        for group in touched:
            before += self._group_score(species, card, group)
        return self._score_of(species, card, frozenset((h, *frozenset().union(*touched)))) - before

    def _change_of_sizes(self, scored: str, card: str, h: Hex, species: str) -> int:
        """A card that reads only the sizes of its groups (the bear cards, hawk A): the
        sizes, with the groups next to ``h`` joined into one."""
        group_of = self._groups(species)
        now = self._group_sizes[species]
        key = (species, card)
        before = self._sized_now.get(key)
        if before is None:
            before = self._sized_now[key] = self.cards.sized(species, card, now, self.wildlife, self.options)
        sizes = list(now)
        merged = 1
        for group in {group_of[n] for n in ADJACENT[h] if n in group_of}:
            sizes.remove(len(group))
            merged += len(group)
        sizes.append(merged)
        sizes.sort()
        after = self.cards.sized(species, card, tuple(sizes), self.wildlife, self.options, (h, species))
        return after - before

    def _change_of_foxes(self, scored: str, card: str, h: Hex, species: str) -> int:
        """Fox A-C, a sum over foxes of what each fox's neighbours give it: the foxes
        next to ``h`` (and the new fox)."""
        at = PER_FOX[card]
        raw = self.wildlife
        after = raw.copy()
        after[h] = species
        change = at(after, h) if species == "fox" else 0
        for n in ADJACENT[h]:
            if raw.get(n) == "fox":
                change += at(after, n) - self._fox_score(card, n)
        return change

    def _change_of_board(self, scored: str, card: str, h: Hex, species: str) -> int:
        """Any other card: the whole board, before and after."""
        read = self._read(scored, card, (h, species))
        after_points = self.cards.known(scored, card, read, self.options)
        if after_points is None:
            after_points = self._card(scored, card, read, {**self.wildlife, h: species})
        return after_points - self._points_now(scored, card)

    def _points_now(self, species: str, card: str) -> int:
        """``species``' points now under ``card`` (its card in one of the card sets)."""
        for cards, points in zip(self.card_sets, self._species_points, strict=True):
            if cards[species] == card:
                return points[species]
        raise ValueError(f"{species} {card} is in no card set")

    def _fox_score(self, card: str, fox: Hex) -> int:
        """What the fox on ``fox`` scores now under fox ``card`` (A-C), remembered for the turn."""
        key = (card, fox)
        found = self._fox_points.get(key)
        if found is None:
            found = self._fox_points[key] = PER_FOX[card](self.wildlife, fox)
        return found

    def _groups(self, species: str) -> dict[Hex, frozenset[Hex]]:
        """Per ``species`` token, the group it belongs to (RULES.md 5.2)."""
        found = self._group_of.get(species)
        if found is None:
            found = self._group_of[species] = {}
            groups = connected_groups(self._cells[species])
            for group in groups:
                cells = frozenset(group)
                for h in group:
                    found[h] = cells
            self._group_sizes[species] = tuple(sorted(len(group) for group in groups))
        return found

    def _group_score(self, species: str, card: str, group: frozenset[Hex]) -> int:
        """:meth:`_score_of` one group of the board, remembered for the turn."""
        key = (card, group)
        found = self._group_points.get(key)
        if found is None:
            found = self._group_points[key] = self._score_of(species, card, group)
        return found

    def _score_of(self, species: str, card: str, cells: frozenset[Hex]) -> int:
        """``species``' card scored on just the ``species`` tokens on ``cells``."""
        known = self.cards.known(species, card, cells, self.options)
        if known is None:
            known = self._card(species, card, cells, dict.fromkeys(cells, species))
        return known

    def _may_touch(self, species: str, h: Hex) -> bool:
        """Whether a token on ``h`` can change ``species``' card (one that reads other
        species): foxes and salmon read only their neighbours; hawk D any line."""
        if species == "hawk":
            return self._hawks >= 2
        return not self._cells[species].isdisjoint(NEIGHBOUR_SET[h])

    # -- the tile part -------------------------------------------------------------

    def _corridor_value(self, habitat: str, joined: int) -> int:
        """The change of corridor points and bonus when a new tile joins the corridors
        of ``habitat`` whose numbers are the bits of ``joined`` into one (a new corridor
        of 1 when none)."""
        key = (habitat, joined)
        found = self._corridor.get(key)
        if found is None:
            after = list(self.sizes[habitat])
            merged = 1
            while joined:
                low = joined & -joined
                size = self.corridors.corridor_size(habitat, low.bit_length() - 1)
                after.remove(size)
                merged += size
                joined ^= low
            after.append(merged)
            found = habitat_points(after, self.options) - self.base_points[habitat]
            largest = max(after)
            if largest != self.largest[self.seat][habitat]:
                found += self._bonus_change(habitat, largest)
            self._corridor[key] = found
        return found

    def _bonus_change(self, habitat: str, largest: int) -> int:
        """The change of the player's ``habitat`` bonus when its largest corridor there
        becomes ``largest`` (the other boards as they stand)."""
        key = (habitat, largest)
        found = self._bonus.get(key)
        if found is None:
            sizes = [p[habitat] for p in self.largest]
            sizes[self.seat] = largest
            found = habitat_bonus(sizes, self.options)[self.seat] - self.base_bonus[habitat]
            self._bonus[key] = found
        return found

    def placement_value(self, tile: int, h: Hex, rotation: int) -> tuple[int, int]:
        """The tile part of placing ``tile`` at ``h`` turned by ``rotation``, and the
        number of its edges that match a neighbour's."""
        edges = tile_edges(tile, rotation)
        joined = dict.fromkeys(TILES[tile].habitats, 0)
        matching = 0
        for i, habitat, label in self.corridors.touching(h):
            if edges[i] == habitat:
                joined[habitat] |= 1 << label
                matching += 1
        return sum(self._corridor_value(habitat, mask) for habitat, mask in joined.items()), matching

    def tile_values(self, tile: int) -> dict[Hex, tuple[int, int, Placement]]:
        """Per hex where ``tile`` may go, its first best rotation: (value, matching
        edges, placement). Tiles of the same habitats place alike, so they share it;
        at a hex where no neighbour shows one of the tile's habitats every rotation is
        alike and only the first is valued.

        A tile of habitats ``A, B`` turned by ``rho`` shows A on edges ``rho..rho+2`` and
        B on the other three (RULES.md 2, ``hexgrid.edges_of``); a keystone shows A on all
        six. So per hex, only the rotations that match different edges are valued
        (:func:`rotation_choices`)."""
        habitats = TILES[tile].habitats
        found = self._tile.get(habitats)
        if found is not None:
            return found
        found = self._tile[habitats] = {}
        apart = self._apart(habitats)
        corridor = self._corridor_value
        first = habitats[0]
        second = habitats[-1]
        keystone = len(habitats) == 1
        corridors_of = self.corridors.corridors_of
        firsts = self._joining[first]
        seconds = self._joining[second]
        near_edges = self._frontier.edges
        best: tuple[int, int, Placement] | None = None
        for h, legal in self.tile_placements[tile].items():
            near = near_edges.get(h, NO_NEAR)
            a = near.get(first)
            b = near.get(second)
            if a is None and b is None:
                entry = (apart, 0, (h, legal[0]))
            elif keystone:
                edges, tiles = a
                joined = 0
                for bit in tiles:
                    joined |= bit
                entry = (corridor(first, corridors_of(first, joined)), edges.bit_count(), (h, legal[0]))
            else:
                a_edges, a_tiles = a or NO_EDGES
                b_edges, b_tiles = b or NO_EDGES
                value_at, matching_at, rotation_at = UNVALUED, -1, legal[0]
                choices = rotation_choices(a_edges, b_edges, tuple(legal))
                for rotation, a_matched, b_matched, matching in choices:
                    joined = 0
                    for edge in a_matched:
                        joined |= a_tiles[edge]
                    value = firsts.get(joined)
                    if value is None:
                        value = firsts[joined] = corridor(first, corridors_of(first, joined))
                    joined = 0
                    for edge in b_matched:
                        joined |= b_tiles[edge]
                    other = seconds.get(joined)
                    if other is None:
                        other = seconds[joined] = corridor(second, corridors_of(second, joined))
                    value += other
                    if value > value_at or (value == value_at and matching > matching_at):
                        value_at, matching_at, rotation_at = value, matching, rotation
                entry = (value_at, matching_at, (h, rotation_at))
            found[h] = entry
            if best is None or entry[0] > best[0] or (entry[0] == best[0] and entry[1] > best[1]):
                best = entry
        if best is not None:
            self._best_tile[habitats] = best
        return found

    def _best_placement(self, tile: int) -> tuple[int, int, Placement]:
        """The first best placement of ``tile`` by (value, matching edges), found with
        :meth:`tile_values`."""
        habitats = TILES[tile].habitats
        found = self._best_tile.get(habitats)
        if found is None:
            self.tile_values(tile)
            found = self._best_tile.get(habitats)
            if found is None:
                raise ValueError(f"tile {tile} has no legal placement")
        return found

    def best_target(self, species: str) -> tuple[Hex | None, int]:
        """The first best target of a ``species`` token on the board and its value; a
        token of value 0 is placed rather than returned, one of negative value returned."""
        found = self._targets.get(species)
        if found is None:
            target, token = None, 0
            for h in self.environment.wildlife_targets(species):
                gain = self.token_value(species, h)
                if gain > token or (target is None and gain == token):
                    target, token = h, gain
            found = self._targets[species] = (target, token)
        return found

    def value_bound(self, tile: int, species: str) -> float:
        """At least :meth:`best_move`'s value for ``tile`` and a ``species`` token, found
        without valuing their pairings: the tile's best placement plus the token's best
        target among the board's tiles or, when it may go on the new tile, among the hexes
        where a tile may go (the new tile's, with its keystone's nature token)."""
        value, _, _ = self._best_placement(tile)
        _, token = self.best_target(species)
        if species in TILES[tile].wildlife and not self.options.no_token_on_new_tile:
            token = max(token, self._best_on_new_tile(species) + KEYSTONE[tile])
        return value + token

    def _best_on_new_tile(self, species: str) -> int:
        """The best :meth:`_token_base` of a ``species`` token among the open hexes (every
        hex where a tile may go, RULES.md 4.3)."""
        found = self._new_tile_tokens.get(species)
        if found is None:
            found = UNVALUED
            known = self._token[species]
            for h in self.environment.open_hexes():
                value = known.get(h)
                if value is None:
                    value = self._token_base(species, h)
                if value > found:
                    found = value
            self._new_tile_tokens[species] = found
        return found

    def _apart(self, habitats: tuple[str, ...]) -> int:
        """The tile part of a tile that touches none of its habitats: a new corridor of
        one tile per habitat."""
        return sum(self._corridor_value(habitat, 0) for habitat in habitats)

    # -- whole moves ---------------------------------------------------------------

    def best_move(self, tile: int, species: str) -> MoveValue:
        """The best placement of ``tile`` and of a ``species`` token (or its return)."""
        key = (tile, species)
        found = self._moves.get(key)
        if found is not None:
            return found
        tiles = self.tile_values(tile)
        value, matching, placement = self._best_placement(tile)
        target, token = self.best_target(species)
        value += token
        placed = target is not None
        if species in TILES[tile].wildlife and not self.options.no_token_on_new_tile:
            token_value = self.token_value
            for h, (tile_value, tile_matching, tile_placement) in tiles.items():
                total = tile_value + token_value(species, h, tile)
                if total > value or (total == value and (tile_matching, True) > (matching, placed)):
                    value, matching, placed = total, tile_matching, True
                    placement, target = tile_placement, h
        found = MoveValue(value, (matching, placed), placement, target)
        self._moves[key] = found
        return found


CardChange = Callable[[TurnValuation, str, str, Hex, str], int]
"""How a card changes when a token is placed: one of :class:`TurnValuation`'s
``_change_of_*`` methods, called with the valuation, the card's species, the card, the
token's hex and species."""
CardPlan = dict[str, tuple[str, CardChange, tuple[tuple[str, str, CardChange], ...]]]
"""Per species of a token placed: its own card and how it changes, and each card of
another species that reads it (with how it changes)."""


def card_change(species: str, card: str, options: GameOptions) -> CardChange:
    """How ``species``' card is rescored when a token is placed (the least that the card
    allows: see the ``_change_of_*`` methods of :class:`TurnValuation`)."""
    if sums_groups(species, card, options):
        return TurnValuation._change_of_groups
    if scores_group_sizes(species, card):
        return TurnValuation._change_of_sizes
    if species == "fox" and card in PER_FOX:
        return TurnValuation._change_of_foxes
    return TurnValuation._change_of_board


@cache
def _card_plan(cards: tuple[tuple[str, str], ...], options: GameOptions) -> CardPlan:
    """The :data:`CardPlan` of a card set (shared: not to be changed)."""
    card_of = dict(cards)
    readers = [
        (s, card_of[s], card_change(s, card_of[s], options))
        for s in WILDLIFE
        if reads_other_species(s, card_of[s])
    ]
    return {
        species: (
            card_of[species],
            card_change(species, card_of[species], options),
            tuple(reader for reader in readers if reader[0] != species),
        )
        for species in WILDLIFE
    }
