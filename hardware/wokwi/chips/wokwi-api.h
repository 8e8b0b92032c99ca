/* The part of Wokwi's custom-chip API that the catnip chips use: the functions
 * Wokwi's runtime gives a chip (WebAssembly imports from "env") and the one it
 * calls (chipInit). Names, numbers and structures as documented at
 * docs.wokwi.com/chips-api (GPIO, Time, Attributes, I2C, Framebuffer); Wokwi's full header is
 * wokwi.com/api/chips/wokwi-api.h. Callbacks are function pointers: indices
 * into the exported function table, which the runtime calls back.
 *
 * Only float attributes are used (attrInit with a float default, read with
 * attrReadFloat): one import signature per name. */
#ifndef CATNIP_WOKWI_API_H
#define CATNIP_WOKWI_API_H

#include <stdbool.h>
#include <stdint.h>

#define WOKWI_IMPORT(name) __attribute__((import_module("env"), import_name(name)))

enum pin_value { LOW = 0, HIGH = 1 };
enum pin_mode { INPUT = 0, OUTPUT = 1, INPUT_PULLUP = 2, INPUT_PULLDOWN = 3, ANALOG = 4,
                OUTPUT_LOW = 16, OUTPUT_HIGH = 17 };
enum edge { RISING = 1, FALLING = 2, BOTH = 3 };

typedef int32_t pin_t;
typedef uint32_t timer_t;

typedef struct {
  void *user_data;
  uint32_t edge;
  void (*pin_change)(void *user_data, pin_t pin, uint32_t value);
} pin_watch_config_t;

typedef struct {
  void *user_data;
  void (*callback)(void *user_data);
  uint32_t reserved[8];
} timer_config_t;

typedef struct {
  void *user_data;
  uint32_t address;  /* 7-bit; 0 listens at every address */
  pin_t scl;
  pin_t sda;
  bool (*connect)(void *user_data, uint32_t address, bool read);  /* true: ACK */
  uint8_t (*read)(void *user_data);
  bool (*write)(void *user_data, uint8_t data);  /* true: ACK */
  void (*disconnect)(void *user_data);
  uint32_t reserved[8];
} i2c_config_t;

typedef uint32_t i2c_dev_t;
typedef uint32_t buffer_t;

/* The version of the API the chip is written for: Wokwi looks for this export. */
__attribute__((export_name("__wokwi_api_version_1"))) int wokwi_api_version_1(void);

/* Called once for each instance of the chip when the simulation starts. */
__attribute__((export_name("chipInit"))) void chip_init(void);

WOKWI_IMPORT("pinInit") pin_t pin_init(const char *name, uint32_t mode);
WOKWI_IMPORT("pinRead") uint32_t pin_read(pin_t pin);
WOKWI_IMPORT("pinWrite") void pin_write(pin_t pin, uint32_t value);
WOKWI_IMPORT("pinWatch") bool pin_watch(pin_t pin, const pin_watch_config_t *config);
WOKWI_IMPORT("pinMode") void pin_mode(pin_t pin, uint32_t mode);

WOKWI_IMPORT("timerInit") timer_t timer_init(const timer_config_t *config);
WOKWI_IMPORT("timerStart") void timer_start(timer_t timer, uint32_t micros, bool repeat);
WOKWI_IMPORT("timerStop") void timer_stop(timer_t timer);

WOKWI_IMPORT("attrInit") uint32_t attr_init_float(const char *name, float default_value);
WOKWI_IMPORT("attrReadFloat") float attr_read_float(uint32_t attr);

WOKWI_IMPORT("i2cInit") i2c_dev_t i2c_init(const i2c_config_t *config);

/* The chip's display (its .chip.json "display"): RGBA, 4 bytes a pixel. */
WOKWI_IMPORT("framebufferInit") buffer_t framebuffer_init(uint32_t *width, uint32_t *height);
WOKWI_IMPORT("bufferWrite") void buffer_write(buffer_t buffer, uint32_t offset, const void *data,
                                              uint32_t length);

#endif
