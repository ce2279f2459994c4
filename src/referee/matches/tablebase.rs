//! `--tb DIR`: the endgame tables as a referee. A game's position that the
//! tables hold (within `-tbpieces`) ends it with their result when
//! `-tbadjudicate` allows; only Kani Nari Ebi has tables, the match's game
//! is told apart by its type.

use crate::core::endgame::Layered;
use crate::core::{Game, Outcome};
use crate::games::kaninariebi::KaniNariEbi;
use crate::record::tables::TbRule;
use crate::solve::tables::Tables;
use std::any::Any;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// A position's result by the tables, or `None` to play on.
type Call<G> = dyn Fn(&G) -> Option<Outcome> + Send + Sync;

/// Calls a position's result, or `None` to play on.
pub struct Judge<G: Game> {
    call: Box<Call<G>>,
}

impl<G: Game> Judge<G> {
    /// The tables of `G` under `dir` and `rules`; `None` for a game
    /// without tables (the command line refused `--tb` for it already).
    pub fn open(dir: &Path, rules: &G::Rules, rule: TbRule) -> Option<Judge<G>> {
        let kani_rules = (rules as &dyn Any).downcast_ref::<<KaniNariEbi as Game>::Rules>()?;
        let tables = Tables::<KaniNariEbi>::open(dir, kani_rules);
        let warned = AtomicBool::new(false);
        Some(Judge {
            call: Box::new(move |pos: &G| {
                let pos = (pos as &dyn Any).downcast_ref::<KaniNariEbi>()?;
                call(&tables, rule, pos, &warned)
            }),
        })
    }

    pub fn call(&self, pos: &G) -> Option<Outcome> {
        (self.call)(pos)
    }
}

fn call<L: Layered>(
    tables: &Tables<L>,
    rule: TbRule,
    pos: &L,
    warned: &AtomicBool,
) -> Option<Outcome> {
    let (sig, _) = pos.locate()?;
    if rule.pieces.is_some_and(|n| L::pieces(sig) > n) || !tables.has_file(sig) {
        return None;
    }
    let v = match tables.lookup(pos) {
        Ok(v) => v?,
        Err(why) => {
            // A bad file is skipped (its error is kept), told once.
            if !warned.swap(true, Ordering::Relaxed) {
                log::warn!("{why}; its positions are played on");
            }
            return None;
        }
    };
    rule.call(L::pieces(sig), pos.side_to_move(), v)
}
