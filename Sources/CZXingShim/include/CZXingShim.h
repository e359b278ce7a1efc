#ifndef INGEST_CZXINGSHIM_H
#define INGEST_CZXINGSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One symbol zxing-cpp decoded. `text` is UTF-8 (zxing decodes a QR code's bytes by its ECI or
/// by guessing), owned by the caller after a read: free it with ingest_zxing_free.
typedef struct ingest_zxing_symbol {
    int format;       ///< a ZXing::BarcodeFormat bit
    char *text;
    int text_length;
    int x, y, width, height;  ///< the bounding box of zxing's position quadrilateral
    int line_count;   ///< linear codes: how many scan lines agreed; 0 for 2-D codes
} ingest_zxing_symbol;

/// Reads the symbols of `formats` (ZXing::BarcodeFormat bits) in an 8-bit grey image of
/// `stride`-byte rows, at most `capacity` of them into `out`. Only what the image shows as it is:
/// no turning and no downscaling, which the caller does. Returns how many were written, or -1 when
/// zxing-cpp failed (an exception; nothing is written then). zxing-cpp 1.4.0 would abort the
/// process on an image that holds one linear code twice; ResultEquality.cpp prevents that.
int ingest_zxing_read(const uint8_t *pixels, int width, int height, int stride, int formats,
                      ingest_zxing_symbol *out, int capacity);

/// Frees the texts of `count` symbols written by ingest_zxing_read.
void ingest_zxing_free(ingest_zxing_symbol *symbols, int count);

#ifdef __cplusplus
}
#endif

#endif
