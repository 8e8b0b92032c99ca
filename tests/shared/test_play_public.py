# micropython-only: the screens draw into MicroPython's built-in framebuf.
#
# A game in play makes its public view once for each state of the game, and
# every station's view from a copy of it (catnip.ui.play.Public). So
# drawing a screen, pressing on it or answering its tray must leave that
# view as the game would make it afresh, and a move must show at once: the
# views here are checked against the game's own after every press and move,
# over a whole game of each title at its largest count, every setting.
import tablebot
from catnip.keys import PRESS
from catnip.rules import RuleError
from catnip.rules import new as new_game
from catnip.ui.play import Play
from catnip.ui.setup import player_range
from screencheck import Checked
from tablepolicy import choose
from test_screen_census import _TraySide, combos


def _fresh(scene, station):
    """The view `station` would have from the game itself, cache or none."""
    seat = scene.seat(station)
    v = scene.game.view(seat) if seat is not None else scene.game.public()
    scene._extra(v, seat)
    if seat is not None and seat == scene.game.corrector():
        v["fix"] = True
    return v


def _drawn_and_checked(scene, stations, fb):
    for k in range(stations):
        scene.draw(k, fb)
    scene.draw_table(fb)
    assert scene.public.view() == scene.game.public(), "drawing changed the public view"
    for k in range(stations):
        assert scene.view(k) == _fresh(scene, k), "station %d" % (k + 1)


def _play(name, options):
    players = player_range(name, options)[1]
    stations = players + 1  # one station seats nobody: it shows the public view
    try:
        game = new_game(name, dict(options, players=players), "public %s" % name)
    except RuleError:
        return 0  # a combination the rules refuse at setup
    scene = Play(name, game, list(range(players)), stations,
                 _TraySide() if name == "stack" else None)
    fb = Checked()
    for presses in range(20000):
        if game.result() is not None:
            break
        seat, action = choose(game, name)
        out = scene.key(seat, tablebot.press_for(scene, seat, action), PRESS)
        scene.draw(seat, fb)
        assert scene.public.view() == game.public(), "a press changed the public view"
        if out is None:
            continue
        try:
            events = game.act(out[1], out[2])
        except RuleError as e:
            scene.refused(out[1], str(e))
            continue
        scene.announce(events, 0)
        _drawn_and_checked(scene, stations, fb)
    else:
        raise AssertionError("%s %r did not end" % (name, options))
    _drawn_and_checked(scene, stations, fb)
    return 1


def _every(name):
    played = sum(_play(name, options) for options in combos(name))
    assert played > 0, "no %s setting was played" % name


def test_meow_heist_stations_draw_what_the_game_shows():
    _every("heist")


def test_stack_stations_draw_what_the_game_shows():
    _every("stack")


def test_purrfect_stations_draw_what_the_game_shows():
    _every("purrfect")
