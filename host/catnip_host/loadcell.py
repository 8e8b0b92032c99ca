"""Which load cell the tray needs, and how many HX711 counts one wooden cat gives on it.

The HX711 (Avia Semiconductor datasheet, "Analog input") reads channel A at gain 128 with a
full-scale differential input of +-0.5 x AVDD / 128 (+-20 mV at AVDD = 5 V) as 24-bit two's
complement, +-2**23 counts. A bridge cell rated S mV/V puts out S x AVDD at its rated load, and
the HX711 excites the bridge from AVDD, so AVDD cancels:

    counts at rated load = S/1000 x 128/0.5 x 2**23   (2,147,484 for a 1 mV/V cell)

Bar cells sold for hobby scales are 1.0 +- 0.15 mV/V. The cats' and base's weights are settings
of the game (Stack O' Cats' counts and masses are not published), so every figure here takes them
as arguments; the defaults are the game settings' defaults and assumed weights for the base and
the platform (weigh yours).
"""

from __future__ import annotations

from dataclasses import dataclass

HX711_GAIN = 128
HX711_FULL_SCALE = 0.5  # of AVDD, divided by the gain
HX711_COUNTS = 2**23  # counts from zero to full scale
CELL_MV_PER_V = 1.0  # typical bar cell sensitivity
CAPACITIES_G = (100, 200, 300, 500, 1000, 2000, 3000, 5000)  # bar cells on the market


@dataclass(frozen=True)
class Tower:
    """What sits on the tray, in grams. `cats` is every cat a game can stack (Stack O' Cats
    defaults: 8 colours x 4 plus 8 black); `cat_g` the game setting `cat_grams`."""

    cat_g: float = 6.0
    cats: int = 40
    base_g: float = 60.0  # the wooden cat base: weigh yours
    platform_g: float = 80.0  # the tray's top plate that the base sits on
    headroom: float = 2.0  # a hand resting on the tower, a collapse landing on the tray

    @property
    def static_g(self) -> float:
        return self.platform_g + self.base_g + self.cats * self.cat_g


def counts_per_gram(capacity_g: float, mv_per_v: float = CELL_MV_PER_V) -> float:
    """HX711 counts (gain 128) per gram of load on one cell of this capacity."""
    return mv_per_v / 1000 * HX711_GAIN / HX711_FULL_SCALE * HX711_COUNTS / capacity_g


def per_cell_load_g(tower: Tower, cells: int) -> float:
    """The most one cell may have to carry. With four corner cells a tower leaning over one
    corner can put half of everything on it; one cell carries it all."""
    return tower.static_g if cells == 1 else tower.static_g / 2


def choose_capacity(tower: Tower, cells: int) -> int:
    """The smallest bar cell that carries the worst load with the headroom."""
    need = per_cell_load_g(tower, cells) * tower.headroom
    for capacity in CAPACITIES_G:
        if capacity >= need:
            return capacity
    raise ValueError(f"{need:.0f} g per cell is more than a {CAPACITIES_G[-1]} g bar cell carries; "
                     "use more cells or a lighter platform")


@dataclass(frozen=True)
class Choice:
    cells: int
    capacity_g: int
    counts_per_cat: int  # summed over the cells: each cell sees its share of the cat
    full_tower_counts: int  # counts of the whole static load, summed over the cells
    range_used: float  # of the HX711's +-2**23 on the most loaded cell


def choice(tower: Tower, cells: int) -> Choice:
    capacity = choose_capacity(tower, cells)
    per_g = counts_per_gram(capacity)
    return Choice(cells=cells, capacity_g=capacity,
                  counts_per_cat=round(tower.cat_g * per_g),
                  full_tower_counts=round(tower.static_g * per_g),
                  range_used=per_cell_load_g(tower, cells) * tower.headroom * per_g / HX711_COUNTS)


def capacity_markdown(tower: Tower = Tower()) -> str:
    """The reasoning as a table for the build guide."""
    lines = [
        f"Assumed: cats of {tower.cat_g:g} g (the `cat_grams` setting), {tower.cats} of them, a "
        f"base of {tower.base_g:g} g on a platform of {tower.platform_g:g} g: {tower.static_g:g} g "
        f"static, taken x{tower.headroom:g} for a hand on the tower or a collapse landing.",
        "",
        "| cells | worst load on one cell | cell | counts per gram | counts per cat | "
        "most loaded cell uses |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cells in (1, 4):
        c = choice(tower, cells)
        lines.append(
            f"| {cells} | {per_cell_load_g(tower, cells) * tower.headroom:,.0f} g | "
            f"{c.capacity_g:,} g | {counts_per_gram(c.capacity_g):,.0f} | "
            f"{c.counts_per_cat:,} | {c.range_used:.0%} of the HX711's range |")
    return "\n".join(lines) + "\n"
