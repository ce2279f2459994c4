//! `docs/adding-a-game.md` lists what a game brings beside its code; this
//! checks that every registered game brings it, and says what is missing
//! in the page's own words: each demand's sentence is read from the page
//! (the test fails when the page loses it), so the two cannot drift apart.

use koma::games::{GameId, GameVisitor, Registered};
use std::path::{Path, PathBuf};

const PAGE: &str = "docs/adding-a-game.md";

/// What the checks read of a game.
struct Game {
    name: &'static str,
    suites: Vec<&'static str>,
    bench_positions: usize,
}

impl Game {
    fn of(g: GameId) -> Game {
        struct Read;
        impl GameVisitor for Read {
            type Output = Game;
            fn visit<G: Registered>(self) -> Game {
                Game {
                    name: G::NAME,
                    suites: G::ENTRY.suites.iter().map(|s| s.path).collect(),
                    bench_positions: G::BENCH.positions.len(),
                }
            }
        }
        g.visit(Read)
    }
}

/// One demand of the page: its sentence (`<game>` for the game's name)
/// and whether a game under the repository `root` meets it.
struct Demand {
    words: &'static str,
    met: fn(&Path, &Game) -> bool,
}

/// The fenced blocks that `tests/docs.rs` replays.
fn examples(page: &str) -> usize {
    page.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("```session") || l.starts_with("```console")
        })
        .count()
}

const DEMANDS: [Demand; 5] = [
    Demand {
        words: "A registered game has its folder `src/games/<game>/`.",
        met: |root, g| root.join("src/games").join(g.name).is_dir(),
    },
    Demand {
        words: "A registered game has its rules page `docs/rules/<game>.md`, with at least two \
                examples of moves that replay.",
        met: |root, g| {
            let page = root.join(format!("docs/rules/{}.md", g.name));
            std::fs::read_to_string(page).is_ok_and(|text| examples(&text) >= 2)
        },
    },
    Demand {
        words: "A registered game has perft figures in `tests/data/<game>.perft`.",
        met: |root, g| {
            let data = root.join(format!("tests/data/{}.perft", g.name));
            std::fs::read_to_string(data).is_ok_and(|t| t.lines().any(|l| l.starts_with("perft ")))
        },
    },
    Demand {
        words: "A registered game ships an opening suite under `suites/`.",
        met: |root, g| {
            !g.suites.is_empty()
                && (g.suites.iter()).all(|s| s.starts_with("suites/") && root.join(s).is_file())
        },
    },
    Demand {
        words: "A registered game has bench positions (`Searchable::BENCH`).",
        met: |_, g| g.bench_positions > 0,
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The page's text with its lines joined by single spaces, so a sentence
/// wrapped across lines reads as one.
fn page_text(root: &Path) -> String {
    let text = std::fs::read_to_string(root.join(PAGE)).unwrap_or_else(|e| panic!("{PAGE}: {e}"));
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What `game` lacks under `root`, each in the page's words.
fn missing(root: &Path, game: &Game) -> Vec<String> {
    (DEMANDS.iter())
        .filter(|d| !(d.met)(root, game))
        .map(|d| format!("{}: {}", game.name, d.words.replace("<game>", game.name)))
        .collect()
}

#[test]
fn the_page_says_each_demand_in_the_words_the_test_uses() {
    let page = page_text(&root());
    for d in &DEMANDS {
        assert!(
            page.contains(&format!("**{}**", d.words)),
            "{PAGE} no longer says (in bold): {}",
            d.words
        );
    }
}

#[test]
fn every_registered_game_brings_what_the_page_lists() {
    let root = root();
    let lacking: Vec<String> = (GameId::ALL.iter())
        .flat_map(|&g| missing(&root, &Game::of(g)))
        .collect();
    assert!(lacking.is_empty(), "see {PAGE}:\n{}", lacking.join("\n"));
}

/// A game with nothing beside its code is told each thing it lacks, with
/// the page's sentence.
#[test]
fn a_game_without_its_files_is_told_what_is_missing_in_the_pages_words() {
    let empty = std::env::temp_dir().join(format!("koma-adding-a-game-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("a temporary folder");
    let game = Game {
        name: "hexapawn",
        suites: Vec::new(),
        bench_positions: 0,
    };
    let told = missing(&empty, &game);
    assert_eq!(
        told,
        [
            "hexapawn: A registered game has its folder `src/games/hexapawn/`.",
            "hexapawn: A registered game has its rules page `docs/rules/hexapawn.md`, with at \
             least two examples of moves that replay.",
            "hexapawn: A registered game has perft figures in `tests/data/hexapawn.perft`.",
            "hexapawn: A registered game ships an opening suite under `suites/`.",
            "hexapawn: A registered game has bench positions (`Searchable::BENCH`).",
        ]
    );
    // A rules page with one example is not enough.
    let rules = empty.join("docs/rules");
    std::fs::create_dir_all(&rules).expect("a folder");
    let page = "# Hexapawn\n\n```session\n> d\n```\n";
    std::fs::write(rules.join("hexapawn.md"), page).expect("written");
    assert!(
        missing(&empty, &game)
            .iter()
            .any(|m| m.contains("rules page"))
    );
    std::fs::write(rules.join("hexapawn.md"), format!("{page}\n{page}")).expect("written");
    assert!(
        !missing(&empty, &game)
            .iter()
            .any(|m| m.contains("rules page"))
    );
    let _ = std::fs::remove_dir_all(&empty);
}
