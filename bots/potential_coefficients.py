"""Coefficients of the position potential, one per term of
:data:`cascadia.bots.potential.NAMES` (generated: do not edit).

Fitted by ``python tests/benchmarks/fit_potential.py --games 600 --first-seed 100000
--write bots/potential_coefficients.py`` on 4-player greedy games, all A cards, no majority."""

COEFFICIENTS: tuple[float, ...] = (
    83.4233,  # turns
    -5.5189,  # turns_squared
    -0.5319,  # empty_tiles
    0.0092,  # nature_tokens
    0.2746,  # open_keystones
    0.1606,  # open_bear
    0.1801,  # open_elk
    0.2580,  # open_salmon
    0.0944,  # open_hawk
    0.1633,  # open_fox
    0.9992,  # bear_lone
    1.2426,  # bear_waiting
    -0.0000,  # bear_spoilt
    0.0407,  # elk_extensions
    -0.0034,  # elk_lines
    0.3988,  # salmon_run_ends
    -0.0000,  # salmon_spoilt
    0.8278,  # hawk_free_slots
    0.0155,  # fox_best_slot
    0.2163,  # fox_slots_rich
    -0.0265,  # largest_mountain
    -0.0021,  # largest_forest
    -0.0312,  # largest_prairie
    -0.0704,  # largest_wetland
    -0.0306,  # largest_river
    0.1072,  # frontier_mountain
    0.0950,  # frontier_forest
    -0.0118,  # frontier_prairie
    0.0353,  # frontier_wetland
    0.0173,  # frontier_river
    -0.1150,  # open_edges_mountain
    -0.1002,  # open_edges_forest
    -0.1091,  # open_edges_prairie
    -0.1169,  # open_edges_wetland
    -0.0844,  # open_edges_river
    0.1851,  # open_hexes
    0.8736,  # empty_tiles*turns
    -0.1620,  # nature_tokens*turns
    0.1520,  # open_keystones*turns
    -0.3832,  # open_bear*turns
    0.0026,  # open_elk*turns
    -0.2512,  # open_salmon*turns
    -0.6861,  # open_hawk*turns
    0.1047,  # open_fox*turns
    -0.0109,  # bear_lone*turns
    -0.9372,  # bear_waiting*turns
    -0.0000,  # bear_spoilt*turns
    -0.1125,  # elk_extensions*turns
    -0.4651,  # elk_lines*turns
    0.1342,  # salmon_run_ends*turns
    0.0000,  # salmon_spoilt*turns
    -0.2161,  # hawk_free_slots*turns
    0.2047,  # fox_best_slot*turns
    0.1982,  # fox_slots_rich*turns
    -0.0256,  # largest_mountain*turns
    -0.0328,  # largest_forest*turns
    -0.0508,  # largest_prairie*turns
    0.1653,  # largest_wetland*turns
    -0.0932,  # largest_river*turns
    0.1441,  # frontier_mountain*turns
    0.1709,  # frontier_forest*turns
    0.3374,  # frontier_prairie*turns
    0.3673,  # frontier_wetland*turns
    0.2607,  # frontier_river*turns
    -0.1734,  # open_edges_mountain*turns
    -0.0782,  # open_edges_forest*turns
    -0.0992,  # open_edges_prairie*turns
    -0.1973,  # open_edges_wetland*turns
    -0.2359,  # open_edges_river*turns
    0.1994,  # open_hexes*turns
)
