//! How Kani Nari Ebi shows itself on the board's page: names, help, the
//! River drawn as water with the words of the current's choice, and the
//! Crab's and Shrimp's drawings.

use crate::core::{
    Choice, Mark, MarkArt, MarkPlace, PathWords, PieceArt, PieceFacts, Presentation, PromotionWords,
};

pub const PRESENTATION: Presentation = Presentation {
    title: "Kani Nari Ebi",
    pieces: &[
        PieceFacts {
            letter: 'C',
            name: "Crab",
            moves: "slides any distance along its rank",
            art: PieceArt::Claws,
        },
        PieceFacts {
            letter: 'S',
            name: "Shrimp",
            moves: "steps one square diagonally",
            art: PieceArt::Curl,
        },
    ],
    promoted: &[],
    hand: &[],
    help: &[
        "Click one of your pieces, then a marked square. Crabs slide left and right along their rank; Shrimps step one square diagonally. Nothing ever moves onto an occupied square.",
        "<b>The River</b> is file c (blue). A piece that stops in the River is carried by the current: click the River square where it enters, then choose whether the current carries it up or down (when both ends differ).",
        "<b>Promotion</b>: a Crab that ends its movement in the opponent's home column may become a Shrimp; you are asked.",
        "<b>Captures</b>: enemy pieces in a line between the moved piece and another of yours are taken.",
        "<b>Bond</b>: if the moved piece now touches others of its type (orthogonally), you may move any one piece of that group one step diagonally. You are offered the Bond after the first movement; click a piece of the group, or \"No Bond\" to end the turn.",
        "You win with three captures or three Shrimps of your own on the board. The same position a fourth time is a draw (rule option KaniRepetition).",
    ],
    marks: &[Mark {
        place: MarkPlace::File(RIVER_FILE),
        art: MarkArt::Water,
        label: "RIVER",
        hint: "A marked River square is where it enters the River; the current then carries it.",
    }],
    path: Some(PathWords {
        ask: "Your {piece} enters the River at {entry}. Which way does the current carry it?",
        stay: Choice {
            label: "No drift: stays on {to}",
            small: "the current cannot move it that way",
        },
        up: Choice {
            label: "Current up → {to}",
            small: "carried along the River",
        },
        down: Choice {
            label: "Current down → {to}",
            small: "carried along the River",
        },
        told: " (entered the River at {via}, carried to {to})",
    }),
    levels: None,
    promotion: Some(PromotionWords {
        yes: Choice {
            label: "Promote to Shrimp",
            small: "steps diagonally from now on",
        },
        no: Choice {
            label: "Stay a Crab",
            small: "may promote on a later visit",
        },
    }),
    win_scale: 0.01622,
};

/// The River's file, from 0 (`a`).
const RIVER_FILE: u8 = 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kaninariebi::board::{FILE_A, RIVER};

    #[test]
    fn the_river_drawn_is_the_river_of_the_rules() {
        assert_eq!(FILE_A << RIVER_FILE, RIVER);
    }
}
