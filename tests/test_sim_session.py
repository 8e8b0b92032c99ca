"""The virtual table remembers the person at it: the view `v` chose (in the
per-user settings), snapshots where they were asked for (never the current
folder), and a session played by hand written down as a scenario
(`--record FILE`) that `--script FILE` plays again."""

from __future__ import annotations

import json
import os
import time

from click.testing import CliRunner
from test_sim import SCENARIOS

from catnip_host import sim
from catnip_host.cli import main


def _state() -> sim.TableState:
    state = sim.TableState(stations=4)
    state.screens[1] = sim.Screen(bytes(1024), 64, [" " * 16] * 8, ["." * 16] * 8)
    return state


def test_it_opens_in_the_readable_view_on_a_big_terminal(tmp_path):
    ui = sim.Terminal(_state(), [].append, lambda: (300, 100),
                      settings=sim.Settings.load(tmp_path / "sim.json"))
    assert ui.view == "text" and ui.current_view() == "text"


def test_v_is_remembered_for_the_next_run(tmp_path):
    path = tmp_path / "conf" / "sim.json"
    ui = sim.Terminal(_state(), [].append, lambda: (300, 100), settings=sim.Settings.load(path))
    ui.key("v")
    assert ui.view == "braille"
    assert json.loads(path.read_text()) == {"view": "braille"}
    again = sim.Terminal(_state(), [].append, lambda: (300, 100),
                         settings=sim.Settings.load(path))
    assert again.view == "braille" and again.current_view() == "braille"


def test_a_settings_file_that_is_not_ours_gives_the_defaults(tmp_path):
    path = tmp_path / "sim.json"
    for text in ("not json", '["view"]', '{"view": "hologram"}', '{"view": 3}'):
        path.write_text(text)
        assert sim.Settings.load(path).view == "text", text


def test_the_settings_live_in_the_per_user_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if os.name == "posix" and not os.uname().sysname == "Darwin":
        assert sim.settings_file() == tmp_path / "config" / "catnip" / "sim.json"
        assert sim.snapshots_dir() == tmp_path / "data" / "catnip" / "snapshots"


def test_S_saves_where_asked_and_never_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    asked = tmp_path / "shots"
    state = _state()
    ui = sim.Terminal(state, [].append, lambda: (80, 24), snapshots=asked)
    ui.key("S")
    saved = list(asked.glob("catnip-station1-*.png"))
    assert len(saved) == 1 and saved[0].read_bytes().startswith(b"\x89PNG")
    assert f"saved {saved[0].resolve()}" in state.feed
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ui = sim.Terminal(state, [].append, lambda: (80, 24))
    ui.key("S")
    assert list(sim.snapshots_dir().glob("catnip-station1-*.png"))
    assert not list(tmp_path.glob("*.png"))


def test_S_into_a_folder_that_cannot_be_made_says_so(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    state = _state()
    ui = sim.Terminal(state, [].append, lambda: (80, 24), snapshots=blocker / "shots")
    ui.key("S")
    assert any(line.startswith(f"not saved in {blocker / 'shots'}") for line in state.feed)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_recording_holds_every_move_and_the_time_between(tmp_path):
    clock = Clock()
    rec = sim.Recorder(tmp_path / "s.json", "direct", "abc", None, clock)
    sent: list[str] = []
    ui = sim.Terminal(sim.TableState(stations=4, has_tray=True), rec.wrap(sent.append),
                      lambda: (80, 24))
    clock.t += 2.0
    ui.key("enter")
    clock.t += 0.05
    ui.key("down")
    clock.t += 0.05
    ui.key("down")  # a fast typist: one step, twice
    clock.t += 1.0
    ui.key("2")  # the focus moves: no step
    ui.key("o")
    clock.t += 0.2
    ui.key("c")
    ui.key("3")
    ui.key("v")  # the view: no step
    assert sent == ["tap 1 ok", "tap 1 down", "tap 1 down", "tap 2 ok 1500",
                    "tray collapse 3"]
    assert rec.steps == [
        {"wait": 2000}, {"station": 1, "press": "ok"},
        {"station": 1, "press": "down", "times": 2},
        {"wait": 850}, {"station": 2, "hold": "ok", "ms": 1500},
        {"tray": "collapse", "cats": 3}]
    data = json.loads(rec.save().read_text())
    assert data["board"] == "direct" and data["seed"] == "abc" and data["steps"] == rec.steps


def _headless(*args: str):
    return CliRunner().invoke(main, ["sim", "--headless", "--no-store", *args])


def test_a_recorded_session_plays_again_with_script(tmp_path):
    clock = Clock()
    rec = sim.Recorder(tmp_path / "played.json", "mux", "7f00", 5, clock)
    ui = sim.Terminal(sim.TableState(stations=5), rec.wrap(lambda line: None), lambda: (80, 24))
    for key in ("down", "enter", "up", "enter"):  # Players: 4, then Start game
        clock.t += 0.3
        ui.key(key)
    clock.t += 1.0
    ui.key("enter")  # P1 locks a card
    path = rec.save()
    scenario = json.loads(path.read_text())
    scenario["steps"].append({"expect": {"station": 1, "text": "Locked"}})
    scenario["steps"].append({"expect": {"station": 5, "text": "table", "row": 0}})  # not seated
    path.write_text(json.dumps(scenario))
    result = _headless("--script", str(path))
    assert result.exit_code == 0, result.output


def test_names_sent_while_recording_are_a_step_that_plays_again(tmp_path):
    clock = Clock()
    rec = sim.Recorder(tmp_path / "named.json", "direct", "n1", None, clock)
    ui = sim.Terminal(sim.TableState(stations=4), rec.wrap(lambda line: None), lambda: (80, 24))
    clock.t += 0.5
    rec.names(["Ana", "Bo", "", "Dee"])  # --names, once the laptop's side is up
    clock.t += 1.0
    ui.key("enter")  # Meow Heist, four players
    assert rec.steps == [{"wait": 500}, {"names": ["Ana", "Bo", "", "Dee"]}, {"wait": 850},
                         {"station": 1, "press": "ok"}]
    path = rec.save()
    scenario = json.loads(path.read_text())
    scenario["steps"] += [{"expect": {"station": 2, "text": "Bo", "row": 0}},
                          {"expect": {"station": 3, "text": "P3", "row": 0}}]
    path.write_text(json.dumps(scenario))
    result = _headless("--script", str(path))
    assert result.exit_code == 0, result.output


def test_names_reach_a_headless_scenario_and_bad_ones_are_refused(tmp_path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"seed": "n2", "steps": [
        {"station": 1, "press": "ok"},
        {"expect": {"station": 1, "text": "Ana", "row": 0}},
        {"expect": {"station": 4, "text": "Dee", "row": 0}}]}))
    result = _headless("--script", str(script), "--names", "Ana,Bo,-,Dee")
    assert result.exit_code == 0, result.output
    result = _headless("--script", str(script), "--names", "Ana,ana")
    assert result.exit_code != 0
    assert "--names: stations 1 and 2 would both show" in result.output


def test_record_is_for_a_session_played_by_hand(tmp_path):
    script = tmp_path / "s.json"
    script.write_text("[]")
    result = _headless("--script", str(script), "--record", str(tmp_path / "out.json"))
    assert result.exit_code != 0 and "played by hand" in result.output
    assert not (tmp_path / "out.json").exists()


def test_a_session_played_in_a_terminal_is_recorded_and_replays(tmp_path):
    if not hasattr(os, "openpty"):
        return
    from test_sim import Pty

    out = tmp_path / "evening.json"
    term = Pty("--record", str(out), "--no-store", "--seed", "ev1")
    term.read_until(b"catnip setup")
    term.read_until(b"recording to")
    term.type(b"\x1b[B")  # DOWN: Players
    term.read_until(b"Players: 4")
    term.type(b"\r")  # three players
    term.read_until(b"Players: 3")
    term.type(b"\x1b[A")  # UP: Start game
    time.sleep(0.5)
    term.type(b"\r")
    term.read_until(b"Choose a card")
    term.type(b"\r")  # P1 locks a card
    term.read_until(b"Locked in")
    assert term.quit() == 0
    data = json.loads(out.read_text())
    assert data["seed"] == "ev1" and data["board"] == "direct"
    presses = [s for s in data["steps"] if "press" in s for _ in range(s.get("times", 1))]
    assert [(s["station"], s["press"]) for s in presses] == [
        (1, "down"), (1, "ok"), (1, "up"), (1, "ok"), (1, "ok")]
    data["steps"] += [{"expect": {"station": 1, "text": "Locked in"}},
                      {"expect": {"station": 4, "text": "table", "row": 0}}]
    out.write_text(json.dumps(data))
    result = _headless("--script", str(out))
    assert result.exit_code == 0, result.output


def test_a_headless_scenario_takes_every_option_it_can_use(tmp_path):
    """--script --headless with --board, --stations, --journal, --seed,
    --snapshots, --store and --names together: each does its part."""
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"steps": [
        {"expect": {"station": 5, "text": "You: Eve"}},
        {"station": 5, "snap": "eve"}]}))
    flash, store = tmp_path / "flash", tmp_path / "games.sqlite3"
    flash.mkdir()
    result = CliRunner().invoke(main, [
        "sim", "--headless", "--script", str(script), "--board", "mux", "--stations", "5",
        "--journal", str(flash), "--seed", "all2", "--snapshots", str(tmp_path / "png"),
        "--store", str(store), "--names", "Ana,Bo,-,Dee,Eve"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "png" / "eve.png").exists()
    assert json.loads((flash / "names.json").read_text())["boards"]["mux"][4] == "Eve"


def test_options_that_cannot_go_together_say_why_and_do_nothing(tmp_path):
    script = tmp_path / "s.json"
    script.write_text("[]")
    for args, why in ((("--serve", "8123"), "--serve follows the table as you play it"),
                      (("--record", str(tmp_path / "r.json")), "played by hand")):
        result = _headless("--script", str(script), *args)
        assert result.exit_code != 0 and why in result.output, (args, result.output)
        assert not (tmp_path / "r.json").exists()


def test_a_long_pause_is_recorded_as_no_longer_than_the_table_times_anything():
    clock = Clock()
    rec = sim.Recorder(SCENARIOS / "unused.json", "direct", "p1", None, clock)
    clock.t += 83.0  # the players talked it over
    rec.add({"station": 1, "press": "ok"})
    assert rec.steps == [{"wait": 6000}, {"station": 1, "press": "ok"}]


STOP_AT_THE_END = """
import json, sys
from catnip import board as boards
from devsim.virtual_script import do_step
from devsim.virtual_table import VirtualTable
data = json.load(open(sys.argv[1]))
root = boards.__file__.rsplit("/", 2)[0]
vt = VirtualTable(boards.parse(json.load(open(root + "/boards/direct.json"))), ".",
                  lambda m: None, seed=data["seed"])
steps = []
for step in data["steps"]:
    for _ in range(step.get("times", 1)):
        one = dict(step)
        one.pop("times", None)
        do_step(vt, one)
        steps.append(one)
        if vt.app.game is not None and vt.app.game.result() is not None:
            data["steps"] = steps
            print(json.dumps(data))
            raise SystemExit(0)
"""


def test_a_script_that_stops_at_the_last_move_still_ends_with_the_standings(tmp_path):
    """A recording that stops right after the last move, its announcements
    still up, ends with the standings all the same (they come in their time)."""
    import mpunix

    cutter = tmp_path / "cut.py"
    cutter.write_text(STOP_AT_THE_END)
    scenario = SCENARIOS / "heist-2p.json"
    proc = mpunix.run([str(cutter), str(scenario)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    script = tmp_path / "stopped.json"
    script.write_text(proc.stdout)
    steps = json.loads(proc.stdout)["steps"]
    assert "press" in steps[-1] and all("standings" not in s.get("expect", {}) for s in steps)
    result = _headless("--script", str(script))
    assert result.exit_code == 0, result.output
    standings = json.loads(scenario.read_text())["standings"]
    assert result.stdout.splitlines()[1:3] == ["  " + s for s in standings], result.output
