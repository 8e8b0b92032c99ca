// A station's enclosure: an open box that holds the 50 x 70 mm perfboard on four stand-offs
// under two snap clips, the RJ45 breakout on its floor with the socket in the back wall, and a
// lid that shows the OLED and takes the four buttons in a row (up, down, ok, back, left to
// right). The OLED module is soldered to the perfboard by its own pin header and rests against
// four stand-offs under the lid whose pegs go through the module's M2 holes, so the glass sits
// just under the window. Every size is a parameter; override with openscad -D name=value.
//
//   openscad -o box.stl -D 'part="box"' hardware/scad/station.scad
//   openscad -o lid.stl -D 'part="lid"' hardware/scad/station.scad     (printed face down)
//   openscad -o lid.svg -D 'part="lid_template"' hardware/scad/station.scad   (1:1 template)
//
// `make stl` renders both into hardware/stl/; each part echoes its overall size.

part = "all";            // box, lid, lid_template (2D), all
inner = [90, 58, 26];    // the perfboard lies between the lid's corner posts
wall = 2;
corner_post = 7;         // square posts in the corners for the lid's screws
screw_d = 2.8;           // M3 self-tapping into the posts
lid_screw_d = 3.4;       // M3 clearance in the lid

// The perfboard, and the clearance around it in its clips.
board = [70, 50, 1.6];
board_gap = 0.3;
standoff_d = 6;          // under the board's corners
standoff_in = 4;         // their centres this far in from the board's edges
clip = [1.6, 10];        // each clip's thickness and width (the short sides' middles)
clip_lip = 0.8;          // how far its lip reaches over the board

// The 0.96 in SSD1306 module: 27.3 x 27.8 mm with four M2 holes (module specification, e.g.
// LCKFB's wiki for the 4-pin I2C module; check yours). It stands on its 2.54 mm pin header,
// soldered to the perfboard: header plastic, module board and glass panel, bottom to top.
oled_module = [27.3, 27.8];
oled_holes = [23.5, 23.8];  // mounting hole spacing, M2
oled_hole_d = 2.2;          // in a bought box's lid (the template): M2 screws
oled_stack = [2.5, 1.2, 1.6];
oled_peg_d = 1.8;           // into the module's 2 mm holes
window = [26, 14];          // the visible glass, a little larger than its 21.7 x 10.9 active area
window_at = [0, 12];        // window centre from the lid's centre
oled_glass_offset = -2.5;   // the glass sits this far above the module's hole pattern centre

// Buttons: 12 x 12 mm tactile switches with caps, soldered to the perfboard.
buttons = 4;
button_hole_d = 12.4;
button_pitch = 18;
buttons_at = -14;        // the row's centre line from the lid's centre

// The RJ45 breakout's socket opening in the back wall.
rj45 = [16.5, 14];
rj45_z = 9;              // opening's centre above the floor

$fn = 48;

outer = [inner[0] + 2 * wall, inner[1] + 2 * wall, inner[2] + wall];
standoff_h = oled_stack[2] + 0.4;  // the glass clears the lid's underside
// The board's top: the module's board rests on the stand-offs under the lid.
board_top = outer[2] - standoff_h - oled_stack[1] - oled_stack[0];
board_z = board_top - board[2];
oled_centre = [window_at[0], window_at[1] - oled_glass_offset];
post_at = [(inner[0] - corner_post) / 2, (inner[1] - corner_post) / 2];

module lid_2d(screw_holes = true) {
    difference() {
        square([outer[0], outer[1]], center = true);
        translate(window_at) square(window, center = true);
        if (screw_holes)
            translate(oled_centre)
                for (sx = [-1, 1], sy = [-1, 1])
                    translate([sx * oled_holes[0] / 2, sy * oled_holes[1] / 2]) circle(d = oled_hole_d);
        for (i = [0 : buttons - 1])
            translate([(i - (buttons - 1) / 2) * button_pitch, buttons_at]) circle(d = button_hole_d);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * post_at[0], sy * post_at[1]]) circle(d = lid_screw_d);
    }
}

// The printed lid, in use: its top face at z = wall, stand-offs and pegs below its underside.
module lid() {
    linear_extrude(wall) lid_2d(screw_holes = false);
    translate(oled_centre)
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * oled_holes[0] / 2, sy * oled_holes[1] / 2, 0]) {
                translate([0, 0, -standoff_h]) cylinder(d = oled_peg_d + 2, h = standoff_h + 0.5);
                translate([0, 0, -standoff_h - oled_stack[1]]) cylinder(d = oled_peg_d, h = oled_stack[1] + 0.5);
            }
}

// A snap clip at x = side * (the board's half length): a tab from the floor whose lip holds
// the board's end down, sloped above so the board pushes the tab aside on its way in.
module board_clip(side) {
    x0 = board[0] / 2 + board_gap;
    base = wall - 0.5;
    under = board_top + 0.1 - base;  // the lip's underside, above the tab's foot
    top = under + 1.6;
    profile = [[0, 0], [clip[0], 0], [clip[0], top], [0, top], [-clip_lip, under + 0.4],
               [-clip_lip, under], [0, under]];
    translate([side * x0, 0, base])
        mirror([side < 0 ? 1 : 0, 0, 0])
            rotate([90, 0, 0]) linear_extrude(clip[1], center = true) polygon(profile);
}

module box() {
    difference() {
        translate([-outer[0] / 2, -outer[1] / 2, 0]) cube(outer);
        translate([-inner[0] / 2, -inner[1] / 2, wall]) cube([inner[0], inner[1], inner[2] + 1]);
        translate([0, outer[1] / 2 - wall / 2, wall + rj45_z])
            cube([rj45[0], wall + 2, rj45[1]], center = true);
    }
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * post_at[0], sy * post_at[1], wall - 0.5])
            difference() {
                translate([-corner_post / 2, -corner_post / 2, 0]) cube([corner_post, corner_post, inner[2] + 0.5]);
                cylinder(d = screw_d, h = inner[2] + 1);
            }
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (board[0] / 2 - standoff_in), sy * (board[1] / 2 - standoff_in), wall - 0.5])
            cylinder(d = standoff_d, h = board_z - wall + 0.5);
    board_clip(1);
    board_clip(-1);
}

assert(buttons * button_pitch <= inner[0], "the buttons do not fit across the lid");
assert(window[1] / 2 + window_at[1] < inner[1] / 2, "the OLED window runs off the lid");
assert(board[0] / 2 + board_gap + clip[0] < post_at[0] - corner_post / 2,
       "the perfboard and its clips do not fit between the corner posts");
assert(board[1] + 2 * board_gap < inner[1], "the perfboard does not fit across the box");
assert(board_z > wall + rj45_z + rj45[1] / 2, "the RJ45 socket does not fit under the perfboard");

if (part == "box") {
    echo(size = outer);
    box();
} else if (part == "lid") {
    echo(size = [outer[0], outer[1], wall + standoff_h + oled_stack[1]]);
    rotate([180, 0, 0]) lid();
} else if (part == "lid_template") lid_2d();
else {
    box();
    translate([0, 0, outer[2]]) lid();
}
