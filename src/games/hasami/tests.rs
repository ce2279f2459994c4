//! Hasami Shogi rules, one test per clause of `docs/rules/hasami.md`,
//! each from a small position; perft from the start and against a naive
//! second implementation on random positions.

use super::*;
use crate::core::{Game, History, OptionValue, Rules, perft, status_with_history};
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};

fn rules() -> HasamiRules {
    HasamiRules::default()
}

fn with(name: &str, value: OptionValue) -> HasamiRules {
    let mut r = rules();
    r.set(name, &value).unwrap();
    r
}

/// A position from the squares of each side's men, e.g. `"a1 c1"`.
fn setup_with(first: &str, second: &str, side: Color, r: &HasamiRules) -> Hasami {
    let mut rows = vec![vec!['.'; 9]; 9];
    for (list, ch) in [(first, 'P'), (second, 'p')] {
        for sq in list.split_whitespace() {
            let b = sq.as_bytes();
            let (f, rank) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
            rows[8 - rank][f] = ch;
        }
    }
    let board: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for &c in row {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(c);
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect();
    let side = if side == Color::First { 'w' } else { 'b' };
    position(&format!("{} {side} 1", board.join("/")), r)
}

fn setup(first: &str, second: &str, side: Color) -> Hasami {
    setup_with(first, second, side, &rules())
}

/// Men far from the action on rank 5 so that neither side has lost five
/// (which would end the game under the default rule).
const FIRST_SPARE: &str = "a5 b5 c5 d5";
const SECOND_SPARE: &str = "f5 g5 h5 i5";

fn spare(first: &str, second: &str) -> (String, String) {
    (
        format!("{first} {FIRST_SPARE}"),
        format!("{second} {SECOND_SPARE}"),
    )
}

/// Men of one side as a sorted string, without the spares.
fn men_of(p: &Hasami, c: Color) -> String {
    let mut v: Vec<String> = board::squares(p.men(c))
        .map(|s| s.coord().to_string())
        .filter(|s| !FIRST_SPARE.contains(s.as_str()) && !SECOND_SPARE.contains(s.as_str()))
        .collect();
    v.sort();
    v.join(" ")
}

fn game(first: &str, second: &str) -> Hasami {
    let (f, s) = spare(first, second);
    setup(&f, &s, Color::First)
}

#[test]
fn start_position_has_nine_men_each_on_the_home_ranks() {
    let p = Hasami::start(&rules());
    assert_eq!(
        p.to_text().to_string(),
        "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1"
    );
    assert_eq!(p.side_to_move(), Color::First);
}

#[test]
fn perft_from_the_start_matches_the_spec() {
    let p = Hasami::start(&rules());
    assert_eq!(perft(&p, 1), 63);
    assert_eq!(perft(&p, 2), 3_717);
    assert_eq!(perft(&p, 3), 254_219);
}

#[test]
fn perft_hand_counted_lone_men() {
    // A lone man on an empty board reaches 8 squares along its rank and 8
    // along its file. After each of the first player's 16 moves the second
    // player's man on i9 has 16 moves, except after a1a9 and a1i1, which
    // block one square of its lines: 14 * 16 + 2 * 15 = 254. (Under `all`,
    // so that eight missing men do not already end the game.)
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("a1", "i9", Color::First, &r);
    assert_eq!(perft(&p, 1), 16);
    assert_eq!(perft(&p, 2), 254);
}

#[test]
fn perft_hand_counted_capture_ends_the_branch() {
    // First: a1, c1; second: b2 (under `all`). a1 goes up 8 (a2..a9) and
    // right 1 (b1): 9; c1 goes up 8, left 1 and right 6: 15. Total 24.
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("a1 c1", "b2", Color::First, &r);
    assert_eq!(perft(&p, 1), 24);
    // With a man on a2, c1c2 captures b2, the last enemy man: the game is
    // over, so that move has no children at depth 2.
    let p = setup_with("a2 c1", "b2", Color::First, &r);
    let q = crate::games::conformance::play(&p, "c1c2");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, EndReason::AllCaptured))
    );
    // So at depth 2 that move contributes nothing below it.
    let total: u64 = move_strings(&p)
        .iter()
        .map(|m| perft(&crate::games::conformance::play(&p, m), 1))
        .sum();
    assert_eq!(perft(&p, 2), total);
    assert_eq!(perft(&crate::games::conformance::play(&p, "c1c2"), 1), 0);
}

#[test]
fn a_man_slides_along_rank_and_file_but_never_jumps_or_moves_diagonally() {
    let p = game("e3 e7", "a9");
    let moves = move_strings(&p);
    for m in ["e3e6", "e3a3", "e3i3", "e3e1"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert!(!moves.contains(&"e3e7".to_string()), "onto a man");
    assert!(!moves.contains(&"e3e8".to_string()), "jumping");
    assert!(!moves.contains(&"e3f4".to_string()), "diagonal");
}

#[test]
fn a_single_sandwiched_man_is_captured() {
    let p = game("a1 g1", "c1");
    let q = play(&p, "g1d1");
    assert_eq!(
        men_of(&q, Color::Second),
        "c1",
        "the far end must touch the run"
    );
    let p = game("b1 g1", "c1");
    let q = play(&p, "g1d1");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 1);
}

#[test]
fn a_whole_closed_line_is_captured_at_once() {
    let p = game("a1 i1", "b1 c1 d1");
    let q = play(&p, "i1e1");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 3);
}

#[test]
fn with_lines_off_only_a_single_man_is_captured() {
    let r = with("HasamiLines", OptionValue::Check(false));
    let (f, s) = spare("a1 h1", "b1 c1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(
        men_of(&q, Color::Second),
        "b1 c1",
        "a longer line captures nothing"
    );
    let (f, s) = spare("a1 h1", "b1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "h1c1");
    assert_eq!(men_of(&q, Color::Second), "");
}

#[test]
fn captures_in_several_directions_resolve_together() {
    // Moving e1 to e3 closes e4 (with e5), d3 (with c3) and f3 (with g3).
    let p = game("c3 g3 e5 e1", "d3 f3 e4");
    let q = play(&p, "e1e3");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 3);
}

#[test]
fn the_board_edge_never_closes_a_sandwich() {
    let p = game("h1", "a1 b1");
    let q = play(&p, "h1c1");
    assert_eq!(men_of(&q, Color::Second), "a1 b1");
    let p = game("b9", "a9 a8");
    let q = play(&p, "b9b8");
    assert_eq!(
        men_of(&q, Color::Second),
        "a8 a9",
        "nor does a corner in a line"
    );
}

#[test]
fn moving_between_two_enemy_men_is_safe() {
    let p = game("e2", "d1 f1");
    let q = play(&p, "e2e1");
    assert_eq!(men_of(&q, Color::First), "e1");
}

#[test]
fn only_the_moved_man_captures() {
    // b1 already stands between two first-player men: moving another man
    // does not capture it.
    let p = game("a1 c1 i1", "b1");
    let q = play(&p, "i1i2");
    assert_eq!(men_of(&q, Color::Second), "b1");
}

#[test]
fn a_corner_man_is_captured_by_both_neighbours() {
    let p = game("a2 d1", "a1");
    let q = play(&p, "d1b1");
    assert_eq!(men_of(&q, Color::Second), "");
}

#[test]
fn a_corner_capture_needs_the_moved_man_as_one_neighbour() {
    let p = game("a2 b1 i1", "a1");
    let q = play(&p, "i1i2");
    assert_eq!(men_of(&q, Color::Second), "a1");
}

#[test]
fn with_corners_off_a_corner_man_is_safe() {
    let r = with("HasamiCorners", OptionValue::Check(false));
    let (f, s) = spare("a2 d1", "a1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "d1b1");
    assert_eq!(men_of(&q, Color::Second), "a1");
}

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'1')
}

#[test]
fn corner_captures_work_in_every_corner_for_both_sides() {
    // (corner, the neighbour already held, the move onto the other one)
    for (corner, held, mv) in [
        ("a1", "a2", "c1b1"),
        ("i1", "h1", "i3i2"),
        ("a9", "b9", "a7a8"),
        ("i9", "i8", "g9h9"),
    ] {
        for side in Color::BOTH {
            let mine = format!("{held} {}", &mv[..2]);
            let (f, s) = match side {
                Color::First => (mine, corner.to_string()),
                Color::Second => (corner.to_string(), mine),
            };
            let p = setup(
                &format!("{f} a5 b5 c5 d5"),
                &format!("{s} f5 g5 h5 i5"),
                side,
            );
            let q = play(&p, mv);
            assert_eq!(
                q.men(side.opponent()) & sq(corner).bit(),
                0,
                "{corner} for {side:?}"
            );
        }
    }
}

#[test]
fn five_captures_win_at_once() {
    // The first player has taken four (a9..d9 missing); taking a fifth wins.
    let p = setup("b1 h1 a5 b5 c5 d5 e5", "c1 e9 f9 g9 h9 i9", Color::First);
    assert_eq!(p.captured_by(Color::First), 3);
    let p = setup("b1 h1 a5 b5 c5 d5 e5", "c1 f9 g9 h9 i9", Color::First);
    assert_eq!(p.captured_by(Color::First), 4);
    assert_eq!(p.terminal(), None);
    let q = play(&p, "h1d1");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, EndReason::Captures))
    );
    assert_eq!(move_strings(&q), Vec::<String>::new());
}

#[test]
fn with_win_all_five_captures_do_not_end_the_game() {
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("b1 h1", "c1 f9 g9 h9 i9", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(q.terminal(), None);
    let p = setup_with("b1 h1", "c1", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, EndReason::AllCaptured))
    );
}

#[test]
fn with_lead3_the_lead_must_survive_the_reply() {
    let r = with("HasamiWin", OptionValue::Combo("lead3".into()));
    // Nine first-player men; the second player has lost one (eight left).
    // Taking b1 and c1 makes the lead three, checked at the first player's
    // next turn only.
    let first = "a1 h1 a5 b5 c5 d5 e5 e6 e7";
    let p = setup_with(first, "b1 c1 a9 b9 c9 d9 e9 f9", Color::First, &r);
    assert_eq!(p.captured_by(Color::First), 1);
    let q = play(&p, "h1d1");
    assert_eq!(q.captured_by(Color::First), 3);
    assert_eq!(q.terminal(), None, "the opponent may reply");
    let quiet = play(&q, "f9f8");
    assert_eq!(
        quiet.terminal(),
        Some(End::win(Color::First, EndReason::CaptureLead))
    );
    // A reply that captures back brings the lead under three: i9i2 takes h2
    // against g2.
    let first = "a1 h1 h2 a5 b5 c5 d5 e5 e6";
    let p = setup_with(first, "b1 c1 g2 i9 a9 b9 c9 d9", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(q.captured_by(Color::First), 3);
    let back = play(&q, "i9i2");
    assert_eq!(back.captured_by(Color::Second), 1);
    assert_eq!(back.terminal(), None);
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // The second player's only man, in a corner, is walled in (under
    // `all`, so that eight missing men do not already end the game).
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("b9 a8", "a9", Color::Second, &r);
    assert_eq!(
        crate::core::game_status(&p),
        Some(End::win(Color::First, EndReason::NoLegalMove))
    );
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw_counting_the_start() {
    let mut p = Hasami::start(&rules());
    let mut h = History::starting_at(&p);
    for (i, mv) in [
        "a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1", "a8a9",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(status_with_history(&p, &h), None, "before ply {i}");
        p = play(&p, mv);
        h.push(p.repetition_key());
    }
    assert_eq!(h.occurrences_of_last(), 3);
    assert_eq!(
        status_with_history(&p, &h),
        Some(End::new(Outcome::Draw, EndReason::Repetition))
    );
}

#[test]
fn after_300_plies_more_captures_win_and_equal_draws() {
    // Move 150 with the second player to move is ply 299.
    let p = pos("pppppppp1/9/9/9/9/9/9/9/PPPPPPPPP b 150");
    assert_eq!(p.ply(), 299);
    assert_eq!(crate::core::game_status(&p), None);
    let q = play(&p, "a9a8");
    assert_eq!(q.ply(), 300);
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::win(Color::First, EndReason::MoveLimit))
    );
    let p = pos("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 150");
    let q = play(&p, "a9a8");
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::new(Outcome::Draw, EndReason::MoveLimit))
    );
}

#[test]
fn a_result_on_the_300th_ply_takes_precedence() {
    // Ply 300 is the second player's capture of a fifth man.
    let p = pos("p3ppppp/9/9/9/9/9/9/9/1Pp2PPPP b 150");
    assert_eq!(p.captured_by(Color::Second), 4);
    let q = play(&p, "a9a1");
    assert_eq!(q.captured_by(Color::Second), 5);
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::win(Color::Second, EndReason::Captures))
    );
}

fn pos(s: &str) -> Hasami {
    position(s, &rules())
}

#[test]
fn position_strings_are_checked() {
    for bad in [
        "9/9/9/9/9/9/9/9/PPPPPPPPP",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 0",
        "9/9/9/9/9/9/9/9/PPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/9/PPPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPK w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPP+P w 1",
        "9/9/9/9/9/9/9/P8/PPPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPP[P] w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 1 2",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 4294967295",
    ] {
        let t = crate::protocol::parse_position(bad);
        let refused = match t {
            Err(_) => true,
            Ok(t) => Hasami::from_text(&t, &rules()).is_err(),
        };
        assert!(refused, "{bad} should be refused");
    }
    assert!(is_legal(&Hasami::start(&rules()), "a1a8"));
    assert!(!is_legal(&Hasami::start(&rules()), "a1a9"));
    assert!(!is_legal(&Hasami::start(&rules()), "a1a2+"));
}

/// Why `s` is refused under `r`.
fn refusal(s: &str, r: &HasamiRules) -> String {
    let t = crate::protocol::parse_position(s).unwrap();
    match Hasami::from_text(&t, r) {
        Err(e) => e.0,
        Ok(_) => panic!("{s} should be refused"),
    }
}

#[test]
fn the_side_that_just_moved_always_has_a_man_under_every_win_rule() {
    for win in ["five", "all", "lead3"] {
        let mut r = rules();
        r.set("HasamiWin", &OptionValue::Combo(win.into())).unwrap();
        for (s, who) in [
            ("9/9/9/9/9/9/9/9/9 w 1", "second player"),
            ("9/9/9/9/9/9/9/9/9 b 1", "first player"),
            ("9/9/9/9/9/9/9/9/PPPPPPPPP w 3", "second player"),
            ("ppppp4/9/9/9/9/9/9/9/9 b 3", "first player"),
        ] {
            let e = refusal(s, &r);
            assert!(
                e.contains(&format!("the {who} has no men, but made the last move")),
                "{win} {s}: {e}"
            );
        }
        // The side to move without men has lost: a position that arises.
        let p = position::<Hasami>("ppppp4/9/9/9/9/9/9/9/9 w 3", &r);
        assert!(crate::core::game_status(&p).is_some(), "{win}");
    }
    // Endgames with a man a side load under any rule (tests/data).
    pos("8p/9/9/9/9/9/9/9/P8 w 1");
}

#[test]
fn no_position_follows_the_300_ply_limit() {
    // Move 151 with the first player to move is ply 300: over, by the limit.
    let p = pos("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 151");
    assert_eq!(
        crate::core::game_status(&p).map(|e| e.reason),
        Some(EndReason::MoveLimit)
    );
    let e = refusal("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 151", &rules());
    assert!(e.contains("ply 301 is past the 300-ply limit"), "{e}");
    let e = refusal("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1000", &rules());
    assert!(e.contains("ply 1998 is past"), "{e}");
}

#[test]
fn conformance_random_playouts() {
    for (i, r) in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
        with("HasamiWin", OptionValue::Combo("lead3".into())),
    ]
    .iter()
    .enumerate()
    {
        random_playouts::<Hasami>(r, 20, 400, 7 + i as u64);
    }
}

/// A naive second implementation: a 9x9 array, every (from, to) pair tried,
/// captures found by walking the array. Each move's result must match.
mod naive {
    use super::*;

    pub type Grid = [[i8; 9]; 9]; // [rank][file]: 1 first, -1 second, 0 empty

    pub fn grid(p: &Hasami) -> Grid {
        let mut g = [[0; 9]; 9];
        for (c, v) in [(Color::First, 1), (Color::Second, -1)] {
            for sq in board::squares(p.men(c)) {
                g[sq.rank() as usize][sq.file() as usize] = v;
            }
        }
        g
    }

    /// (from, to, board after) for every legal move, as (rank, file).
    pub type Moves = Vec<((usize, usize), (usize, usize), Grid)>;

    pub fn moves(g: &Grid, me: i8, r: &HasamiRules) -> Moves {
        let mut out = Vec::new();
        for fr in 0..9 {
            for ff in 0..9 {
                if g[fr][ff] != me {
                    continue;
                }
                for tr in 0..9 {
                    for tf in 0..9 {
                        if (tr != fr) == (tf != ff) {
                            continue; // not on a line, or no move
                        }
                        let path_clear = (1..=fr.abs_diff(tr).max(ff.abs_diff(tf))).all(|k| {
                            let rr = if tr > fr {
                                fr + k
                            } else if tr < fr {
                                fr - k
                            } else {
                                fr
                            };
                            let f2 = if tf > ff {
                                ff + k
                            } else if tf < ff {
                                ff - k
                            } else {
                                ff
                            };
                            g[rr][f2] == 0
                        });
                        if path_clear {
                            let mut n = *g;
                            n[fr][ff] = 0;
                            n[tr][tf] = me;
                            capture(&mut n, tr, tf, me, r);
                            out.push(((fr, ff), (tr, tf), n));
                        }
                    }
                }
            }
        }
        out
    }

    fn capture(n: &mut Grid, r0: usize, f0: usize, me: i8, rules: &HasamiRules) {
        let mut taken = vec![];
        for (dr, df) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
            let mut run = vec![];
            let (mut r, mut f) = (r0 as i32 + dr, f0 as i32 + df);
            while (0..9).contains(&r) && (0..9).contains(&f) && n[r as usize][f as usize] == -me {
                run.push((r as usize, f as usize));
                r += dr;
                f += df;
            }
            let closed =
                (0..9).contains(&r) && (0..9).contains(&f) && n[r as usize][f as usize] == me;
            if closed && !run.is_empty() && (rules.lines || run.len() == 1) {
                taken.extend(run);
            }
        }
        if rules.corners {
            for (cr, cf) in [(0usize, 0usize), (0, 8), (8, 0), (8, 8)] {
                let a = (cr, if cf == 0 { 1 } else { 7 });
                let b = (if cr == 0 { 1 } else { 7 }, cf);
                if n[cr][cf] == -me
                    && n[a.0][a.1] == me
                    && n[b.0][b.1] == me
                    && ((r0, f0) == a || (r0, f0) == b)
                {
                    taken.push((cr, cf));
                }
            }
        }
        for (r, f) in taken {
            n[r][f] = 0;
        }
    }
}

#[test]
fn move_generation_and_captures_agree_with_a_naive_implementation() {
    let mut rng = Lcg(99);
    for (k, r) in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ]
    .iter()
    .enumerate()
    {
        for game in 0..30 {
            let mut p = Hasami::start(r);
            for _ply in 0..120 {
                if p.terminal().is_some() {
                    break;
                }
                let me = if p.side_to_move() == Color::First {
                    1
                } else {
                    -1
                };
                let expected = naive::moves(&naive::grid(&p), me, r);
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                assert_eq!(
                    moves.len(),
                    expected.len(),
                    "rules {k} game {game}: {}",
                    p.to_text()
                );
                for &((fr, ff), (tr, tf), after) in &expected {
                    let m = Move {
                        from: Square::new(ff as u8, fr as u8),
                        to: Square::new(tf as u8, tr as u8),
                    };
                    assert!(moves.contains(&m));
                    assert_eq!(naive::grid(&p.play(m)), after, "{:?} in {}", m, p.to_text());
                }
                check_position(&p, r);
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn tactical_moves_are_exactly_the_captures_in_generation_order() {
    let mut rng = Lcg(7);
    let mut seen = 0;
    for r in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ] {
        for _game in 0..30 {
            let mut p = Hasami::start(&r);
            for _ply in 0..200 {
                if p.terminal().is_some() {
                    break;
                }
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let them = p.side_to_move().opponent();
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.play(m).men(them) != p.men(them))
                    .collect();
                let flagged: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.is_tactical(m))
                    .collect();
                let mut tactical = <Hasami as Game>::MoveList::default();
                p.generate_tactical(&mut tactical);
                assert_eq!(captures, flagged, "{}", p.to_text());
                assert_eq!(&captures[..], &tactical[..], "{}", p.to_text());
                seen += captures.len();
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(seen > 100, "the playouts should meet captures: {seen}");
}

/// The evaluation's exposure against playing every move of the other side.
fn check_exposed(p: &Hasami) {
    let mut t = p.to_text();
    t.side = t.side.opponent();
    let Ok(q) = Hasami::from_text(&t, p.rules()) else {
        return;
    };
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut moves = <Hasami as Game>::MoveList::default();
    q.generate(&mut moves);
    let mut taken = 0;
    for &m in moves.iter() {
        taken |= p.men(us) & !q.play(m).men(us);
    }
    let empty = !(p.men(us) | p.men(them)) & board::FULL;
    let (reach, _) = eval::reach(p.men(them), empty);
    assert_eq!(
        eval::exposed(p, p.men(us), p.men(them), reach),
        taken,
        "{}",
        p.to_text()
    );
}

#[test]
fn the_evaluation_sees_every_man_a_move_could_capture() {
    let mut rng = Lcg(17);
    for r in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ] {
        for _game in 0..20 {
            let mut p = Hasami::start(&r);
            for _ply in 0..200 {
                if p.terminal().is_some() {
                    break;
                }
                check_exposed(&p);
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

/// Perft by the naive implementation: every move tried on the array, the
/// game over when a side has captured five (default rules).
fn naive_perft(g: &naive::Grid, me: i8, depth: u32, r: &HasamiRules) -> u64 {
    if depth == 0 {
        return 1;
    }
    let count = |v: i8| g.iter().flatten().filter(|&&x| x == v).count() as u32;
    if MEN - count(1) >= 5 || MEN - count(-1) >= 5 {
        return 0;
    }
    let moves = naive::moves(g, me, r);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, _, after)| naive_perft(after, -me, depth - 1, r))
        .sum()
}

#[test]
fn naive_perft_agrees_on_the_file_positions() {
    for fen in [
        "ppp1ppppp/9/3p5/9/9/4P4/9/9/PPPP1PPPP w 3",
        "p1pp1p1pp/1p7/4p4/6p2/2P6/9/3P1P3/1P7/P1P1P2PP b 6",
        "2p2pp1p/p8/3p5/1P5p1/4p4/2P3P2/5P3/P8/1P1P3PP w 12",
    ] {
        let p = pos(fen);
        let me = if p.side_to_move() == Color::First {
            1
        } else {
            -1
        };
        for d in 1..=3 {
            assert_eq!(
                naive_perft(&naive::grid(&p), me, d, &rules()),
                perft(&p, d),
                "{fen} depth {d}"
            );
        }
    }
}
