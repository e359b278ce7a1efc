#ifndef INGEST_CJPEGSHIM_H
#define INGEST_CJPEGSHIM_H

#include <stddef.h>

/* A rectangle of 8-bit grey pixels decoded from a JPEG; free `pixels` with free(). */
typedef struct {
    unsigned char *pixels;
    int left, top, width, height;
} ingest_grey_region;

/* Decodes only the luminance of rows top..top+height-1, columns left..left+width-1 of a JPEG at
 * full resolution, with libjpeg-turbo's scanline skipping and cropping: rows above are entropy
 * decoded but not transformed, columns outside are not transformed, chroma is never converted.
 * The crop widens to whole iMCUs, so `out` may start left of `left` and be wider. Returns 0, or
 * -1 with libjpeg's message in `error` (a CMYK JPEG, corrupt data). */
int ingest_jpeg_grey_region(const void *data, size_t length, int left, int top, int width, int height,
                            ingest_grey_region *out, char *error, size_t error_size);

#endif
