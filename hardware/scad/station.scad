// A station's enclosure: an open box with the RJ45 socket in its back wall, and a lid that
// shows the OLED and takes the four buttons in a row (up, down, ok, back, left to right).
// Every size is a parameter; override with openscad -D name=value.
//
//   openscad -o box.stl -D 'part="box"' hardware/scad/station.scad
//   openscad -o lid.stl -D 'part="lid"' hardware/scad/station.scad
//   openscad -o lid.svg -D 'part="lid_template"' hardware/scad/station.scad   (1:1 template)

part = "all";            // box, lid, lid_template (2D), all
inner = [84, 56, 26];    // room for a 50 x 70 mm perfboard and the modules on it
wall = 2;
corner_post = 7;         // square posts in the corners for the lid's screws
screw_d = 2.8;           // M3 self-tapping into the posts
lid_screw_d = 3.4;       // M3 clearance in the lid

// The 0.96 in SSD1306 module: its glass and its mounting holes (check your module).
window = [26, 14];       // the visible glass, a little larger than its 21.7 x 10.9 active area
window_at = [0, 12];     // window centre from the lid's centre
oled_holes = [23.5, 23.8];  // mounting hole spacing, M2
oled_hole_d = 2.2;
oled_glass_offset = -2.5;   // the glass sits this far above the module's hole pattern centre

// Buttons: 12 x 12 mm tactile switches with round caps.
buttons = 4;
button_hole_d = 12.4;
button_pitch = 18;
buttons_at = -14;        // the row's centre line from the lid's centre

// The RJ45 breakout's socket opening in the back wall.
rj45 = [16.5, 14];
rj45_z = 9;              // opening's centre above the floor

$fn = 48;

outer = [inner[0] + 2 * wall, inner[1] + 2 * wall, inner[2] + wall];

module lid_2d() {
    difference() {
        square([outer[0], outer[1]], center = true);
        translate(window_at) square(window, center = true);
        translate([window_at[0], window_at[1] - oled_glass_offset])
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * oled_holes[0] / 2, sy * oled_holes[1] / 2]) circle(d = oled_hole_d);
        for (i = [0 : buttons - 1])
            translate([(i - (buttons - 1) / 2) * button_pitch, buttons_at]) circle(d = button_hole_d);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (inner[0] - corner_post) / 2, sy * (inner[1] - corner_post) / 2])
                circle(d = lid_screw_d);
    }
}

module box() {
    difference() {
        translate([-outer[0] / 2, -outer[1] / 2, 0]) cube(outer);
        translate([-inner[0] / 2, -inner[1] / 2, wall]) cube([inner[0], inner[1], inner[2] + 1]);
        translate([0, outer[1] / 2 - wall / 2, wall + rj45_z])
            cube([rj45[0], wall + 2, rj45[1]], center = true);
    }
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (inner[0] - corner_post) / 2, sy * (inner[1] - corner_post) / 2, wall])
            difference() {
                translate([-corner_post / 2, -corner_post / 2, 0]) cube([corner_post, corner_post, inner[2]]);
                cylinder(d = screw_d, h = inner[2] + 1);
            }
}

assert(buttons * button_pitch <= inner[0], "the buttons do not fit across the lid");
assert(window[1] / 2 + window_at[1] < inner[1] / 2, "the OLED window runs off the lid");

if (part == "box") box();
else if (part == "lid") linear_extrude(wall) lid_2d();
else if (part == "lid_template") lid_2d();
else {
    box();
    translate([0, 0, outer[2] + 10]) linear_extrude(wall) lid_2d();
}
