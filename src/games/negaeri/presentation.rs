//! How Negaeri Shogi shows itself on the board's page: names of the pieces
//! and their promoted sides, help, and its chain's levels called flips.

use crate::core::{HandName, PieceFacts, Presentation};

const fn hand(letter: char, name: &'static str) -> HandName {
    HandName { letter, name }
}

pub const PRESENTATION: Presentation = Presentation {
    title: "Negaeri Shogi",
    pieces: &[
        PieceFacts::shogi('K', "King", "one step in any direction"),
        PieceFacts::shogi('P', "Pawn", "one step forward"),
        PieceFacts::shogi('R', "Rook", "slides orthogonally"),
        PieceFacts::shogi('B', "Bishop", "slides diagonally"),
    ],
    promoted: &[
        PieceFacts::shogi(
            'P',
            "Tokin",
            "one step forward, diagonally forward, sideways or back",
        ),
        PieceFacts::shogi('R', "Dragon", "a Rook that also steps diagonally"),
        PieceFacts::shogi('B', "Horse", "a Bishop that also steps orthogonally"),
    ],
    hand: &[hand('P', "Pawn"), hand('R', "Rook"), hand('B', "Bishop")],
    help: &[
        "Each turn is a board move or a drop. Click a piece, then a marked square; or click a piece in your hand, then an empty square.",
        "<b>Flips</b>: after a drop, enemy pieces caught in a line between the dropped piece and one of yours (or the board edge) change sides and promote. Flipped pieces flip others in turn: the board shows the chain level by level.",
        "Pieces next to their own King never flip. Board moves capture into your hand.",
        "<b>Pass</b> is offered only when you have no board move and no drop.",
        "Capturing the enemy King wins; two passes in a row, or a fourth repetition, are decided by the pieces on the board.",
    ],
    marks: &[],
    path: None,
    levels: Some("Flips"),
    promotion: None,
    win_scale: 0.00123,
};
