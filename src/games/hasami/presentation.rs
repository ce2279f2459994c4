//! How Hasami Shogi shows itself on the board's page: names, help, and its
//! men drawn as stones.

use crate::core::{PieceArt, PieceFacts, Presentation};

pub const PRESENTATION: Presentation = Presentation {
    title: "Hasami Shogi",
    pieces: &[PieceFacts {
        letter: 'P',
        name: "Man",
        moves: "slides any distance along a rank or file",
        art: PieceArt::Stone,
    }],
    promoted: &[],
    hand: &[],
    help: &[
        "Click one of your men, then a marked square: men slide like rooks, without jumping.",
        "Enemy men caught between the moved man and another of yours, in a line, are captured; so is a man in a corner whose two neighbours are yours.",
        "The rule options in the setup decide the win (five captures by default).",
    ],
    marks: &[],
    path: None,
    levels: None,
    promotion: None,
    win_scale: 0.02083,
};
