"""The `catnip` command line."""

from click.testing import CliRunner

from catnip_host.cli import main


def test_sim_without_a_terminal_says_how_to_run_a_script():
    result = CliRunner().invoke(main, ["sim"])
    assert result.exit_code == 1
    assert "needs a terminal" in result.output
    assert "--script FILE --headless" in result.output
