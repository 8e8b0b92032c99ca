"""The `catnip` command line."""

from click.testing import CliRunner

from catnip_host.cli import main


def test_sim_says_plainly_what_is_missing():
    result = CliRunner().invoke(main, ["sim"])
    assert result.exit_code == 1
    assert "virtual table is not built yet" in result.output
    assert "make test" in result.output
