"""The rules from Python: variants, Position and its errors, and agreement
with the `koma` engine binary on random games in every game and every
rule option setting."""

import copy
import itertools
import random
import subprocess
import zlib

import pytest

import koma

# docs/rules/notation.md's perft table (independently confirmed counts).
PERFT = {
    "kaninariebi": [20, 361, 13381],
    "hasami": [63, 3717, 254219],
    "nana": [8, 32, 1356],
    "negaeri": [78, 5865, 364453],
}


def test_variants_list_every_game_with_its_rule_options_and_defaults():
    v = koma.variants()
    assert list(v) == ["kaninariebi", "hasami", "nana", "negaeri"]
    assert v["hasami"].defaults() == {"HasamiWin": "five", "HasamiLines": True, "HasamiCorners": True}
    win = v["hasami"].options[0]
    assert win.type == "combo" and win.values == ("five", "all", "lead3")
    chain = [o for o in v["negaeri"].options if o.name == "NegaeriChainLimit"][0]
    assert (chain.type, chain.min, chain.max, chain.default) == ("spin", 1, 5, 5)
    assert v["nana"].options == ()
    assert (v["nana"].files, v["nana"].ranks) == (3, 3)


@pytest.mark.parametrize("variant", list(PERFT))
def test_perft_from_the_start_matches_the_documented_counts(variant):
    p = koma.Position(variant)
    assert [p.perft(d) for d in (1, 2, 3)] == PERFT[variant]
    assert len(p.legal_moves()) == PERFT[variant][0]


def test_push_pop_turn_fen_and_key():
    p = koma.Position("nana")
    assert p.turn == "first" and p.ply == 0
    start_fen, start_key = p.fen(), p.key()
    assert start_fen == "3/3/3[KRBkrb] w 1"
    assert p.push("K@a1") == "K@a1"
    assert p.push(" K@c3 ") == "K@c3"
    assert p.push("V@a3") == "V@a3"
    assert p.fen() == "V1k/3/K2[Brb] b 2"
    assert p.turn == "second" and p.ply == 3 and p.moves == ["K@a1", "K@c3", "V@a3"]
    assert p.key() != start_key
    assert p.pop() == "V@a3"
    assert p.pop() == "K@c3"
    assert p.pop() == "K@a1"
    assert (p.fen(), p.key()) == (start_fen, start_key)
    with pytest.raises(koma.EmptyLineError, match="no move to take back"):
        p.pop()


def test_errors_carry_the_engines_words():
    p = koma.Position("nana")
    with pytest.raises(koma.IllegalMoveError, match=r"^illegal move at a1a2$"):
        p.push("a1a2")
    with pytest.raises(koma.InvalidInputError, match=r"^expected .* at zz$"):
        p.push("zz")
    with pytest.raises(koma.InvalidInputError, match=r"\+C on a1: a promoted Crab is written S"):
        koma.Position("kaninariebi", fen="C3c/C3c/C3c/C3c/+C3c w 1")
    with pytest.raises(koma.InvalidInputError, match="expected one of five, all, lead3 for HasamiWin at four"):
        koma.Position("hasami", rules={"HasamiWin": "four"})
    with pytest.raises(koma.InvalidInputError, match="nana has no rule option X"):
        koma.Position("nana", rules={"X": 1})
    with pytest.raises(koma.InvalidInputError, match="expected one of kaninariebi, hasami, nana, negaeri at chess"):
        koma.Position("chess")
    # Both are ValueErrors, as python-chess's are.
    assert issubclass(koma.IllegalMoveError, ValueError)
    # A refused call leaves the position as it was.
    assert p.ply == 0 and p.fen() == "3/3/3[KRBkrb] w 1"


def test_a_finished_game_has_an_outcome_and_refuses_moves():
    rng = random.Random(4)
    p = koma.Position("nana")
    while p.outcome() is None:
        p.push(rng.choice(p.legal_moves()))
    end = p.outcome()
    assert end.result in ("1-0", "0-1", "1/2-1/2")
    assert end.reason in ("King captured", "no legal move", "repetition")
    assert p.legal_moves() == [] and p.is_over()
    with pytest.raises(koma.IllegalMoveError, match=r"^illegal move, the game is over \("):
        p.push("K@a1")
    assert str(end).startswith(end.result + " {")


def test_copy_is_independent_and_diagram_is_the_engines():
    p = koma.Position("kaninariebi")
    q = p.copy()
    q.push(q.legal_moves()[0])
    assert p.ply == 0 and q.ply == 1
    r = copy.deepcopy(q)
    assert r.fen() == q.fen() and r.moves == q.moves
    d = p.diagram()
    assert "Position: C3c/C3c/C3c/C3c/C3c w 1" in d and d.rstrip().endswith("Game: in progress")
    assert str(p) == d and repr(p) == 'Position("kaninariebi", fen="C3c/C3c/C3c/C3c/C3c w 1")'


def test_rules_change_the_game():
    p = koma.Position("negaeri", rules={"NegaeriChainLimit": 1, "NegaeriEdge": False})
    assert p.rules == {"NegaeriEdge": False, "NegaeriEqualHands": False, "NegaeriChainLimit": 1}
    assert p.position_command() == "position startpos"
    p.push(p.legal_moves()[0])
    assert p.position_command().startswith("position startpos moves ")


def settings(variant):
    """Every combination of the variant's rule options' values."""
    opts = koma.variants()[variant].options
    choices = []
    for o in opts:
        if o.type == "check":
            choices.append([(o.name, v) for v in (True, False)])
        elif o.type == "combo":
            choices.append([(o.name, v) for v in o.values])
        elif o.type == "spin":
            choices.append([(o.name, v) for v in range(o.min, o.max + 1)])
    return [dict(c) for c in itertools.product(*choices)]


class Engine:
    """The koma binary as a rules oracle: `go perft 1` and `d`."""

    def __init__(self, path, variant, rules):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"setoption name UCI_Variant value {variant}")
        for k, v in rules.items():
            self.send(f"setoption name {k} value {str(v).lower() if isinstance(v, bool) else v}")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            assert line, "the engine closed its output"
            line = line.rstrip("\n")
            assert not line.startswith("info string error"), line
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def state(self, command):
        self.send(command)
        self.send("go perft 1")
        moves = [l.split(":")[0] for l in self.until("Nodes searched") if l.endswith(": 1")]
        self.send("d")
        shown = self.until("Game:")
        fen = [l for l in shown if l.startswith("Position: ")][0][len("Position: "):]
        return sorted(moves), fen, shown[-1]

    def close(self):
        self.send("quit")
        self.p.stdin.close()
        self.p.wait(timeout=10)


CASES = [(v, s) for v in PERFT for s in settings(v)]


@pytest.mark.parametrize("variant,rules", CASES, ids=[f"{v}-{i}" for i, (v, _) in enumerate(CASES)])
def test_rules_agree_with_the_engine_binary_on_random_games(koma_bin, variant, rules):
    """Legal moves, position string and game status after every ply of
    random games, against `koma` given the same moves."""
    rng = random.Random(zlib.crc32(repr((variant, sorted(rules.items()))).encode()))
    e = Engine(koma_bin, variant, rules)
    try:
        for game in range(2):
            p = koma.Position(variant, rules=rules)
            while True:
                moves, fen, status = e.state(p.position_command())
                end = p.outcome()
                # Perft ignores repetition and move-count limits.
                if end is None:
                    assert sorted(p.legal_moves()) == moves, p.position_command()
                assert p.fen() == fen
                assert status == ("Game: in progress" if end is None else f"Game: over, {end}")
                if end is not None or p.ply >= 60:
                    break
                p.push(rng.choice(p.legal_moves()))
    finally:
        e.close()
