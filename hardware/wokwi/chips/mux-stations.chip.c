/* The mux board's stations for Wokwi: a TCA9548A I2C multiplexer and, on each
 * of its channels, one station: an SSD1306 OLED (128 x 64) and a PCF8574 whose
 * P0-P3 read the station's up, down, ok and back buttons. Wokwi has no part
 * for the mux or the expander, and a chip cannot pass the bus on to Wokwi's
 * own SSD1306 parts, so this one chip is all of it: it listens at every I2C
 * address (address 0 in Wokwi's I2C API) and answers the mux's own address
 * and, on the channels switched on, each station's OLED and expander. Its
 * display shows the eight screens, four to a row.
 *
 * TCA9548A (TI datasheet, "Control Register"): one byte, bit n connects
 * channel n; several may be on. RESET low clears it. Power-up: none on.
 * PCF8574 (TI SCPS068): a write sets the latch; a pin whose latch bit is 1 is
 * held up weakly and reads what a button pulls it to; INT (open drain, shared
 * by all stations here) is low while the inputs differ from what the last
 * read or write of that expander saw.
 * SSD1306 (Solomon Systech datasheet Rev 1.1): after its address, a control
 * byte (Co, D/C#) says whether commands or GDDRAM data follow (8.1.5); the
 * GDDRAM is 8 pages of 128 columns, LSB on top (8.7); the addressing modes
 * and windows of section 10. What the glass shows follows devsim's model of
 * the same chip (devsim/models/ssd1306.py): scan direction, COM pin
 * configuration and a 64-row module wired for the alternative one. */
#include <stdlib.h>
#include <string.h>

#include "wokwi-api.h"

#define STATIONS 8
#define WIDTH 128
#define ROWS 64
#define PER_ROW 4           /* screens side by side on the chip's display */
#define LIT 0xFFF0D8A0u     /* RGBA bytes A0 D8 F0 FF in memory: a pale blue pixel */
#define DARK 0xFF101010u
#define FRAME_US 40000      /* the display redraws changed screens 25 times a second */

enum { HORIZONTAL = 0, VERTICAL = 1, PAGE = 2 };
enum { NONE, MUX, OLED, EXPANDER };

typedef struct {
  uint8_t ram[WIDTH * ROWS / 8];
  bool on, pump, entire, inverted, seg_remap, com_remap, dirty;
  int mode, col_start, col_end, page_start, page_end, col, page, page_col_start;
  int start_line, offset, mux, com_pins;
  uint8_t cmd[8];  /* a command still waiting for its parameters */
  int have, need;
} oled_t;

typedef struct {
  uint8_t latch, seen;
} expander_t;

typedef struct {
  pin_t int_pin, reset;
  pin_t button[STATIONS][4];
  uint32_t mux_address, expander_address, oled_address;
  int stations;
  uint8_t control;
  oled_t oled[STATIONS];
  expander_t io[STATIONS];
  /* The transaction under way: what it addresses, on which channels, and
   * the SSD1306 stream's state (control byte next, data or commands, Co). */
  int target;
  uint8_t channels;
  bool control_next, is_data, single;
  buffer_t fb;
  uint32_t fb_width, fb_height;
} chip_t;

static const char *const BUTTONS[4] = {"UP", "DOWN", "OK", "BACK"};

int wokwi_api_version_1(void) { return 1; }

/* ---- SSD1306 ---------------------------------------------------------- */

static int command_length(uint8_t op) {
  switch (op) {
    case 0x81: case 0x20: case 0x23: case 0x8D: case 0xA8: case 0xD3: case 0xD5: case 0xD6:
    case 0xD9: case 0xDA: case 0xDB:
      return 2;
    case 0x21: case 0x22: case 0xA3:
      return 3;
    case 0x29: case 0x2A:
      return 6;
    case 0x26: case 0x27:
      return 7;
    default:
      return 1;
  }
}

static void oled_reset(oled_t *o) {
  memset(o, 0, sizeof(*o));
  o->mode = PAGE;
  o->col_end = WIDTH - 1;
  o->page_end = 7;
  o->mux = ROWS;
  o->com_pins = 0x12;
  o->dirty = true;
}

static void oled_execute(oled_t *o) {
  uint8_t op = o->cmd[0], a = o->cmd[1], b = o->cmd[2];
  if (op < 0x10) {
    o->page_col_start = (o->page_col_start & 0xF0) | op;
    o->col = o->page_col_start;
  } else if (op < 0x20) {
    o->page_col_start = (o->page_col_start & 0x0F) | ((op & 0x07) << 4);
    o->col = o->page_col_start;
  } else if (op == 0x20) {
    if ((a & 3) != 3) o->mode = a & 3;
  } else if (op == 0x21) {
    o->col_start = a & 0x7F;
    o->col_end = b & 0x7F;
    o->col = o->col_start;
  } else if (op == 0x22) {
    o->page_start = a & 7;
    o->page_end = b & 7;
    o->page = o->page_start;
  } else if (op >= 0x40 && op < 0x80) {
    o->start_line = op & 0x3F;
  } else if (op == 0x8D) {
    o->pump = a & 0x04;
  } else if (op == 0xA0 || op == 0xA1) {
    o->seg_remap = op == 0xA1;
  } else if (op == 0xA4 || op == 0xA5) {
    o->entire = op == 0xA5;
  } else if (op == 0xA6 || op == 0xA7) {
    o->inverted = op == 0xA7;
  } else if (op == 0xA8) {
    if ((a & 0x3F) >= 15) o->mux = (a & 0x3F) + 1;
  } else if (op == 0xAE || op == 0xAF) {
    o->on = op == 0xAF;
  } else if (op >= 0xB0 && op < 0xB8) {
    o->page = op & 7;
  } else if (op == 0xC0 || op == 0xC8) {
    o->com_remap = op == 0xC8;
  } else if (op == 0xD3) {
    o->offset = a & 0x3F;
  } else if (op == 0xDA) {
    o->com_pins = a & 0x32;
  }
  o->dirty = true;
}

static void oled_data(oled_t *o, uint8_t value) {
  int seg = o->seg_remap ? WIDTH - 1 - o->col : o->col;
  o->ram[o->page * WIDTH + seg] = value;
  if (o->mode == HORIZONTAL) {
    if (o->col < o->col_end) {
      o->col++;
    } else {
      o->col = o->col_start;
      o->page = o->page < o->page_end ? o->page + 1 : o->page_start;
    }
  } else if (o->mode == VERTICAL) {
    if (o->page < o->page_end) {
      o->page++;
    } else {
      o->page = o->page_start;
      o->col = o->col < o->col_end ? o->col + 1 : o->col_start;
    }
  } else {
    o->col = o->col < WIDTH - 1 ? o->col + 1 : o->page_col_start;
  }
  o->dirty = true;
}

static void oled_byte(oled_t *o, uint8_t value, bool is_data) {
  if (is_data) {
    oled_data(o, value);
    return;
  }
  if (o->have == 0) o->need = command_length(value);
  o->cmd[o->have++] = value;
  if (o->have == o->need) {
    oled_execute(o);
    o->have = 0;
  }
}

/* The glass row a scan line lands on, or -1: the COM output the scan
 * direction picks, the pad the COM pin configuration routes it to, and the
 * 64-row module's wiring (made for the alternative configuration). */
static int glass_y(const oled_t *o, int line) {
  int com = (line + o->offset) % ROWS;
  if (o->com_remap) com = ((o->mux - 1 - com) % ROWS + ROWS) % ROWS;
  bool alternative = o->com_pins & 0x10, swap = o->com_pins & 0x20;
  int pad = alternative ? 2 * (com % 32) + ((com / 32) ^ (swap ? 1 : 0))
                        : (swap ? (com + 32) % 64 : com);
  int glass = pad / 2 + (pad & 1 ? 32 : 0);
  return ROWS - 1 - glass;
}

static void oled_draw(chip_t *chip, int k) {
  oled_t *o = &chip->oled[k];
  static uint32_t screen[ROWS][WIDTH];
  for (int y = 0; y < ROWS; y++)
    for (int x = 0; x < WIDTH; x++) screen[y][x] = DARK;
  if (o->on && o->pump) {
    for (int line = 0; line < o->mux; line++) {
      int y = glass_y(o, line);
      if (y < 0) continue;
      int row = (line + o->start_line) % ROWS;
      for (int seg = 0; seg < WIDTH; seg++) {
        bool bit = (o->ram[(row >> 3) * WIDTH + seg] >> (row & 7)) & 1;
        /* The module's glass runs from SEG127 at the left to SEG0. */
        if (o->entire || bit != o->inverted) screen[y][WIDTH - 1 - seg] = LIT;
      }
    }
  }
  uint32_t left = (k % PER_ROW) * WIDTH, top = (k / PER_ROW) * ROWS;
  for (int y = 0; y < ROWS; y++)
    buffer_write(chip->fb, ((top + y) * chip->fb_width + left) * 4, screen[y], WIDTH * 4);
  o->dirty = false;
}

static void on_frame(void *user_data) {
  chip_t *chip = user_data;
  for (int k = 0; k < chip->stations; k++)
    if (chip->oled[k].dirty) oled_draw(chip, k);
}

/* ---- PCF8574 and INT -------------------------------------------------- */

static uint8_t port(chip_t *chip, int k) {
  uint8_t value = chip->io[k].latch;
  for (int b = 0; b < 4; b++)
    if (!pin_read(chip->button[k][b])) value &= ~(1u << b);  /* pressed: pulled low */
  return value;
}

static void signal_int(chip_t *chip) {
  bool pending = false;
  for (int k = 0; k < chip->stations; k++) pending |= port(chip, k) != chip->io[k].seen;
  pin_mode(chip->int_pin, pending ? OUTPUT_LOW : INPUT);
}

static void on_button(void *user_data, pin_t pin, uint32_t value) {
  (void)pin;
  (void)value;
  signal_int(user_data);
}

static void on_reset(void *user_data, pin_t pin, uint32_t value) {
  chip_t *chip = user_data;
  (void)pin;
  if (value == LOW) chip->control = 0;
}

/* ---- the I2C side ----------------------------------------------------- */

static bool on_connect(void *user_data, uint32_t address, bool read) {
  chip_t *chip = user_data;
  (void)read;
  chip->channels = 0;
  chip->target = NONE;
  chip->control_next = true;
  chip->single = false;
  if (address == chip->mux_address) {
    chip->target = MUX;
    return true;
  }
  int kind = address == chip->oled_address ? OLED
             : address == chip->expander_address ? EXPANDER : NONE;
  for (int k = 0; k < chip->stations; k++)
    if (chip->control >> k & 1) chip->channels |= 1u << k;
  if (kind == NONE || !chip->channels) return false;  /* nobody answers: NACK */
  chip->target = kind;
  return true;
}

static uint8_t on_read(void *user_data) {
  chip_t *chip = user_data;
  if (chip->target == MUX) return chip->control;
  uint8_t value = 0xFF;  /* open drain: every selected device pulls the bus */
  for (int k = 0; k < chip->stations; k++) {
    if (!(chip->channels >> k & 1)) continue;
    if (chip->target == EXPANDER) {
      chip->io[k].seen = port(chip, k);
      value &= chip->io[k].seen;
    } else if (chip->target == OLED) {
      value &= chip->oled[k].on ? 0x00 : 0x40;  /* status: bit 6 while off */
    }
  }
  if (chip->target == EXPANDER) signal_int(chip);
  return value;
}

static bool on_write(void *user_data, uint8_t data) {
  chip_t *chip = user_data;
  if (chip->target == MUX) {
    chip->control = data;
    return true;
  }
  if (chip->target == EXPANDER) {
    for (int k = 0; k < chip->stations; k++) {
      if (!(chip->channels >> k & 1)) continue;
      chip->io[k].latch = data;
      chip->io[k].seen = port(chip, k);
    }
    signal_int(chip);
    return true;
  }
  if (chip->control_next) {  /* an SSD1306 control byte: Co, D/C#, then six zeros */
    chip->is_data = data & 0x40;
    chip->single = data & 0x80;
    chip->control_next = false;
    return (data & 0x3F) == 0;
  }
  for (int k = 0; k < chip->stations; k++)
    if (chip->channels >> k & 1) oled_byte(&chip->oled[k], data, chip->is_data);
  if (chip->single) chip->control_next = true;
  return true;
}

static void on_disconnect(void *user_data) {
  chip_t *chip = user_data;
  chip->target = NONE;
}

/* ---- set-up ------------------------------------------------------------ */

void chip_init(void) {
  chip_t *chip = calloc(1, sizeof(chip_t));
  chip->mux_address = (uint32_t)attr_read_float(attr_init_float("address", 0x70));
  chip->expander_address = (uint32_t)attr_read_float(attr_init_float("expanderAddress", 0x20));
  chip->oled_address = (uint32_t)attr_read_float(attr_init_float("oledAddress", 0x3C));
  int stations = (int)attr_read_float(attr_init_float("stations", STATIONS));
  chip->stations = stations < 1 ? 1 : stations > STATIONS ? STATIONS : stations;
  chip->int_pin = pin_init("INT", INPUT);
  chip->reset = pin_init("RESET", INPUT_PULLUP);
  char name[16];
  for (int k = 0; k < STATIONS; k++) {
    oled_reset(&chip->oled[k]);
    chip->io[k].latch = 0xFF;
    for (int b = 0; b < 4; b++) {
      /* "S1_UP" .. "S8_BACK" */
      name[0] = 'S';
      name[1] = (char)('1' + k);
      name[2] = '_';
      strcpy(name + 3, BUTTONS[b]);
      chip->button[k][b] = pin_init(name, INPUT_PULLUP);
    }
  }
  for (int k = 0; k < STATIONS; k++) chip->io[k].seen = port(chip, k);
  const pin_watch_config_t button = {.user_data = chip, .edge = BOTH, .pin_change = on_button};
  for (int k = 0; k < chip->stations; k++)
    for (int b = 0; b < 4; b++) pin_watch(chip->button[k][b], &button);
  const pin_watch_config_t reset = {.user_data = chip, .edge = FALLING, .pin_change = on_reset};
  pin_watch(chip->reset, &reset);
  const i2c_config_t i2c = {
      .user_data = chip,
      .address = 0,  /* every address: the mux's own, and those behind it */
      .scl = pin_init("SCL", INPUT_PULLUP),
      .sda = pin_init("SDA", INPUT_PULLUP),
      .connect = on_connect,
      .read = on_read,
      .write = on_write,
      .disconnect = on_disconnect,
  };
  i2c_init(&i2c);
  chip->fb = framebuffer_init(&chip->fb_width, &chip->fb_height);
  const timer_config_t frame = {.user_data = chip, .callback = on_frame};
  timer_start(timer_init(&frame), FRAME_US, true);
}
