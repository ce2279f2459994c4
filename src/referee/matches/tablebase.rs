//! `--tb DIR`: the endgame tables as a referee. A game's position that the
//! tables hold (within `-tbpieces`) ends it with their result when
//! `-tbadjudicate` allows. The match is generic over its game; the game's
//! tables are reached through its entry (`Registered::visit_layered`), and
//! the judge built for that type is handed back by its type.

use crate::core::endgame::Layered;
use crate::core::{Game, Outcome, Searchable};
use crate::games::{LayeredVisitor, Registered};
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
    pub fn open(dir: &Path, rules: &G::Rules, rule: TbRule) -> Option<Judge<G>>
    where
        G: Registered,
    {
        struct Open<'a> {
            dir: &'a Path,
            rules: &'a dyn Any,
            rule: TbRule,
        }
        impl LayeredVisitor for Open<'_> {
            type Output = Option<Box<dyn Any>>;
            fn visit<L: Searchable + Layered>(self) -> Self::Output {
                let rules = self.rules.downcast_ref::<L::Rules>()?;
                let tables = Tables::<L>::open(self.dir, rules);
                let warned = AtomicBool::new(false);
                let rule = self.rule;
                let judge = Judge::<L> {
                    call: Box::new(move |pos: &L| call(&tables, rule, pos, &warned)),
                };
                Some(Box::new(judge))
            }
        }
        let open = Open {
            dir,
            rules: rules as &dyn Any,
            rule,
        };
        let judge = G::visit_layered(open)??;
        judge.downcast::<Judge<G>>().ok().map(|j| *j)
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
