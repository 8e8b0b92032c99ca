// The hub's enclosure: the Pico on four stand-offs with its USB socket at an opening in the
// left wall, one RJ45 socket opening per station in the front wall (each station's breakout
// sits on the floor behind it), a hole in the right wall for the tray's cable, and a lid with
// the buzzer's sound holes. Every size is a parameter; override with openscad -D name=value.
//
//   openscad -o hub.stl -D 'part="box"' -D stations=4 hardware/scad/hub.scad
//   openscad -o hub-lid.stl -D 'part="lid"' -D stations=4 hardware/scad/hub.scad
//
// `make stl` renders both for 4 stations (the direct layout) and 8 (the mux layout) into
// hardware/stl/; each part echoes its overall size.

part = "all";            // box, lid, all
stations = 4;            // RJ45 openings in the front wall
wall = 2;
depth = 70;              // inside, front to back
height = 32;             // inside, floor to lid
corner_post = 7;
screw_d = 2.8;           // M3 self-tapping into the posts
lid_screw_d = 3.4;

// Raspberry Pi Pico datasheet, mechanical drawing: a 51 x 21 mm board with four 2.1 mm holes,
// 11.4 mm apart across it and 2.0 mm from each short end (47.0 mm apart along it); the micro-USB
// socket at one short end, overhanging it by 1.3 mm.
pico = [51, 21];
pico_hole_pitch = [47.0, 11.4];
pico_hole_d = 2.1;
pico_screw_d = 1.8;      // M2 self-tapping into the stand-offs
pico_standoff_d = 5;
// The Pico H's header pins reach 8.5 mm below its board (2.5 mm of plastic, 6 mm of pin); a
// female jumper's housing reaches 8 mm past the pin's tip: 18 mm leaves 1.5 mm to the floor.
pico_standoff_h = 18;
pico_at_y = 12;          // the Pico's centre line behind the box's centre
usb = [12, 8];           // the opening for a micro-USB plug's moulding (width, height)
usb_above_board = 2.6;   // the socket's centre above the Pico's board (1 mm board, 2.8 mm socket)

// RJ45 breakouts on the floor, sockets through the front wall.
rj45 = [16.5, 14];
rj45_z = 9;              // opening's centre above the floor
rj45_pitch = 22;

tray_cable_d = 7;        // the load cells' cable, through the right wall
buzzer_holes = 7;        // sound holes in the lid, over the buzzer
buzzer_at = [-20, -12];  // the buzzer's place from the lid's centre

$fn = 48;

inner = [max(stations * rj45_pitch + 2 * corner_post + 4, 110), depth, height];
outer = [inner[0] + 2 * wall, inner[1] + 2 * wall, inner[2] + wall];
post_at = [(inner[0] - corner_post) / 2, (inner[1] - corner_post) / 2];
// The Pico's centre: its USB end 1 mm from the left wall's inside.
pico_centre = [-inner[0] / 2 + 1 + pico[0] / 2, pico_at_y];
usb_z = wall + pico_standoff_h + usb_above_board;

function pico_holes() = [for (sx = [-1, 1], sy = [-1, 1])
    [pico_centre[0] + sx * pico_hole_pitch[0] / 2, pico_centre[1] + sy * pico_hole_pitch[1] / 2]];

module lid_2d() {
    difference() {
        square([outer[0], outer[1]], center = true);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * post_at[0], sy * post_at[1]]) circle(d = lid_screw_d);
        translate(buzzer_at) {
            circle(d = 2.5);
            for (i = [0 : buzzer_holes - 2])
                rotate(i * 360 / (buzzer_holes - 1)) translate([4, 0]) circle(d = 2.5);
        }
    }
}

module box() {
    difference() {
        translate([-outer[0] / 2, -outer[1] / 2, 0]) cube(outer);
        translate([-inner[0] / 2, -inner[1] / 2, wall]) cube([inner[0], inner[1], inner[2] + 1]);
        for (i = [0 : stations - 1])
            translate([(i - (stations - 1) / 2) * rj45_pitch, -outer[1] / 2 + wall / 2, wall + rj45_z])
                cube([rj45[0], wall + 2, rj45[1]], center = true);
        translate([-outer[0] / 2 + wall / 2, pico_centre[1], usb_z])
            cube([wall + 2, usb[0], usb[1]], center = true);
        translate([outer[0] / 2 - wall / 2, -inner[1] / 4, wall + tray_cable_d])
            rotate([0, 90, 0]) cylinder(d = tray_cable_d, h = wall + 2, center = true);
    }
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * post_at[0], sy * post_at[1], wall - 0.5])
            difference() {
                translate([-corner_post / 2, -corner_post / 2, 0]) cube([corner_post, corner_post, inner[2] + 0.5]);
                cylinder(d = screw_d, h = inner[2] + 1);
            }
    for (p = pico_holes())
        translate([p[0], p[1], wall - 0.5])
            difference() {
                cylinder(d = pico_standoff_d, h = pico_standoff_h + 0.5);
                cylinder(d = pico_screw_d, h = pico_standoff_h + 1);
            }
}

assert(pico_hole_pitch[0] + pico_hole_d < pico[0] && pico_hole_pitch[1] + pico_hole_d < pico[1],
       "the Pico's holes do not fit on its board");
assert(usb_z + usb[1] / 2 < outer[2], "the USB opening runs off the box's top");
assert(pico_centre[1] + pico[1] / 2 < inner[1] / 2, "the Pico runs into the back wall");

if (part == "box") {
    echo(size = outer, pico_holes = pico_holes(), pico_standoff_top = wall + pico_standoff_h);
    box();
} else if (part == "lid") {
    echo(size = [outer[0], outer[1], wall]);
    linear_extrude(wall) lid_2d();
} else {
    box();
    translate([0, 0, outer[2] + 10]) linear_extrude(wall) lid_2d();
}
