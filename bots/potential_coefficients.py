"""Coefficients of the position potential, one per term of
:data:`cascadia.bots.potential.NAMES` (generated: do not edit).

Fitted by ``python tests/benchmarks/fit_potential.py --policy greedy --games 600
--first-seed 100000 --write bots/potential_coefficients.py`` on 4-player games of the
greedy policy, all A cards, no majority bonuses."""

COEFFICIENTS: tuple[float, ...] = (
    84.5877,  # turns
    -7.1927,  # turns_squared
    -0.4713,  # empty_tiles
    0.0049,  # nature_tokens
    0.2095,  # open_keystones
    0.2011,  # open_bear
    0.0129,  # open_elk
    0.0956,  # open_salmon
    0.0950,  # open_hawk
    0.4944,  # open_fox
    1.0196,  # bear_lone
    -0.6831,  # bear_waiting
    0.0032,  # elk_extensions
    -0.0179,  # elk_lines
    0.0854,  # salmon_run_ends
    0.4085,  # hawk_free_slots
    -0.3955,  # fox_best_slot
    0.2447,  # fox_slots_rich
    -0.0388,  # largest_mountain
    -0.0110,  # largest_forest
    -0.0404,  # largest_prairie
    -0.0620,  # largest_wetland
    -0.0324,  # largest_river
    0.1120,  # frontier_mountain
    0.0857,  # frontier_forest
    0.0194,  # frontier_prairie
    0.0212,  # frontier_wetland
    0.0141,  # frontier_river
    -0.0572,  # open_edges_mountain
    -0.0448,  # open_edges_forest
    -0.0546,  # open_edges_prairie
    -0.0633,  # open_edges_wetland
    -0.0298,  # open_edges_river
    0.0803,  # open_hexes
    0.4648,  # best_gain_bear
    0.1268,  # best_gain_elk
    0.1890,  # best_gain_salmon
    -0.0383,  # best_gain_hawk
    0.3913,  # best_gain_fox
    -0.3313,  # gaining_slots_bear
    0.0129,  # gaining_slots_elk
    0.0134,  # gaining_slots_salmon
    0.4085,  # gaining_slots_hawk
    -0.3483,  # gaining_slots_fox
    0.8678,  # empty_tiles*turns
    -0.1927,  # nature_tokens*turns
    -0.0457,  # open_keystones*turns
    -0.4641,  # open_bear*turns
    -0.0283,  # open_elk*turns
    -0.8262,  # open_salmon*turns
    -0.6241,  # open_hawk*turns
    -0.3214,  # open_fox*turns
    0.1089,  # bear_lone*turns
    -1.1343,  # bear_waiting*turns
    -0.1912,  # elk_extensions*turns
    -0.4017,  # elk_lines*turns
    0.4195,  # salmon_run_ends*turns
    -0.3115,  # hawk_free_slots*turns
    -0.3045,  # fox_best_slot*turns
    0.2370,  # fox_slots_rich*turns
    -0.0665,  # largest_mountain*turns
    -0.1041,  # largest_forest*turns
    -0.1068,  # largest_prairie*turns
    0.0765,  # largest_wetland*turns
    -0.1201,  # largest_river*turns
    0.1572,  # frontier_mountain*turns
    0.1958,  # frontier_forest*turns
    0.2350,  # frontier_prairie*turns
    0.4070,  # frontier_wetland*turns
    0.2924,  # frontier_river*turns
    -0.2725,  # open_edges_mountain*turns
    -0.1813,  # open_edges_forest*turns
    -0.1931,  # open_edges_prairie*turns
    -0.2887,  # open_edges_wetland*turns
    -0.3343,  # open_edges_river*turns
    0.3755,  # open_hexes*turns
    0.1517,  # best_gain_bear*turns
    0.1161,  # best_gain_elk*turns
    -0.0958,  # best_gain_salmon*turns
    0.3343,  # best_gain_hawk*turns
    0.4005,  # best_gain_fox*turns
    0.1864,  # gaining_slots_bear*turns
    -0.0283,  # gaining_slots_elk*turns
    0.6955,  # gaining_slots_salmon*turns
    -0.3115,  # gaining_slots_hawk*turns
    0.5179,  # gaining_slots_fox*turns
)
