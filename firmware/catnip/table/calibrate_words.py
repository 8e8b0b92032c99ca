# What a tray calibration says to a person (catnip.table.calibrate runs the
# steps): the tray's refusals in plain words, a refused capture's reason,
# and a calibration's figures in whole numbers. It imports nothing; loaded
# and unloaded with catnip.table.calibrate.


# The tray's refusals by the field they name, for a person at the table.
PLAIN = {
    "rate_hz": "board.json gives the tray a rate its HX711s cannot have: 10 or 80 readings a "
               "second, as their RATE pins are wired",
    "cells": "board.json gives the tray a number of load cells catnip cannot use: one, or "
             "four under the corners",
    "cats": "a calibration takes at most 200 cats: save now",
    "per_cat": "one cat moves the reading more than the tray can count: use a load cell for a "
               "heavier load (5 kg rather than 1 kg)",
    "cat_sd": "these cats differ in weight by half a cat or more: weigh cats of one set, and "
              "start over",
    "noise": "the readings are too noisy to tell one cat from the next: check the load cell's "
             "wiring, keep its cable short and twisted, and start over",
    "raw": "a reading was not a load-cell count: check the HX711's wiring",
    "zero": "the empty base reads at the end of the load cell's range: check its wiring",
    "sign": "the load cells move opposite ways under load: check their wiring",
}


class Refused(ValueError):
    """A step that cannot be taken now: the message says why and what to do."""


def plain(error):
    """A TrayError in words for a person: by the field it names, else its own
    message (the tray's messages without a field say what to do)."""
    text = PLAIN.get(error.field) or str(error)
    return text[0].upper() + text[1:]


def again(why):
    """A refused capture's reason, without the station's "press OK"."""
    for tail in (", then press OK again", "; press OK again"):
        if why.endswith(tail):
            why = why[:-len(tail)]
    return why[0].upper() + why[1:] + ". Weigh again."


def permille(part, whole):
    return part * 1000 // whole if whole else 0


def figures(cal, corners):
    """What a person wants to know of a calibration, in whole numbers;
    `corners`: how many corners were weighed (4: each cell's gain too)."""
    out = {"per_cat": cal.per_cat, "cat_sd": cal.cat_sd, "noise": cal.noise,
           "sd_pm": permille(cal.cat_sd, cal.per_cat),
           "noise_pm": permille(cal.noise, cal.per_cat), "sign": cal.sign}
    if corners == 4:
        out["gain_pm"] = [g * 1000 // 1024 for g in cal.gain]
    return out
