# What the catnip image freezes into MicroPython for the Pico and the Pico 2
# (`make firmware` builds both; docs/pico.md has the recipe): the rp2 port's
# usual modules, the catnip package and the image's main.py. Paths are
# relative to this folder. The build adds catnip/release.py (the version and
# the digest of these sources) and catnip/shipped.py (the shipped boards,
# for a first power-up without board.json) from its own folder.
include("$(PORT_DIR)/boards/manifest.py")
package("catnip")
module("main.py", base_path="image")
