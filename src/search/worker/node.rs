//! What a search call is asked: the window its score is wanted in, and the
//! kind of node it is expected to be.

use super::Score;

/// The scores a search wants told apart: one at or below `alpha` or at or
/// above `beta` is only a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub alpha: Score,
    pub beta: Score,
}

impl Window {
    pub fn new(alpha: Score, beta: Score) -> Window {
        Window { alpha, beta }
    }

    /// The null window that asks whether a score is above `alpha`.
    pub fn above(alpha: Score) -> Window {
        Window::new(alpha, alpha + 1)
    }

    /// The null window that asks whether a score reaches `beta`.
    pub fn reaching(beta: Score) -> Window {
        Window::new(beta - 1, beta)
    }

    /// The window as the side that moves next sees it.
    pub fn child(self) -> Window {
        Window::new(-self.beta, -self.alpha)
    }
}

/// The kind of a node below the root: Stockfish's PV and non-PV node types
/// with its `cutNode` flag folded in (a PV node is never a cut node).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// On the principal variation: an open window, no pruning.
    Pv,
    /// A fail high is expected: the null-window children of a PV node's
    /// later moves, and every other generation below them.
    Cut,
    /// A fail low is expected.
    All,
}

impl NodeKind {
    pub fn is_pv(self) -> bool {
        self == NodeKind::Pv
    }

    pub fn is_cut(self) -> bool {
        self == NodeKind::Cut
    }

    /// The kind of a null-window child: below a cut node every move is
    /// expected to fail low, below the others the first one to fail high.
    pub fn scout_child(self) -> NodeKind {
        if self == NodeKind::Cut {
            NodeKind::All
        } else {
            NodeKind::Cut
        }
    }

    /// The kind of the first move's child: a PV node's stays on the PV.
    pub fn first_child(self) -> NodeKind {
        if self == NodeKind::Pv {
            NodeKind::Pv
        } else {
            self.scout_child()
        }
    }

    /// The same node searched again with a null window (the singular
    /// extension's test): no longer on the PV.
    pub fn off_pv(self) -> NodeKind {
        if self == NodeKind::Pv {
            NodeKind::All
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_windows_ask_one_question_and_a_child_sees_the_window_negated() {
        assert_eq!(Window::above(10), Window::new(10, 11));
        assert_eq!(Window::reaching(10), Window::new(9, 10));
        assert_eq!(Window::above(10).child(), Window::new(-11, -10));
        assert_eq!(Window::new(-5, 7).child().child(), Window::new(-5, 7));
    }

    #[test]
    fn node_kinds_alternate_below_a_pv_node_as_stockfish_types_them() {
        use NodeKind::*;
        assert_eq!(Pv.first_child(), Pv);
        assert_eq!(Cut.first_child(), All);
        assert_eq!(All.first_child(), Cut);
        assert_eq!(Pv.scout_child(), Cut);
        assert_eq!(Cut.scout_child(), All);
        assert_eq!(All.scout_child(), Cut);
        assert_eq!(Pv.off_pv(), All);
        assert_eq!(Cut.off_pv(), Cut);
        assert!(Pv.is_pv() && !Pv.is_cut() && Cut.is_cut() && !All.is_cut());
    }
}
