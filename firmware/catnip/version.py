# Which build of catnip this table runs, for the laptop's hello: the digest
# of the firmware sources and whether they are frozen into the catnip image
# or compiled onto the flash. catnip/release.py is written by each build
# (`make firmware`, `catnip deploy`); a tree run as it is (the virtual
# table, a mip install) has none and says "source". FIRMWARE is the version
# the table tells the laptop, and the one a deploy writes in its manifest.
FIRMWARE = "0.1.0"


def build():
    """{"src": digest or None, "build": "image", "files" or "source"}."""
    try:
        from catnip import release
    except ImportError:
        return {"src": None, "build": "source"}
    return {"src": release.SOURCES, "build": "image" if release.FROZEN else "files"}
