//! One game for Python: a `GameLine` (start, moves, repetition history)
//! with its rules, behind `AnyPosition`, one object-safe trait for the four
//! games, so the binding holds any of them in one type. Errors carry the
//! engine's words for the same mistake (`info string error: …` without
//! the prefix).

use crate::actions::{ActionSpace, MoveActions};
use crate::planes::{PlaneSpec, write_planes};
use koma::core::{
    Color, End, Game, GameLine, LineError, MAX_PERFT_DEPTH, OptionValue, ReplayError, Rules,
    read_rule_values, with_defaults,
};
use koma::engine::display;
use koma::engine::session::PositionRefused;
use koma::games::{GameEntry, GameId, GameVisitor, Registered};
use koma::protocol::{PositionLine, PositionStart, parse_move, parse_position};

/// Why a rules call was refused, in the engine's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// A move, position string or rule option that does not read.
    Parse(String),
    /// A move the rules do not allow here.
    Illegal(String),
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::Parse(s) | RulesError::Illegal(s) => f.write_str(s),
        }
    }
}

pub trait AnyPosition: Send + Sync {
    /// The game's registry entry (its name, size and encoding).
    fn entry(&self) -> &'static GameEntry;
    /// A position of the same game under rule options given as text, from
    /// its start or from a position string (see `new_position`).
    fn of_same_game(
        &self,
        rules: &[(String, String)],
        fen: Option<&str>,
    ) -> Result<Box<dyn AnyPosition>, RulesError>;
    /// Every rule option with its value, as the engine would be set.
    fn rules(&self) -> Vec<(&'static str, OptionValue)>;
    /// The legal moves as the protocol writes them; none once the game is
    /// over (repetition included).
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given as text; returns it as the protocol writes it.
    fn push(&mut self, mv: &str) -> Result<String, RulesError>;
    /// Takes the last move back; `None` at the start.
    fn pop(&mut self) -> Option<String>;
    fn outcome(&self) -> Option<End>;
    fn turn(&self) -> Color;
    /// The current position string.
    fn fen(&self) -> String;
    /// The position string the line started from.
    fn start_fen(&self) -> String;
    fn moves(&self) -> Vec<String>;
    fn plies(&self) -> usize;
    fn hash(&self) -> u64;
    /// How many times the current position has occurred in the game.
    fn repeats(&self) -> usize;
    /// Refused above `MAX_PERFT_DEPTH`: perft recurses once per ply, and
    /// a caller must not choose how deep the stack goes.
    fn perft(&self, depth: u32) -> Result<u64, RulesError>;
    /// The `d` command's board.
    fn diagram(&self) -> String;
    /// The `position` line of the game, to send to an engine.
    fn position_line(&self) -> String;
    /// The canonical text of the legal move written `mv`, if it is one.
    fn legal(&self, mv: &koma::core::MoveText) -> Option<String>;
    fn boxed_clone(&self) -> Box<dyn AnyPosition>;
    /// The legal moves as `ActionSpace::of(game.entry())` encodes their texts.
    fn legal_actions(&self) -> Vec<MoveActions>;
    /// The observation planes of the current position, with `pending`
    /// the movement action chosen first in a turn still to complete,
    /// appended to `out`.
    fn planes(&self, pending: Option<usize>, out: &mut Vec<f32>);
    /// For `line_of`: the concrete game behind the trait.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// The game line of `p` when it is a game of `G` (the endgame tables
/// probe one game's positions).
pub fn line_of<G: Game>(p: &dyn AnyPosition) -> Option<&GameLine<G>> {
    p.as_any().downcast_ref::<Line<G>>().map(|l| &l.line)
}

#[derive(Clone)]
struct Line<G: Game> {
    line: GameLine<G>,
    /// Every rule option with its value (what the rules were built from).
    values: Vec<(&'static str, OptionValue)>,
}

/// The engine's words for a refused move (`PositionRefused`).
fn replay_error(e: ReplayError) -> RulesError {
    RulesError::Illegal(PositionRefused::of(LineError::Move(e), None).to_string())
}

impl<G: Registered> Line<G> {
    fn moves_texts(&self) -> Vec<String> {
        let pos = self.line.current();
        let mut list = G::MoveList::default();
        if self.line.status().is_none() {
            pos.generate(&mut list);
        }
        list.iter().map(|&m| pos.move_text(m).to_string()).collect()
    }
}

impl<G: Registered> AnyPosition for Line<G> {
    fn entry(&self) -> &'static GameEntry {
        &G::ENTRY
    }

    fn of_same_game(
        &self,
        rules: &[(String, String)],
        fen: Option<&str>,
    ) -> Result<Box<dyn AnyPosition>, RulesError> {
        position_of::<G>(rules, fen)
    }

    fn rules(&self) -> Vec<(&'static str, OptionValue)> {
        self.values.clone()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.moves_texts()
    }

    fn push(&mut self, mv: &str) -> Result<String, RulesError> {
        let text = parse_move(mv.trim()).map_err(|e| RulesError::Parse(e.to_string()))?;
        self.line
            .play_text(&text)
            .map(|t| t.to_string())
            .map_err(replay_error)
    }

    fn pop(&mut self) -> Option<String> {
        let n = self.line.plies();
        let last = self.line.moves().last()?.to_string();
        self.line.undo_to(n - 1);
        Some(last)
    }

    fn outcome(&self) -> Option<End> {
        self.line.status()
    }

    fn turn(&self) -> Color {
        self.line.current().side_to_move()
    }

    fn fen(&self) -> String {
        self.line.current().to_text().to_string()
    }

    fn start_fen(&self) -> String {
        self.line.position(0).to_text().to_string()
    }

    fn moves(&self) -> Vec<String> {
        self.line.moves().iter().map(|m| m.to_string()).collect()
    }

    fn plies(&self) -> usize {
        self.line.plies()
    }

    fn hash(&self) -> u64 {
        self.line.current().hash()
    }

    fn repeats(&self) -> usize {
        self.line.history().occurrences_of_last()
    }

    fn perft(&self, depth: u32) -> Result<u64, RulesError> {
        if depth > MAX_PERFT_DEPTH {
            return Err(RulesError::Parse(format!(
                "expected a perft depth from 0 to {MAX_PERFT_DEPTH} at {depth}"
            )));
        }
        Ok(koma::core::perft(self.line.current(), depth))
    }

    fn diagram(&self) -> String {
        display::render(
            &self.line.current().to_text(),
            G::FILES,
            G::RANKS,
            self.line.status(),
        )
    }

    fn position_line(&self) -> String {
        let start = match self.line.start_text() {
            Some(t) => PositionStart::Fen(t.clone()),
            None => PositionStart::StartPos,
        };
        PositionLine::new(&start, self.line.moves())
            .as_str()
            .to_string()
    }

    fn legal(&self, mv: &koma::core::MoveText) -> Option<String> {
        if self.line.status().is_some() {
            return None;
        }
        let pos = self.line.current();
        pos.find_move(mv).map(|m| pos.move_text(m).to_string())
    }

    fn boxed_clone(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }

    fn legal_actions(&self) -> Vec<MoveActions> {
        let space = ActionSpace::of(&G::ENTRY);
        let pos = self.line.current();
        let mut list = G::MoveList::default();
        if self.line.status().is_none() {
            pos.generate(&mut list);
        }
        list.iter()
            .filter_map(|&m| space.encode(&pos.move_text(m)))
            .collect()
    }

    fn planes(&self, pending: Option<usize>, out: &mut Vec<f32>) {
        let spec = PlaneSpec::of(&G::ENTRY);
        let repeats = self.line.history().occurrences_of_last();
        let pending = pending.and_then(|a| ActionSpace::of(&G::ENTRY).step_text(a));
        write_planes(&spec, &self.line.current().to_text(), repeats, pending, out);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A position of `game` under rule options given as text (`NAME`,
/// `VALUE`), from its start or from a position string.
pub fn new_position(
    game: GameId,
    rules: &[(String, String)],
    fen: Option<&str>,
) -> Result<Box<dyn AnyPosition>, RulesError> {
    struct Make<'a>(&'a [(String, String)], Option<&'a str>);
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn AnyPosition>, RulesError>;
        fn visit<G: Registered>(self) -> Self::Output {
            position_of::<G>(self.0, self.1)
        }
    }
    game.visit(Make(rules, fen))
}

/// `new_position` for the game `G`, registered in Koma's list or not.
pub fn position_of<G: Registered>(
    rules: &[(String, String)],
    fen: Option<&str>,
) -> Result<Box<dyn AnyPosition>, RulesError> {
    let pairs = rules.iter().map(|(n, v)| (n.as_str(), v.as_str()));
    let values = read_rule_values(G::NAME, G::Rules::specs(), pairs)
        .map_err(|e| RulesError::Parse(e.to_string()))?;
    let start = match fen {
        None => None,
        Some(f) => Some(parse_position(f).map_err(|e| RulesError::Parse(e.to_string()))?),
    };
    let rules = G::Rules::from_values(&values).map_err(|e| RulesError::Parse(e.to_string()))?;
    let line = GameLine::<G>::from_start(start.as_ref(), &rules).map_err(|e| match e {
        LineError::Position { .. } => RulesError::Parse(format!(
            "{e} at {}",
            fen.unwrap_or("").trim().split(' ').next().unwrap_or("")
        )),
        LineError::Move(m) => replay_error(m),
    })?;
    Ok(Box::new(Line {
        line,
        values: with_defaults(G::Rules::specs(), &values),
    }))
}
