//! The endgame tables' value byte holds distances up to 127 plies
//! (`solve::tables::value::MAX_DISTANCE`): the generator must refuse a unit
//! whose distances go beyond, loudly, never wrap or clamp one. A toy game
//! of one signature, a chain of `N` nodes: node 0 ends the game with a win
//! for the side to move, node i moves to node i-1 only, so node i is
//! decided at distance i+1.

use koma::core::endgame::Layered;
use koma::core::{
    Color, End, EndReason, Game, MoveList, MoveSink, MoveText, NoRules, PositionError, PositionText,
};
use koma::solve::tables::job::{JobSettings, run_job};
use koma::solve::tables::unit::Checkpoints;
use koma::solve::tables::{Dtz, Tables};
use std::path::{Path, PathBuf};

const END: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Chain<const N: u32> {
    node: u32,
    side: Color,
    over: bool,
}

impl<const N: u32> Game for Chain<N> {
    type Move = u32;
    type Rules = NoRules;
    type MoveList = MoveList<u32, 2>;
    const NAME: &'static str = "chain";
    const FILES: u8 = 1;
    const RANKS: u8 = 1;

    fn start(_: &NoRules) -> Self {
        Chain {
            node: N - 1,
            side: Color::First,
            over: false,
        }
    }

    fn from_text(_: &PositionText, _: &NoRules) -> Result<Self, PositionError> {
        Err(PositionError::Unreachable("the chain has no text".into()))
    }

    fn to_text(&self) -> PositionText {
        PositionText {
            ranks: vec![vec![None]],
            hand: None,
            side: self.side,
            counters: vec![self.node],
        }
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate<S: MoveSink<u32>>(&self, out: &mut S) {
        if !self.over {
            out.push(if self.node == 0 { END } else { self.node - 1 });
        }
    }

    fn play(&self, m: u32) -> Self {
        Chain {
            node: if m == END { self.node } else { m },
            side: self.side.opponent(),
            over: m == END,
        }
    }

    /// The side that ended the game (the one not to move) won.
    fn terminal(&self) -> Option<End> {
        (self.over).then(|| End::win(self.side.opponent(), EndReason::Game("chain end")))
    }

    fn repetition_limit(&self) -> Option<usize> {
        None
    }

    fn hash(&self) -> u64 {
        u64::from(self.node) << 2 | u64::from(self.over) << 1 | self.side.index() as u64
    }

    fn move_text(&self, _: u32) -> MoveText {
        MoveText::Pass
    }
}

impl<const N: u32> Layered for Chain<N> {
    type Sig = u8;

    fn signatures(_: u32) -> Vec<u8> {
        vec![0]
    }

    fn layer(_: u8) -> u32 {
        0
    }

    fn pieces(_: u8) -> u32 {
        1
    }

    fn swapped(sig: u8) -> u8 {
        sig
    }

    fn sig_syntax() -> &'static str {
        "0"
    }

    fn parse_sig(text: &str) -> Option<u8> {
        (text == "0").then_some(0)
    }

    fn entries(_: u8) -> u64 {
        u64::from(N)
    }

    fn unrank(_: u8, i: u64, _: &NoRules) -> Self {
        Chain {
            node: i as u32,
            side: Color::First,
            over: false,
        }
    }

    /// The moves do not depend on the side: both sides share the entries.
    fn locate(&self) -> Option<(u8, u64)> {
        (!self.over).then_some((0, u64::from(self.node)))
    }

    fn is_exit(&self, m: u32) -> bool {
        m == END
    }

    fn rules_tag(_: &NoRules) -> String {
        String::new()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tables-limit-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

fn solve<const N: u32>(root: &Path) -> Result<String, String> {
    let settings = JobSettings {
        root: root.to_path_buf(),
        max_pieces: 1,
        unit: None,
        checkpoints: Checkpoints {
            folder: root.join("checkpoints"),
            secs: u64::MAX,
            entries: u64::MAX,
            threads: 1,
            full_sweeps: false,
        },
    };
    run_job::<Chain<N>>(&NoRules, &settings, &mut |_| {}).map_err(|e| e.to_string())
}

#[test]
fn distances_up_to_126_plies_are_stored_exactly() {
    let root = temp_dir("126");
    solve::<126>(&root).expect("solved");
    let t = Tables::<Chain<126>>::open(&root, &NoRules);
    let at = |i| t.probe(&Chain::<126>::unrank(0, i, &NoRules));
    assert_eq!(at(0), Some(Dtz::Win(1)));
    assert_eq!(at(1), Some(Dtz::Loss(2)));
    assert_eq!(at(124), Some(Dtz::Win(125)));
    assert_eq!(at(125), Some(Dtz::Loss(126)));
}

#[test]
fn a_unit_with_distances_beyond_a_byte_is_refused_and_writes_no_table() {
    let (r127, r200) = (temp_dir("127"), temp_dir("200"));
    // 127 fits the byte, but the generator cannot tell it is the last
    // distance without a sweep 128: refused too, on the safe side.
    for (root, err) in [(&r127, solve::<127>(&r127)), (&r200, solve::<200>(&r200))] {
        let err = err.expect_err("refused");
        assert!(
            err.contains("distances beyond 127 plies do not fit a byte"),
            "{err}"
        );
        let t = Tables::<Chain<200>>::open(root, &NoRules);
        assert!(!t.has_file(0), "no table written in {}", root.display());
    }
}
