"""Matches from Python through koma-referee: records come back as
objects, the settings reach the referee, and its refusals raise."""

import pytest

import koma
from koma.match import Player, run_match


def test_a_match_returns_its_records(koma_bin, referee_bin):
    r = run_match(
        [Player(koma_bin, name="d1", depth=1), Player(koma_bin, name="d2", depth=2)],
        "nana",
        games=2,
        openings="suite=default",
        concurrency=2,
        referee=referee_bin,
        timeout=120,
    )
    assert r.completed and len(r.records) == 2
    assert {(g.first, g.second) for g in r.records} == {("d1", "d2"), ("d2", "d1")}
    for g in r.records:
        assert g.result in ("1-0", "0-1", "1/2-1/2") and g.termination
        # Every record replays through the rules to its result.
        p = koma.Position("nana", fen=g.fen)
        for mv in g.moves:
            p.push(mv)
        if g.termination not in ("ply limit",):
            assert p.outcome() is not None and p.outcome().result == g.result
    s = r.scores()
    assert sum(s["d1"]) == 2 and sum(s["d2"]) == 2
    assert "d1" in r.summary


def test_rules_and_max_plies_reach_the_referee(koma_bin, referee_bin):
    r = run_match(
        [Player(koma_bin, name="a", depth=1), Player(koma_bin, name="b", depth=1)],
        "hasami",
        rules={"HasamiWin": "lead3"},
        games=1,
        max_plies=6,
        referee=referee_bin,
        timeout=120,
    )
    (g,) = r.records
    assert g.tags["HasamiWin"] == "lead3"
    assert len(g.moves) == 6 and g.termination == "ply limit" and g.result == "1/2-1/2"


def test_a_refused_match_raises_with_the_referees_words(koma_bin, referee_bin):
    with pytest.raises(koma.MatchError, match="HasamiWin"):
        run_match(
            [Player(koma_bin, name="a", depth=1), Player(koma_bin, name="b", depth=1)],
            "hasami",
            rules={"HasamiWin": "four"},
            referee=referee_bin,
        )
