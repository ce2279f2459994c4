//! The generator's promises: the same suite for a seed whatever the thread
//! count, no duplicate or mirror image, every kept score inside the window
//! (and found again by rescoring the written file), nothing finished or
//! decided kept; and the shipped suites load and hold good openings.

use super::Limit;
use super::check::check_suite;
use super::generate::{self, Config, Generated, Playout, Verdict, candidate, rules_of};
use crate::core::{Game, History, OptionValue, game_status, mirror, status_with_history};
use crate::games::GameId;
use crate::games::nana::Nana;
use crate::record::suite;
use std::collections::HashSet;
use std::time::Duration;

fn config(variant: GameId, positions: usize, depth: u32, window: (i32, i32)) -> Config {
    Config {
        variant,
        rules: vec![],
        name: "test".into(),
        positions,
        min_plies: 4,
        max_plies: 8,
        limit: Limit::Depth(depth),
        window,
        seed: 7,
        playout: Playout::Weighted { temperature: 30 },
        max_candidates: 50 * positions as u64,
        threads: 1,
    }
}

fn make(cfg: &Config) -> Generated {
    generate::generate(cfg, Duration::from_secs(3600), &mut |_| {}).unwrap()
}

fn text(cfg: &Config, g: &Generated) -> String {
    let lines: Vec<_> = g.openings.iter().map(|k| k.moves.clone()).collect();
    suite::write(&generate::header(cfg, g, "test build", None), &lines)
}

#[test]
fn the_same_seed_makes_the_same_suite_on_any_number_of_threads() {
    let mut cfg = config(GameId::from_name("kaninariebi").unwrap(), 25, 3, (-60, 60));
    let one = make(&cfg);
    assert!(one.complete);
    cfg.threads = 3;
    let three = make(&cfg);
    assert_eq!(text(&cfg, &one), text(&cfg, &three));
    assert_eq!(one.tally, three.tally);
    cfg.seed = 8;
    let other = make(&cfg);
    assert_ne!(text(&cfg, &one), text(&cfg, &other), "another seed");
}

#[test]
fn each_candidate_comes_from_the_seed_and_its_index_alone() {
    let cfg = config(GameId::from_name("hasami").unwrap(), 10, 2, (-50, 50));
    let rules = rules_of::<crate::games::hasami::Hasami>(&[]).unwrap();
    let t = generate::Tables::new();
    let a: Vec<Verdict> = (0..6)
        .map(|i| candidate::<crate::games::hasami::Hasami>(&cfg, &rules, i, &t))
        .collect();
    // In another order, with the tables already used.
    for i in (0..6).rev() {
        assert_eq!(
            candidate::<crate::games::hasami::Hasami>(&cfg, &rules, i, &t),
            a[i as usize]
        );
    }
}

#[test]
fn kept_scores_lie_in_the_window_and_rescoring_the_file_finds_them() {
    for variant in [
        GameId::from_name("hasami").unwrap(),
        GameId::from_name("negaeri").unwrap(),
    ] {
        let cfg = config(variant, 20, 2, (-20, 35));
        let g = make(&cfg);
        assert!(g.complete, "{variant}");
        assert!(
            g.tally.outside > 0,
            "{variant}: the window rejected nothing"
        );
        for k in &g.openings {
            assert!((-20..=35).contains(&k.score), "{variant}: {k:?}");
        }
        let parsed = suite::parse(&text(&cfg, &g)).unwrap();
        let checked = check_suite(&parsed, Some(cfg.limit), 2).unwrap();
        assert!(checked.problems.is_empty(), "{:?}", checked.problems);
        let kept: Vec<i32> = g.openings.iter().map(|k| k.score).collect();
        assert_eq!(checked.scores, kept, "{variant}");
    }
}

#[test]
fn a_slight_edge_window_keeps_only_that_edge() {
    let cfg = config(GameId::from_name("kaninariebi").unwrap(), 10, 3, (30, 90));
    let g = make(&cfg);
    assert!(g.openings.iter().all(|k| (30..=90).contains(&k.score)));
    assert!(g.tally.outside > 0);
}

/// Every position two plies into Nana (both Kings placed), up to mirror
/// images, found independently of the generator's key.
fn nana_two_ply_classes() -> usize {
    let start = Nana::start(&Default::default());
    let mut classes = HashSet::new();
    let mut a = <Nana as Game>::MoveList::default();
    start.generate(&mut a);
    for &m in a.iter() {
        let p = start.play(m);
        let mut b = <Nana as Game>::MoveList::default();
        p.generate(&mut b);
        for &n in b.iter() {
            let q = p.play(n);
            assert!(game_status(&q).is_none());
            let own = q.to_text().to_string();
            let other = mirror(&q, &Default::default())
                .unwrap()
                .to_text()
                .to_string();
            classes.insert(own.min(other));
        }
    }
    classes.len()
}

#[test]
fn duplicates_and_mirror_images_are_kept_once() {
    let classes = nana_two_ply_classes();
    let mut cfg = config(
        GameId::from_name("nana").unwrap(),
        1000,
        1,
        (-10_000, 10_000),
    );
    cfg.min_plies = 2;
    cfg.max_plies = 2;
    cfg.playout = Playout::Random;
    cfg.max_candidates = 1000;
    let g = make(&cfg);
    assert!(!g.complete);
    assert_eq!(g.openings.len(), classes, "every class once");
    assert_eq!(g.tally.kept as usize + g.tally.duplicates as usize, 1000);
    // No kept opening is the mirror image of another.
    let rules = Default::default();
    let mut texts = HashSet::new();
    for k in &g.openings {
        let (p, _) = reach(&k.moves);
        assert!(texts.insert(p.to_text().to_string()), "kept twice");
    }
    for k in &g.openings {
        let (p, _) = reach(&k.moves);
        let m = mirror(&p, &rules).unwrap().to_text().to_string();
        if m != p.to_text().to_string() {
            assert!(!texts.contains(&m), "{m} kept with its mirror image");
        }
    }
}

#[test]
fn listing_every_position_finds_each_class_once() {
    let classes = nana_two_ply_classes();
    let mut cfg = config(
        GameId::from_name("nana").unwrap(),
        1000,
        1,
        (-10_000, 10_000),
    );
    cfg.min_plies = 2;
    cfg.max_plies = 2;
    cfg.playout = Playout::All;
    let g = make(&cfg);
    assert_eq!(g.tally.candidates as usize, classes);
    assert_eq!(g.openings.len(), classes);
    assert_eq!(g.tally.duplicates, 0);
    cfg.max_candidates = 5;
    assert!(generate::generate(&cfg, Duration::from_secs(60), &mut |_| {}).is_err());
}

fn reach(moves: &[crate::core::MoveText]) -> (Nana, History) {
    let line = crate::core::GameLine::<Nana>::from_text(None, moves, &Default::default()).unwrap();
    (line.current().clone(), line.history().clone())
}

#[test]
fn positions_decided_by_the_search_or_finished_are_dropped() {
    // Nana a few plies in is often lost for one side within the horizon.
    let mut cfg = config(GameId::from_name("nana").unwrap(), 30, 6, (-10_000, 10_000));
    cfg.min_plies = 6;
    cfg.max_plies = 10;
    let g = make(&cfg);
    assert!(g.tally.decided > 0, "{:?}", g.tally);
    for k in &g.openings {
        let (p, h) = reach(&k.moves);
        assert!(status_with_history(&p, &h).is_none());
        assert!(!crate::search::is_mate(k.score));
    }
}

#[test]
fn the_command_in_the_header_names_every_setting() {
    let mut cfg = config(GameId::from_name("hasami").unwrap(), 5, 2, (-40, 40));
    cfg.rules = vec![("HasamiWin", OptionValue::Combo("lead3".into()))];
    assert_eq!(
        cfg.command(),
        "koma openings --variant hasami --rule HasamiWin=lead3 --name test --positions 5 \
         --plies 4-8 --depth 2 --window=-40,40 --seed 7 --playout weighted --temperature 30 \
         --max-candidates 250"
    );
    let g = make(&cfg);
    let parsed = suite::parse(&text(&cfg, &g)).unwrap();
    assert_eq!(parsed.header.field("command"), Some(cfg.command().as_str()));
    assert_eq!(parsed.header.field("build"), Some("test build"));
    assert!(
        parsed
            .header
            .rules
            .contains(&("HasamiWin".to_string(), "lead3".to_string()))
    );
    for bad in [
        Config {
            min_plies: 9,
            ..cfg.clone()
        },
        Config {
            window: (5, -5),
            ..cfg.clone()
        },
        Config {
            positions: 0,
            ..cfg.clone()
        },
        Config {
            limit: Limit::Nodes(0),
            ..cfg.clone()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
}
