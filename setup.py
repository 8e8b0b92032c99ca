"""The wheel carries, beside the catnip and catnip_host packages, the files the
commands read as files rather than import: firmware/ (main.py, the boards,
package.json: what `catnip deploy` sends and `catnip sim` runs) and devsim/
(the virtual table's hardware), as catnip_host/_tree/. catnip_host.tree finds
them there, or in the checkout. Everything else is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TREE = ("firmware", "devsim")


class BuildWithTree(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout itself
        target = Path(self.build_lib) / "catnip_host" / "_tree"
        for name in TREE:
            shutil.copytree(name, target / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithTree})
