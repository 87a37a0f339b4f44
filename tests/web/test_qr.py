"""The link-to-QR-code step of the Share drawer (web/qr.py), on CPython and on Pyodide.

A real decoder reads the drawn codes in tests/e2e/test_share_qr.py; here the drawing is
checked module by module against segno's matrix, and the size rules against segno.
"""

from __future__ import annotations

import re

import pytest
import segno
from segno import DataOverflowError

from web import qr
from web.dom import VNode

BASE = "https://someone.github.io/conflict-table/#/conflict?g=2"


def link(length: int) -> str:
    """A share link of exactly ``length`` characters (URL-safe payload, like the real ones)."""
    body = "eJyNVMtu2zAQ_BWCZ0eQZVuOfSvSAD20QIHeigIBJa0kwhSpkpQdN8i_d5eSbMcxihx8ILmzs7Mz-sZzwCr"
    return (BASE + body * (length // len(body) + 1))[:length]


def dark_cells(path: str) -> set[tuple[int, int]]:
    """The modules a path of ``M x y h n v1 h-n z`` runs paints, in viewBox units."""
    cells = set()
    for x, y, run in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path):
        cells |= {(int(x) + i, int(y)) for i in range(int(run))}
    assert re.sub(r"M\d+ \d+h(\d+)v1h-\1z", "", path) == ""  # nothing else in the path
    return cells


@pytest.mark.parametrize("level, version, capacity", qr.LEVELS)
def test_the_byte_capacities_are_segnos(level, version, capacity):
    """The table the choice uses (ISO/IEC 18004) is exactly what segno fits in that version."""
    segno.make("a" * capacity, error=level, version=version, micro=False, boost_error=False)
    with pytest.raises(DataOverflowError):
        segno.make("a" * (capacity + 1), error=level, version=version, micro=False, boost_error=False)


@pytest.mark.parametrize("length, level", [
    (120, "Q"), (151, "Q"), (152, "M"), (600, "M"), (997, "M"), (998, "L"), (1273, "L"),
])
def test_error_correction_follows_the_links_length(length, level):
    text = link(length)
    assert qr.error_level(text) == level
    code = qr.make(text)
    assert code.version <= qr.MAX_VERSION
    # segno may raise the level when that costs no modules; never lowers it
    assert "LMQH".index(code.error) >= "LMQH".index(level)
    assert code.size == 17 + 4 * code.version


def test_a_link_too_long_to_scan_is_refused_with_its_length():
    with pytest.raises(qr.LinkTooLong) as info:
        qr.error_level(link(1274))
    assert str(info.value) == ("This link is 1,274 characters long: too long for a QR code a phone reads "
                               "reliably from across the table (at most 1,273).")
    with pytest.raises(qr.LinkTooLong):
        qr.make(link(2000))


def test_non_ascii_counts_in_bytes():
    text = link(1270) + "éé"  # 1,272 characters, 1,274 bytes in UTF-8
    with pytest.raises(qr.LinkTooLong):
        qr.error_level(text)


@pytest.mark.parametrize("length", [60, 640, 1100, 1273])
def test_the_drawing_paints_exactly_the_dark_modules_inside_a_quiet_zone(length):
    text = link(length)
    code = qr.make(text)
    reference = segno.make(text, error=code.error, version=code.version, micro=False, boost_error=False)
    assert code.rows == tuple(tuple(bool(m) for m in row) for row in reference.matrix)
    q = qr.QUIET_ZONE
    expected = {(x + q, y + q) for y, row in enumerate(code.rows) for x, dark in enumerate(row) if dark}
    cells = dark_cells(code.path())
    assert cells == expected
    assert all(q <= x < code.extent - q and q <= y < code.extent - q for x, y in cells)
    # the three finder patterns: a dark 7×7 ring with a dark 3×3 core, at three corners
    for ox, oy in ((0, 0), (code.size - 7, 0), (0, code.size - 7)):
        for y in range(7):
            for x in range(7):
                ring = x in (0, 6) or y in (0, 6)
                core = 2 <= x <= 4 and 2 <= y <= 4
                assert code.rows[oy + y][ox + x] == (ring or core)


def test_svg_is_dark_on_light_with_the_quiet_zone_in_its_viewbox():
    code = qr.make(link(700))
    node = qr.svg(code, "QR code of the spectator view link")
    assert isinstance(node, VNode) and node.tag == "svg"
    assert node.attrs["viewBox"] == f"0 0 {code.extent} {code.extent}" and code.extent == code.size + 8
    assert node.attrs["role"] == "img" and node.attrs["aria-label"] == "QR code of the spectator view link"
    rect, path = node.children
    assert (rect.tag, rect.attrs["fill"], rect.attrs["width"]) == ("rect", "#ffffff", str(code.extent))
    assert (path.tag, path.attrs["fill"]) == ("path", "#000000")
    assert dark_cells(path.attrs["d"]) and node.attrs["data-error"] == code.error


class Redraws:
    def __init__(self):
        self.count = 0

    def __call__(self):
        self.count += 1


def test_share_codes_draw_each_link_and_one_full_screen():
    codes = qr.ShareCodes(Redraws())
    public, full = link(700), link(1200)
    links = {"public": ("Spectator view", public), "full": ("Full game (for your own devices)", full)}
    fig = codes.figure("public", "Spectator view", public)
    assert fig.tag == "figure" and fig.attrs["data-testid"] == "qr-public"
    assert fig.children[0].children[0].tag == "svg"
    assert "error correction" in fig.text() and "Version" in fig.text()
    assert codes.overlay(links) is None
    assert codes.handle("qr-full", "full")
    overlay = codes.overlay(links)
    assert overlay.attrs["data-testid"] == "qr-fullscreen" and overlay.attrs["role"] == "dialog"
    assert overlay.attrs["aria-label"] == "Full game (for your own devices): QR code"
    svg = next(c for c in overlay.children if c.attrs.get("class") == "qr-full-square").children[0]
    assert svg.attrs["aria-label"] == "QR code of the full game (for your own devices) link"
    assert dark_cells(svg.children[1].attrs["d"]) == dark_cells(qr.make(full).path())
    assert codes.handle("qr-close", None) and codes.overlay(links) is None
    assert not codes.handle("qr-full", "someone-else") and codes.full_screen is None


def test_a_full_link_too_long_offers_the_spectator_code():
    codes = qr.ShareCodes(Redraws())
    fig = codes.figure("full", "Full game (for your own devices)", link(1800))
    assert fig.tag == "div" and "qr-none" in fig.attrs["class"]
    assert "1,800 characters long" in fig.text() and "Scan the spectator link instead" in fig.text()
    offer = fig.children[-1]
    assert (offer.tag, offer.attrs["data-action"], offer.attrs["data-arg"]) == ("button", "session:qr-full", "public")
    too_long_public = codes.figure("public", "Spectator view", link(1800))
    assert not any(c.tag == "button" for c in too_long_public.children)
    assert "Copy link" in too_long_public.text()
