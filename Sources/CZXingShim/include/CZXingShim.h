#ifndef INGEST_CZXINGSHIM_H
#define INGEST_CZXINGSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The symbologies ingest asks zxing-cpp for, as bits of this interface's own: zxing-cpp's
/// BarcodeFormat values are not bits since 3.0, and this header keeps its C++ out of Swift.
#define INGEST_ZXING_EAN8 1
#define INGEST_ZXING_EAN13 2
#define INGEST_ZXING_UPCA 4
#define INGEST_ZXING_UPCE 8
#define INGEST_ZXING_CODE93 16
#define INGEST_ZXING_CODE128 32
#define INGEST_ZXING_QR 64

/// The ways zxing-cpp may look at an image beyond as it is, as bits of `ways`: turned by a right
/// angle (a linear code's lines also run down the columns), shrunk, and inverted (light on dark).
#define INGEST_ZXING_TURNED 1
#define INGEST_ZXING_SHRUNK 2
#define INGEST_ZXING_INVERTED 4

/// One symbol zxing-cpp decoded. `text` is UTF-8 (zxing decodes a QR code's bytes by its ECI or
/// by guessing), owned by the caller after a read: free it with ingest_zxing_free.
typedef struct ingest_zxing_symbol {
    int format;       ///< one INGEST_ZXING_ bit
    char *text;
    int text_length;
    int x, y, width, height;  ///< the bounding box of zxing's position quadrilateral
    int line_count;   ///< linear codes: how many scan lines agreed; 0 for 2-D codes
    int down_columns; ///< linear codes: 1 when those lines ran down columns (the image turned), else 0
} ingest_zxing_symbol;

/// Reads the symbols of `formats` (INGEST_ZXING_ bits) in an 8-bit grey image of `stride`-byte
/// rows, at most `capacity` of them into `out`. With `ways` 0, only what the image shows as it is:
/// no turning, shrinking or inverting, which the caller does; else also the ways of `ways`
/// (INGEST_ZXING_TURNED, _SHRUNK, _INVERTED bits; all three are what zxing-cpp's own defaults try).
/// Returns how many were written, or -1 when zxing-cpp failed (an exception; nothing is written then).
int ingest_zxing_read(const uint8_t *pixels, int width, int height, int stride, int formats, int ways,
                      ingest_zxing_symbol *out, int capacity);

/// Frees the texts of `count` symbols written by ingest_zxing_read.
void ingest_zxing_free(ingest_zxing_symbol *symbols, int count);

#ifdef __cplusplus
}
#endif

#endif
