"""Fitting the card potential (:mod:`cascadia.bots.card_potential`) by least squares.

A sample is one player's position after one of their turns: its terms, block by block
(:func:`cascadia.bots.card_potential.terms`), and the target, the points the player
still scored after it (final total minus total then). Every block has its columns in one
design matrix (:class:`Layout`); the samples are summed into the normal equations
(:class:`NormalEquations`: X'X, X'y, y'y and the count), which add up across shards and
processes in a fixed order, so the fit does not depend on how the work was split. The
solution is ridge-regularised a little (:data:`RIDGE`), so that a block no sample
reached gets zero coefficients instead of an arbitrary value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from cascadia.bots.card_potential import CARDS, SCORING, Block, shared_names, species_names
from cascadia.domain.components import WILDLIFE

RIDGE = 1.0
"""The ridge penalty added to the diagonal of X'X (features count hexes and points:
with tens of thousands of samples it shifts a fitted coefficient by well under 0.01)."""

DECIMALS = 4
"""The coefficients are written rounded to this many decimals."""


@dataclass(frozen=True)
class Layout:
    """Where each block's columns are in the design matrix: the shared blocks
    (:data:`~cascadia.bots.card_potential.SCORING`), then per species each card's."""

    blocks: tuple[Block, ...] = (
        *(("shared", scoring) for scoring in SCORING),
        *((species, card) for species in WILDLIFE for card in CARDS),
    )

    def names(self, key: Block) -> tuple[str, ...]:
        kind, which = key
        return shared_names(which) if kind == "shared" else species_names(kind)

    @cached_property
    def offsets(self) -> dict[Block, int]:
        offsets: dict[Block, int] = {}
        at = 0
        for key in self.blocks:
            offsets[key] = at
            at += len(self.names(key))
        return offsets

    @cached_property
    def width(self) -> int:
        return sum(len(self.names(key)) for key in self.blocks)

    def row(self, terms: dict[Block, list[float]]) -> np.ndarray:
        """One sample's row of the design matrix."""
        row = np.zeros(self.width)
        offsets = self.offsets
        for key, values in terms.items():
            row[offsets[key] : offsets[key] + len(values)] = values
        return row

    def split(self, solution: np.ndarray) -> dict[Block, tuple[float, ...]]:
        """A solution vector cut into its blocks' coefficients."""
        offsets = self.offsets
        return {
            key: tuple(float(c) for c in solution[offsets[key] : offsets[key] + len(self.names(key))])
            for key in self.blocks
        }


@dataclass
class NormalEquations:
    """The sums a least-squares fit needs, for samples added in any number of parts."""

    width: int
    xtx: np.ndarray = field(init=False)
    xty: np.ndarray = field(init=False)
    yty: float = 0.0
    sum_y: float = 0.0
    count: int = 0

    def __post_init__(self) -> None:
        self.xtx = np.zeros((self.width, self.width))
        self.xty = np.zeros(self.width)

    def add_rows(self, rows: Sequence[np.ndarray], targets: Sequence[float]) -> None:
        """Add samples (their design rows and targets)."""
        if not rows:
            return
        x = np.vstack(rows)
        y = np.asarray(targets, dtype=float)
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.yty += float(y @ y)
        self.sum_y += float(y.sum())
        self.count += len(y)

    def add(self, other: NormalEquations) -> None:
        """Add another part's sums."""
        self.xtx += other.xtx
        self.xty += other.xty
        self.yty += other.yty
        self.sum_y += other.sum_y
        self.count += other.count

    def solve(self, ridge: float = RIDGE) -> np.ndarray:
        """The ridge least-squares coefficients."""
        return np.linalg.solve(self.xtx + ridge * np.eye(self.width), self.xty)

    def squared_error(self, solution: np.ndarray) -> float:
        """The sum of squared errors of ``solution`` on these samples (from the sums
        alone: y'y - 2 w'X'y + w'X'Xw)."""
        return float(self.yty - 2 * solution @ self.xty + solution @ self.xtx @ solution)

    def r_squared(self, solution: np.ndarray) -> float:
        """The share of the targets' variance that ``solution`` explains here."""
        total = self.yty - self.sum_y**2 / self.count
        return 1.0 - self.squared_error(solution) / total

    def rms_error(self, solution: np.ndarray) -> float:
        """The root mean squared error of ``solution`` on these samples, in points."""
        return (max(0.0, self.squared_error(solution)) / self.count) ** 0.5


def rounded(value: float) -> float:
    """``value`` at :data:`DECIMALS` decimals, without a negative zero."""
    return round(value, DECIMALS) + 0.0


def render(coefficients: dict[Block, tuple[float, ...]], layout: Layout, provenance: Iterable[str]) -> str:
    """The coefficients as the Python module :mod:`cascadia.bots.card_potential_coefficients`."""
    lines = [
        '"""Coefficients of the card potential (:mod:`cascadia.bots.card_potential`), block by',
        "block (generated by ``cascadia train``: do not edit).",
        "",
        *provenance,
        '"""',
        "",
        "SHARED: dict[str, tuple[float, ...]] = {",
    ]
    for scoring in SCORING:
        lines += _block(
            f'"{scoring}"', coefficients[("shared", scoring)], layout.names(("shared", scoring)), 1
        )
    lines += ["}", "", "SPECIES: dict[str, dict[str, tuple[float, ...]]] = {"]
    for species in WILDLIFE:
        lines.append(f'    "{species}": {{')
        for card in CARDS:
            key = (species, card)
            lines += _block(f'"{card}"', coefficients[key], layout.names(key), 2)
        lines.append("    },")
    lines += ["}", ""]
    return "\n".join(lines)


def _block(key: str, values: tuple[float, ...], names: tuple[str, ...], depth: int) -> list[str]:
    indent = "    " * depth
    return [
        f"{indent}{key}: (",
        *(f"{indent}    {rounded(v):.4f},  # {name}" for v, name in zip(values, names, strict=True)),
        f"{indent}),",
    ]
