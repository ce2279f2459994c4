//! Scores: centipawns, with mates encoded near `MATE` as `MATE - plies`.

/// Score of a side that has already won (at the root).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1_000;

pub type Score = i32;

/// A win the endgame tables prove, less its distance to the next exit:
/// below every mate (the tables do not give the distance to the end),
/// above every evaluation.
pub const TABLE_WIN: Score = MATE_BOUND - 1_000;

pub fn is_mate(s: Score) -> bool {
    s.abs() > MATE_BOUND
}

/// A mate score as UCI's `mate N`: moves (not plies), negative when losing.
pub fn mate_moves(s: Score) -> Option<i32> {
    if !is_mate(s) {
        return None;
    }
    let plies = MATE - s.abs();
    let moves = (plies + 1) / 2;
    Some(if s > 0 { moves } else { -moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_with_sign() {
        assert_eq!(mate_moves(MATE - 1), Some(1), "winning move now");
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(
            mate_moves(-(MATE - 2)),
            Some(-1),
            "lost after our move and theirs"
        );
        assert_eq!(mate_moves(-MATE), Some(0), "already lost");
        assert_eq!(mate_moves(150), None);
    }
}
