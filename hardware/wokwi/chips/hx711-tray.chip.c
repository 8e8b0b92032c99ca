/* The Stack O' Cats tray for Wokwi: one HX711 with its load cell, or four
 * (one under each corner) whose PD_SCK pins share one wire, as catnip's
 * boards wire them (hardware/tray.md). The sliders set the cats on the tray
 * and any other load; each HX711 answers the way the real chip does, noise
 * and drift included, so catnip's tray sees cats as it would at the table.
 *
 * The HX711 (Avia Semiconductor datasheet):
 * - a conversion completes every 100 ms (RATE low, 10 SPS) or 12.5 ms (RATE
 *   high, 80 SPS); DOUT goes low when its word is ready;
 * - each rising edge of PD_SCK puts the next bit on DOUT, MSB first: 24 bits
 *   of two's complement; the 25th pulls DOUT high again. 25, 26 or 27
 *   pulses choose channel A gain 128, channel B gain 32 or channel A gain 64
 *   for the next conversion; outside the range the output saturates at
 *   0x7FFFFF / 0x800000;
 * - PD_SCK high for more than 60 us powers the chip down; PD_SCK low again
 *   resets it to channel A gain 128 and it converts again;
 * - after a reset or an input change the output takes four conversions to
 *   settle (400 ms at 10 SPS, 50 ms at 80 SPS); the first three step from
 *   the old value towards the new one here;
 * - full-scale differential input is +-0.5 AVDD / gain. A bridge excited from
 *   AVDD gives (mV/V) / 1000 * AVDD at its rated load, so AVDD cancels: a
 *   cell of s mV/V rated C grams reads s / 1000 * gain * 2^24 / C counts a
 *   gram (2,147 at gain 128 for 1 mV/V and 1,000 g).
 * One thing the datasheet leaves out, as measured on real chips (olkal/
 * HX711_ADC issue #81): each conversion reloads the output register with
 * DOUT high for about 75 us, whether or not the last word was read. A read
 * that a reload cuts loses its word.
 *
 * The noise is input-referred (the datasheet gives it in nV at gain 128), so
 * in counts it scales with the gain; `noise` is its standard deviation at
 * gain 128. The zero drifts slowly (a random walk pulled back with a time
 * constant of a minute, standard deviation `drift`), as temperature moves a
 * real cell's zero. Cats are not all alike: each weighs `catGrams` times
 * (1 + `catSpread` % times a normal deviate), fixed per cat by `seed`. */
#include <stdlib.h>

#include "wokwi-api.h"

#define MAX_CELLS 4
#define POWER_DOWN_US 60
#define RELOAD_US 75
#define SETTLING_CONVERSIONS 4
#define DRIFT_TAU_S 60.0
#define MAX_CODE 0x7FFFFF
#define MIN_CODE (-0x800000)

enum input { A128 = 1, B32 = 2, A64 = 3 };  /* pulses after the 24 data bits */

typedef struct tray tray_t;

typedef struct {
  tray_t *tray;
  int index;
  pin_t dout;
  timer_t timer;
  bool reloading;   /* DOUT high: the output register is being reloaded */
  bool ready;       /* a word waits on DOUT */
  int pulses;       /* rising edges of PD_SCK since the word became ready */
  uint32_t word;    /* the 24-bit code being shifted out */
  int input;        /* the input of the conversion under way */
  int settled;      /* conversions since a reset or an input change */
  double from;      /* the output the settling filter moves away from */
  double output;    /* the last conversion's value, counts */
  double gain;      /* this cell's sensitivity, relative to the nominal */
  double offset;    /* this cell's own zero, counts at gain 128 */
  double drift;     /* counts at gain 128 */
  uint32_t rng;
} cell_t;

struct tray {
  pin_t sck;
  timer_t power_down;
  bool powered;
  int cells;
  cell_t cell[MAX_CELLS];
  uint32_t cats, grams;                              /* the sliders */
  uint32_t cat_grams, cat_spread, dead_load, capacity, mv_per_v, offset, noise, drift, rate,
      channel_b, seed, cell_spread;
};

int wokwi_api_version_1(void) { return 1; }

/* ---- numbers ---------------------------------------------------------- */

static uint32_t next_random(uint32_t *state) {  /* xorshift32 */
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

static double normal(uint32_t *state) {
  /* The sum of twelve uniforms less six: mean 0, standard deviation 1. */
  double sum = 0;
  for (int k = 0; k < 12; k++) sum += next_random(state) / 4294967296.0;
  return sum - 6.0;
}

static uint32_t mix(uint32_t a, uint32_t b) {  /* a seed from two numbers, never 0 */
  uint32_t x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
  x ^= x >> 15;
  x *= 0xC2B2AE3Du;
  x ^= x >> 13;
  return x ? x : 1;
}

static double attr(uint32_t id) { return attr_read_float(id); }

/* ---- the load --------------------------------------------------------- */

static double cats_grams(tray_t *t) {
  int n = (int)(attr(t->cats) + 0.5);
  double each = attr(t->cat_grams), spread = attr(t->cat_spread) / 100.0, sum = 0;
  for (int i = 0; i < n; i++) {
    uint32_t state = mix((uint32_t)attr(t->seed), 1000u + (uint32_t)i);
    sum += each * (1.0 + spread * normal(&state));
  }
  return sum;
}

/* What one cell's bridge reads at gain 128, before noise: its share of the
 * load (a base centred on the tray puts the same share on every corner). */
static double bridge_counts(tray_t *t, cell_t *c) {
  double load = attr(t->dead_load) + cats_grams(t) + attr(t->grams);
  double per_gram = attr(t->mv_per_v) / 1000.0 * 128.0 * 16777216.0 / attr(t->capacity);
  return c->offset + c->gain * per_gram * load / t->cells;
}

static double period_us(tray_t *t) { return attr(t->rate) >= 80 ? 12500.0 : 100000.0; }

static double convert(tray_t *t, cell_t *c) {
  double dt = period_us(t) / 1e6;
  c->drift += -c->drift * dt / DRIFT_TAU_S
              + attr(t->drift) * __builtin_sqrt(2.0 * dt / DRIFT_TAU_S) * normal(&c->rng);
  double noise = attr(t->noise) * normal(&c->rng);
  switch (c->input) {
    case B32:  /* a separate input: channel B, at gain 32 */
      return attr(t->channel_b) + noise * 32.0 / 128.0;
    case A64:  /* the same bridge at half the gain */
      return (bridge_counts(t, c) + c->drift + noise) / 2.0;
    default:
      return bridge_counts(t, c) + c->drift + noise;
  }
}

/* ---- conversions ------------------------------------------------------ */

static void reload(cell_t *c);

static void word_ready(cell_t *c) {
  tray_t *t = c->tray;
  double target = convert(t, c), value = target;
  c->settled++;
  if (c->settled < SETTLING_CONVERSIONS)
    value = c->from + (target - c->from) * c->settled / SETTLING_CONVERSIONS;
  c->output = value;
  int32_t code = value >= MAX_CODE ? MAX_CODE : value <= MIN_CODE ? MIN_CODE : (int32_t)value;
  c->word = (uint32_t)code & 0xFFFFFF;
  c->reloading = false;
  c->ready = true;
  pin_write(c->dout, LOW);
}

/* A conversion ends: the pulses of the last read choose this conversion's
 * input; the output register reloads with DOUT high, then the word is ready. */
static void reload(cell_t *c) {
  int extra = c->pulses - 24;
  if (extra >= A128 && extra <= A64 && extra != c->input) {
    c->input = extra;
    c->settled = 0;
    c->from = c->output;
  }
  c->pulses = 0;  /* a read this cut short has lost its word */
  c->ready = false;
  c->reloading = true;
  pin_write(c->dout, HIGH);
}

static void on_timer(void *user_data) {
  cell_t *c = user_data;
  tray_t *t = c->tray;
  if (!t->powered) return;
  if (c->reloading) {
    word_ready(c);
    timer_start(c->timer, (uint32_t)period_us(t) - RELOAD_US, false);
  } else {
    reload(c);
    timer_start(c->timer, RELOAD_US, false);
  }
}

/* Power-on or wake-up: channel A gain 128, nothing ready, the filter empty;
 * the first word `first_us` from now. */
static void reset(cell_t *c, uint32_t first_us) {
  c->input = A128;
  c->settled = 0;
  c->from = c->output = 0;
  c->pulses = 0;
  c->ready = false;
  c->reloading = false;
  pin_write(c->dout, HIGH);
  timer_start(c->timer, first_us - RELOAD_US, false);
}

/* ---- the serial interface -------------------------------------------- */

static void clock_rises(tray_t *t) {
  timer_start(t->power_down, POWER_DOWN_US + 1, false);
  for (int i = 0; i < t->cells; i++) {
    cell_t *c = &t->cell[i];
    if (c->reloading) continue;  /* a pulse during a reload is lost */
    if (c->pulses < 24 && (c->ready || c->pulses > 0)) {
      c->pulses++;
      pin_write(c->dout, (c->word >> (24 - c->pulses)) & 1);
    } else if (c->pulses == 24) {
      c->pulses = 25;
      c->ready = false;
      pin_write(c->dout, HIGH);
    } else if (c->pulses >= 25) {
      c->pulses++;  /* the 26th and 27th choose the input */
    }
  }
}

static void on_power_down(void *user_data) {
  tray_t *t = user_data;
  if (!pin_read(t->sck)) return;
  t->powered = false;
  for (int i = 0; i < t->cells; i++) {
    timer_stop(t->cell[i].timer);
    t->cell[i].ready = false;
    pin_write(t->cell[i].dout, HIGH);
  }
}

static void on_sck(void *user_data, pin_t pin, uint32_t value) {
  tray_t *t = user_data;
  (void)pin;
  if (value == HIGH) {
    if (t->powered) clock_rises(t);
    return;
  }
  timer_stop(t->power_down);
  if (!t->powered) {  /* PD_SCK low again: every chip resets and converts */
    t->powered = true;
    for (int i = 0; i < t->cells; i++) reset(&t->cell[i], (uint32_t)period_us(t));
  }
}

/* ---- set-up ------------------------------------------------------------ */

static const char *const DOUT_PINS[MAX_CELLS] = {"DT1", "DT2", "DT3", "DT4"};

void chip_init(void) {
  tray_t *t = calloc(1, sizeof(tray_t));
  t->cats = attr_init_float("cats", 0);
  t->grams = attr_init_float("grams", 0);
  t->cat_grams = attr_init_float("catGrams", 6);
  t->cat_spread = attr_init_float("catSpread", 2);
  t->dead_load = attr_init_float("deadLoad", 140);
  t->capacity = attr_init_float("capacity", 1000);
  t->mv_per_v = attr_init_float("mvPerV", 1);
  t->offset = attr_init_float("offset", 20000);
  t->noise = attr_init_float("noise", 40);
  t->drift = attr_init_float("drift", 150);
  t->rate = attr_init_float("rate", 10);
  t->channel_b = attr_init_float("channelB", 0);
  t->seed = attr_init_float("seed", 1);
  t->cell_spread = attr_init_float("cellSpread", 2);
  uint32_t cells_attr = attr_init_float("cells", 1);
  t->cells = attr(cells_attr) >= 4 ? 4 : 1;
  t->powered = true;
  t->sck = pin_init("SCK", INPUT);
  const timer_config_t power = {.user_data = t, .callback = on_power_down};
  t->power_down = timer_init(&power);
  uint32_t seed = (uint32_t)attr(t->seed);
  for (int i = 0; i < t->cells; i++) {
    cell_t *c = &t->cell[i];
    c->tray = t;
    c->index = i;
    c->rng = mix(seed, (uint32_t)i);
    /* Cells of one batch differ by a few percent in sensitivity (`cellSpread`,
     * standard deviation) and more in their own zero. */
    double spread = attr(t->cell_spread) / 100.0;
    c->gain = 1.0 + spread * normal(&c->rng);
    c->offset = attr(t->offset) * (1.0 + 10 * spread * normal(&c->rng));
    c->drift = 0;
    c->dout = pin_init(DOUT_PINS[i], OUTPUT_HIGH);
    const timer_config_t conversions = {.user_data = c, .callback = on_timer};
    c->timer = timer_init(&conversions);
    /* The chips power up at slightly different moments. */
    reset(c, (uint32_t)(period_us(t) * (1.0 + 0.23 * i)));
  }
  const pin_watch_config_t watch = {.user_data = t, .edge = BOTH, .pin_change = on_sck};
  pin_watch(t->sck, &watch);
}
