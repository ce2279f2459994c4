//! How Nana Shogi shows itself on the board's page: the King's and the
//! cube states' names, the cubes' names in hand, help, and the centre
//! square crossed out.

use crate::core::{HandName, Mark, MarkArt, MarkPlace, PieceFacts, Presentation};

pub const PRESENTATION: Presentation = Presentation {
    title: "Nana Shogi",
    pieces: &[
        PieceFacts::shogi('K', "King", "one step in any direction"),
        PieceFacts::shogi('R', "Rook", "one step orthogonally"),
        PieceFacts::shogi('V', "Chariot", "1 or 2 squares straight forward or back"),
        PieceFacts::shogi('W', "Swallow's wings", "one step left or right"),
        PieceFacts::shogi('G', "Go-between", "one step forward or back"),
        PieceFacts::shogi('B', "Bishop", "1 or 2 squares diagonally"),
        PieceFacts::shogi(
            'T',
            "Tile general",
            "one step diagonally forward, or straight back",
        ),
        PieceFacts::shogi('C', "Cat's sword", "one step diagonally"),
        PieceFacts::shogi('D', "Dog", "one step forward, or diagonally back"),
    ],
    promoted: &[],
    hand: &[
        HandName {
            letter: 'K',
            name: "King",
        },
        HandName {
            letter: 'R',
            name: "orthogonal cube",
        },
        HandName {
            letter: 'B',
            name: "diagonal cube",
        },
    ],
    help: &[
        "Both Kings are dropped first. Then each turn drops a piece from your hand or moves one on the board.",
        "<b>Drops</b>: click a piece in your hand, then a marked square. A cube is dropped in any of its four states: you are asked which (orthogonal cube: Rook, Chariot, Swallow's wings, Go-between; diagonal cube: Bishop, Tile general, Cat's sword, Dog). Nothing is dropped on the centre square b2, and a drop may not attack the enemy King.",
        "Every board move of a cube turns it to the next state of its cycle.",
        "Capturing the enemy King wins.",
    ],
    marks: &[Mark {
        place: MarkPlace::Square { file: 1, rank: 1 },
        art: MarkArt::Cross,
        label: "",
        hint: "",
    }],
    path: None,
    levels: None,
    promotion: None,
    win_scale: 0.00399,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nana::board::{CENTER, FILES};

    #[test]
    fn the_square_crossed_out_is_the_centre_where_nothing_is_dropped() {
        let MarkPlace::Square { file, rank } = PRESENTATION.marks[0].place else {
            panic!("the centre is a square");
        };
        assert_eq!(1 << (rank * FILES + file), CENTER);
    }
}
