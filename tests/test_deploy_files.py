"""`catnip deploy --board/--calibration FILE` reads its files with a bound:
a file nested past any real one is refused by name, never a RecursionError."""

from __future__ import annotations

import pytest

from catnip_host import bundle


@pytest.mark.parametrize("read", [bundle.board_config, bundle.calibration])
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50 + "1" + "}" * 50,
                                  "[1, 2]", "\udcff"])
def test_a_nested_or_odd_file_is_refused_by_name(tmp_path, read, text):
    path = tmp_path / "odd.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(bundle.BundleError) as e:
        read(path)
    assert str(path) in str(e.value)
