//! Which thread's answer a Lazy SMP search plays. Every thread searched the
//! same root through the shared table; a helper often finishes an iteration
//! deeper than the main thread, and its move is then the better informed.
//! Threads vote for their moves, weighted by depth and by score.

use super::SearchResult;
use super::score::{Score, is_mate};

/// Added to every vote's score margin so that the lowest-scoring thread
/// still counts by its depth.
const VOTE_FLOOR: Score = 14;

/// The index of the answer to play among `answers` (the main thread's
/// first). Threads without a finished iteration do not vote. A proven win
/// is played before any vote, the quickest one first; an answer that sees
/// its own loss never outvotes another. Otherwise each thread adds
/// `(score - lowest + VOTE_FLOOR) * depth` to its move, and the thread with
/// the most-voted move wins (the earlier thread on a tie).
pub fn vote<M: Copy + PartialEq>(answers: &[SearchResult<M>]) -> usize {
    let voters = || {
        answers
            .iter()
            .enumerate()
            .filter(|(_, a)| a.depth > 0 && a.best.is_some())
    };
    let Some(lowest) = voters().map(|(_, a)| a.score).min() else {
        return 0;
    };
    let weight =
        |a: &SearchResult<M>| i64::from(a.score - lowest + VOTE_FLOOR).max(1) * i64::from(a.depth);
    let votes = |mv: Option<M>| -> i64 {
        voters()
            .filter(|(_, a)| a.best == mv)
            .map(|(_, a)| weight(a))
            .sum()
    };
    let wins = |a: &SearchResult<M>| is_mate(a.score) && a.score > 0;
    let loses = |a: &SearchResult<M>| is_mate(a.score) && a.score < 0;
    let mut best = 0;
    for (i, a) in voters() {
        let b = &answers[best];
        if b.depth == 0 {
            best = i;
            continue;
        }
        let better = if wins(b) {
            a.score > b.score
        } else {
            wins(a) || (!loses(a) && votes(a.best) > votes(b.best))
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    fn answer(mv: u8, score: Score, depth: u32) -> SearchResult<u8> {
        SearchResult {
            best: Some(mv),
            score,
            depth,
            nodes: 0,
            pv: vec![mv],
        }
    }

    #[test]
    fn threads_that_agree_keep_the_main_threads_answer() {
        let a = [answer(1, 10, 20), answer(1, 12, 21)];
        assert_eq!(vote(&a), 0);
    }

    #[test]
    fn a_deeper_helper_with_an_equal_score_outvotes_the_main_thread() {
        let a = [answer(1, 0, 20), answer(2, 0, 21)];
        assert_eq!(vote(&a), 1);
    }

    #[test]
    fn a_helper_as_deep_and_no_better_leaves_the_main_threads_answer() {
        assert_eq!(vote(&[answer(1, 5, 20), answer(2, 5, 20)]), 0);
        assert_eq!(vote(&[answer(1, 5, 20), answer(2, 0, 21)]), 0);
    }

    #[test]
    fn a_helper_that_sees_its_own_loss_never_outvotes() {
        // By weight alone the helper's longer resistance would win.
        let a = [answer(1, -(MATE - 20), 10), answer(2, -(MATE - 30), 30)];
        assert_eq!(vote(&a), 0);
    }

    #[test]
    fn a_proven_win_is_played_and_the_quickest_one_first() {
        let a = [answer(1, 300, 25), answer(2, MATE - 11, 12)];
        assert_eq!(vote(&a), 1);
        let a = [answer(1, MATE - 11, 12), answer(2, MATE - 7, 10)];
        assert_eq!(vote(&a), 1);
        let a = [answer(1, MATE - 7, 12), answer(2, 900, 30)];
        assert_eq!(vote(&a), 0);
    }

    #[test]
    fn two_helpers_for_one_move_outvote_a_lone_main_thread() {
        let a = [answer(1, 0, 20), answer(2, 0, 20), answer(2, 0, 19)];
        assert_eq!(vote(&a), 1);
    }

    #[test]
    fn a_thread_without_a_finished_iteration_does_not_vote() {
        let a = [answer(1, 0, 9), answer(2, 400, 0)];
        assert_eq!(vote(&a), 0);
        let a = [answer(1, 0, 0), answer(2, 0, 3)];
        assert_eq!(vote(&a), 1);
    }
}
