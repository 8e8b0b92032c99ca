"""The build guide (hardware/*.md) reads in the order a maker meets it and points only at what
exists: every relative link reaches a file and, with #anchor, a heading in it; the first boot
starts from the catnip image, not from copying sources; every printed part it names is shipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catnip_host import scad
from catnip_host.wiring import ROOT

HARDWARE = ROOT / "hardware"
GUIDE = sorted(HARDWARE.glob("*.md")) + [HARDWARE / "wokwi" / "README.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", path.read_text(), re.M)}


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_heading(page):
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.name} links to {target}: no such heading"


def _order(text: str, *steps: str) -> list[int]:
    at = [text.find(step) for step in steps]
    assert -1 not in at, [s for s, i in zip(steps, at) if i < 0]
    return at


def test_the_first_boot_starts_from_the_image():
    text = (HARDWARE / "first-boot.md").read_text()
    at = _order(text, "pipx install catnip-table", "BOOTSEL", "catnip flash",
                "## 3. The first power-up", "## 4. Calibrate", "**Thonny**")
    assert at == sorted(at)
    assert "mpremote cp" not in text and "make test" not in text
    assert "Stop/Restart** reaches the REPL; the game resumes at the next power-up" in text


def test_the_guide_names_its_steps_in_order_and_says_whether_a_table_was_built():
    text = (HARDWARE / "README.md").read_text()
    at = _order(text, "**Order**", "**Wire**", "**Check**", "**Build**", "**Flash**",
                "**Calibrate**", "**Play**")
    assert at == sorted(at)
    assert "no catnip table has been built\nand played outside simulation yet" in text


def test_every_printed_part_the_guide_names_is_shipped():
    text = (HARDWARE / "README.md").read_text()
    named = set(re.findall(r"`([\w-]+\.stl)`", text))
    assert named and named <= set(scad.PARTS)
    for name in scad.PARTS:  # each shipped part is named, alone or as a -4/-8 family
        family = re.sub(r"-\d\.stl$", ".stl", name)
        assert name in text or family.replace(".stl", "") in text, name
