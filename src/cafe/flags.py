"""Each nation's sign, simply drawn in SVG beside its code: a flag, and for Africa (a continent in the game, not a
country) the continent's outline on a plain field.  Drawn on a 30 x 20 field, placed and scaled by ``flag``.

>>> flag("FRA", 0, 0, 18).get("class")
'deco flag'
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

W, H = 30, 20

Shape = tuple[str, dict[str, str]]


def _stripes(colours: list[str], vertical: bool = False) -> list[Shape]:
    """Equal stripes, top to bottom (or left to right)."""
    n = len(colours)
    if vertical:
        return [("rect", {"x": f"{W * i / n:g}", "y": "0", "width": f"{W / n:g}", "height": f"{H}", "fill": c})
                for i, c in enumerate(colours)]  # fmt: skip
    return [("rect", {"x": "0", "y": f"{H * i / n:g}", "width": f"{W}", "height": f"{H / n:g}", "fill": c})
            for i, c in enumerate(colours)]  # fmt: skip


def _star(cx: float, cy: float, r: float, fill: str) -> Shape:
    """A five-pointed star, one point up."""
    from math import cos, pi, sin

    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.4
        angle = -pi / 2 + k * pi / 5
        points.append(f"{cx + radius * cos(angle):.2f},{cy + radius * sin(angle):.2f}")
    return ("polygon", {"points": " ".join(points), "fill": fill})


def _rect(x: float, y: float, w: float, h: float, fill: str) -> Shape:
    return ("rect", {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": f"{h:g}", "fill": fill})


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, width: float) -> Shape:
    return ("line", {"x1": f"{x1:g}", "y1": f"{y1:g}", "x2": f"{x2:g}", "y2": f"{y2:g}", "stroke": stroke,
                     "stroke-width": f"{width:g}"})  # fmt: skip


# Africa's outline (the mainland and Madagascar), by eye, on the 30 x 20 field
AFRICA = (
    "M11.6,2.2 L16,1.6 L19.4,2.6 L21.4,3 L23,6.2 L25.6,8.8 L27.6,8.8 L25.4,12 L23.6,14.6 L23.2,16.4 L19.8,19 "
    "L17.6,18.6 L16.6,15.4 L15.6,12.2 L15.6,10.2 L14,9.4 L11,9.8 L8.2,8.8 L7,6.4 L8.6,3.6 Z "
    "M25.2,14.6 L26.2,14 L25.6,17 L24.8,17.2 Z"
)


def _africa() -> list[Shape]:
    return [_rect(0, 0, W, H, "#1f6f50"), ("path", {"d": AFRICA, "fill": "#f2c94c", "stroke": "#7a5a12",
                                                    "stroke-width": "0.6"})]  # fmt: skip


def _usa() -> list[Shape]:
    red = [_rect(0, H * i / 7, W, H / 7, "#b22234") for i in range(0, 7, 2)]
    return [_rect(0, 0, W, H, "#fff"), *red, _rect(0, 0, 13, H * 4 / 7, "#3c3b6e")]


def _gbr() -> list[Shape]:
    return [_rect(0, 0, W, H, "#012169"), _line(0, 0, W, H, "#fff", 4), _line(W, 0, 0, H, "#fff", 4),
            _line(0, 0, W, H, "#c8102e", 1.4), _line(W, 0, 0, H, "#c8102e", 1.4), _rect(12, 0, 6, H, "#fff"),
            _rect(0, 7, W, 6, "#fff"), _rect(13.2, 0, 3.6, H, "#c8102e"), _rect(0, 8.2, W, 3.6, "#c8102e")]  # fmt: skip


def _cub() -> list[Shape]:
    blue = "#002a8f"
    return [
        *_stripes([blue, "#fff", blue, "#fff", blue]),
        ("polygon", {"points": f"0,0 {H * 0.87:g},{H / 2:g} 0,{H}", "fill": "#cf142b"}),
        _star(5.8, 10, 3, "#fff"),
    ]


def _tur() -> list[Shape]:
    return [
        _rect(0, 0, W, H, "#e30a17"),
        ("circle", {"cx": "11", "cy": "10", "r": "5", "fill": "#fff"}),
        ("circle", {"cx": "12.3", "cy": "10", "r": "4", "fill": "#e30a17"}),
        _star(17.6, 10, 2.6, "#fff"),
    ]


def _ind() -> list[Shape]:
    wheel = {"cx": "15", "cy": "10", "r": "2.6", "fill": "none", "stroke": "#000080", "stroke-width": "0.8"}
    return [*_stripes(["#ff9933", "#fff", "#138808"]), ("circle", wheel)]


FLAGS: dict[str, Callable[[], list[Shape]]] = {
    "AFR": _africa,
    "CHN": lambda: [_rect(0, 0, W, H, "#de2910"), _star(5.5, 5.5, 3.6, "#ffde00")],
    "CUB": _cub,
    "ESP": lambda: [_rect(0, 0, W, H, "#aa151b"), _rect(0, 5, W, 10, "#f1bf00")],
    "FRA": lambda: _stripes(["#0055a4", "#fff", "#ef4135"], vertical=True),
    "GBR": _gbr,
    "GER": lambda: _stripes(["#000", "#dd0000", "#ffce00"]),
    "IND": _ind,
    "ITA": lambda: _stripes(["#009246", "#fff", "#ce2b37"], vertical=True),
    "RUS": lambda: _stripes(["#fff", "#0039a6", "#d52b1e"]),
    "TUR": _tur,
    "USA": _usa,
}


def flag(code: str, x: float, y: float, width: float) -> ET.Element:
    """The sign of nation ``code`` (its three letters) at (x, y), ``width`` wide, framed; decoration only."""
    scale = width / W
    group = ET.Element("g", attrib={"class": "deco flag", "transform": f"translate({x:g} {y:g}) scale({scale:g})"})
    for tag, attrib in FLAGS[code]():
        ET.SubElement(group, tag, attrib=attrib)
    ET.SubElement(group, "rect", x="0", y="0", width=f"{W}", height=f"{H}", fill="none", stroke="#3d3425",
                  attrib={"stroke-width": "1"})  # fmt: skip
    return group
