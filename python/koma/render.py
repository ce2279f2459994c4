"""A picture of a position as an RGB numpy array (the environments'
`render_mode="rgb_array"`), drawn with numpy alone: the board's squares,
each piece a disc in its owner's colour (light for the first player, dark
for the second) with its letter, a `+` for a promoted piece, and the
pieces in hand on a strip above (second player) and below (first)."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import numpy as np

CELL = 32
# 5x7 glyphs of the letters the games write (docs/rules/notation.md).
_GLYPHS = {
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
    "W": ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
    "+": ["00000", "00100", "00100", "11111", "00100", "00100", "00000"],
}
_LIGHT, _DARK = np.array([238, 216, 170], np.uint8), np.array([196, 160, 110], np.uint8)
_SIDE = {True: (np.array([250, 250, 250], np.uint8), np.array([20, 20, 20], np.uint8)),
         False: (np.array([30, 30, 30], np.uint8), np.array([235, 235, 235], np.uint8))}


def _board(fen: str) -> Tuple[List[List[Optional[str]]], str]:
    """The cells (top rank first) and the hand of a position string."""
    placement = fen.split()[0]
    hand = ""
    m = re.match(r"^(.*?)\[(.*)\]$", placement)
    if m:
        placement, hand = m.group(1), m.group(2)
    rows = []
    for rank in placement.split("/"):
        row: List[Optional[str]] = []
        i = 0
        while i < len(rank):
            c = rank[i]
            if c.isdigit():
                j = i
                while j < len(rank) and rank[j].isdigit():
                    j += 1
                row.extend([None] * int(rank[i:j]))
                i = j
            elif c == "+":
                row.append("+" + rank[i + 1])
                i += 2
            else:
                row.append(c)
                i += 1
        rows.append(row)
    return rows, hand


def _glyph(img: np.ndarray, y: int, x: int, letter: str, color: np.ndarray, scale: int = 2) -> None:
    rows = _GLYPHS.get(letter.upper())
    if rows is None:
        return
    for r, bits in enumerate(rows):
        for c, b in enumerate(bits):
            if b == "1":
                img[y + r * scale : y + (r + 1) * scale, x + c * scale : x + (c + 1) * scale] = color


def _piece(img: np.ndarray, y: int, x: int, piece: str) -> None:
    promoted = piece.startswith("+")
    letter = piece[-1]
    fill, ink = _SIDE[letter.isupper()]
    yy, xx = np.mgrid[0:CELL, 0:CELL]
    disc = (yy - CELL / 2 + 0.5) ** 2 + (xx - CELL / 2 + 0.5) ** 2 <= (CELL / 2 - 2) ** 2
    img[y : y + CELL, x : x + CELL][disc] = fill
    _glyph(img, y + (CELL - 14) // 2, x + (CELL - 10) // 2, letter, ink)
    if promoted:
        _glyph(img, y + 2, x + CELL - 9, "+", np.array([200, 30, 30], np.uint8), scale=1)


def rgb_array(fen: str) -> np.ndarray:
    """The picture of the position `fen`: uint8 (height, width, 3)."""
    rows, hand = _board(fen)
    ranks, files = len(rows), max(len(r) for r in rows)
    strip = CELL if hand != "" or "[" in fen else 0
    img = np.zeros((ranks * CELL + 2 * strip, files * CELL, 3), np.uint8)
    img[:] = (90, 70, 50)
    for r, row in enumerate(rows):
        for f in range(files):
            y, x = strip + r * CELL, f * CELL
            img[y : y + CELL, x : x + CELL] = _LIGHT if (r + f) % 2 == 0 else _DARK
            if f < len(row) and row[f] is not None:
                _piece(img, y, x, row[f])
    if strip:
        second = [c for c in hand if c.islower()]
        first = [c for c in hand if c.isupper()]
        for k, c in enumerate(second[:files]):
            _piece(img, 0, k * CELL, c)
        for k, c in enumerate(first[:files]):
            _piece(img, strip + ranks * CELL, k * CELL, c)
    return img
