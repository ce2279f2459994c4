//! The referee: engine processes, clocks, games, matches, statistics and
//! records. (Filled by the referee issue.)
