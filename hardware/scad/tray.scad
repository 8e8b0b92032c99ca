// The load-cell tray: a platform on one bar cell (or four, one under each corner) above a base
// plate. Everything is a parameter; override any of them with openscad -D name=value.
//
//   openscad -o top.stl -D 'part="top"' hardware/scad/tray.scad
//   openscad -o bottom.stl -D 'part="bottom"' -D cells=4 hardware/scad/tray.scad
//   openscad -o top.svg -D 'part="top_template"' hardware/scad/tray.scad   (1:1 drilling template)

part = "all";        // top, bottom, spacer, all; top_template, bottom_template (2D, for printing)
cells = 1;           // 1: one bar under the middle; 4: one under each corner
base_w = 120;        // the cat base's footprint, mm: measure yours
base_d = 120;
margin = 10;         // platform beyond the base all round: cats that fall leave the tray
plate_t = 3;         // plywood or acrylic
bottom_margin = 10;  // the bottom plate beyond the platform

// A common 80 mm bar cell (1 kg or 500 g): check your cell's drawing.
bar_l = 80;
bar_w = 12.7;
hole_inset = 5;      // from each end of the bar to its first hole
hole_pitch = 10;     // between the two holes at each end
fixed_hole_d = 4.5;  // M4 clearance, the end screwed to the bottom plate
load_hole_d = 5.5;   // M5 clearance, the end under the platform
spacer_t = 3;        // lifts the bar off each plate so its middle can bend
stop_d = 3.2;        // M3 overload-stop screw under the free end
corner_inset = 12;   // four cells: the load end's first hole from the platform's corner

$fn = 48;

top_w = base_w + 2 * margin;
top_d = base_d + 2 * margin;
bottom_w = top_w + 2 * bottom_margin;
bottom_d = top_d + 2 * bottom_margin;

// Hole centres along a bar lying on +x from its fixed end at the origin.
function fixed_holes() = [hole_inset, hole_inset + hole_pitch];
function load_holes() = [bar_l - hole_inset, bar_l - hole_inset - hole_pitch];

// Where each bar lies: [x, y] of its fixed end and its direction in degrees. One cell sits
// centred under the platform. Four run along the edges like a pinwheel, each with its load end
// under a corner, so no bar crosses another.
reach = bar_l - hole_inset;  // from the fixed end to the load end's first hole
corners = [[1, 1, 0], [-1, 1, 90], [-1, -1, 180], [1, -1, 270]];
function bars() = cells == 1
    ? [[[-bar_l / 2, 0], 0]]
    : [for (c = corners)
        [[c[0] * (top_w / 2 - corner_inset) - reach * cos(c[2]),
          c[1] * (top_d / 2 - corner_inset) - reach * sin(c[2])], c[2]]];

assert(cells == 1 || cells == 4, "cells is 1 or 4");
assert(cells == 1 || min(top_w, top_d) - 2 * corner_inset > reach + bar_w / 2,
       "four bars do not fit under this platform: use shorter bars or a larger platform");

module holes_2d(at, d) {
    for (bar = bars())
        translate(bar[0]) rotate(bar[1])
            for (x = at) translate([x, 0]) circle(d = d);
}

module top_2d() {
    difference() {
        square([top_w, top_d], center = true);
        holes_2d(load_holes(), load_hole_d);
    }
}

module bottom_2d() {
    difference() {
        square([bottom_w, bottom_d], center = true);
        holes_2d(fixed_holes(), fixed_hole_d);
        holes_2d([bar_l - 1.5], stop_d);  // the overload stop, under the bar's free end
    }
}

module spacer_2d() {
    difference() {
        square([2 * hole_inset + hole_pitch, bar_w]);
        for (x = [hole_inset, hole_inset + hole_pitch]) translate([x, bar_w / 2]) circle(d = load_hole_d);
    }
}

// Each printable part echoes its overall size (`make stl` checks its STL against it).
if (part == "top") {
    echo(size = [top_w, top_d, plate_t]);
    linear_extrude(plate_t) top_2d();
} else if (part == "bottom") {
    echo(size = [bottom_w, bottom_d, plate_t]);
    linear_extrude(plate_t) bottom_2d();
} else if (part == "spacer") {
    echo(size = [2 * hole_inset + hole_pitch, bar_w, spacer_t]);
    linear_extrude(spacer_t) spacer_2d();
}
else if (part == "top_template") top_2d();
else if (part == "bottom_template") bottom_2d();
else {
    color("tan") linear_extrude(plate_t) bottom_2d();
    color("burlywood") translate([0, 0, plate_t + 2 * spacer_t + bar_w]) linear_extrude(plate_t) top_2d();
}
