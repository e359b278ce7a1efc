#ifndef INGEST_CVIPSSHIM_H
#define INGEST_CVIPSSHIM_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

/* Every libvips call the pipeline makes: fixed-argument wrappers for the variadic ones, and plain
 * forwards for the rest. libvips is not linked but opened by ingest_vips_start, so a command that
 * never touches an image does not pay for loading it; call nothing else here before that.
 * Functions returning int return 0 on success and -1 on failure, with the reason from
 * ingest_vips_error_copy(); images handed out must be released with ingest_unref. */

/* The shared library opened, by its soname. */
#define INGEST_VIPS_LIBRARY "libvips.so.42"

/* Opens libvips and starts it once per process: blocks loaders marked untrusted, turns the
 * operation cache off (each photo is seen once) and sets libvips' own threads per operation. */
int ingest_vips_start(int concurrency);

/* The text of the last failure (libvips' error buffer, cleared by reading, or why libvips could
 * not be opened; with the buffer empty, the last warning libvips gave on this thread), or NULL;
 * free it with free(). */
char *ingest_vips_error_copy(void);
/* Forgets this thread's last libvips warning: called before each call whose failure it may explain. */
void ingest_vips_warning_clear(void);

/* Releases an image (g_object_unref) / a buffer libvips allocated (g_free). */
void ingest_unref(void *object);
void ingest_vips_free(void *data);

/* The image's size, bands, whether its pixels are 8-bit and whether libvips takes it for CMYK. */
int ingest_image_width(const VipsImage *image);
int ingest_image_height(const VipsImage *image);
int ingest_image_bands(const VipsImage *image);
int ingest_image_is_uchar(const VipsImage *image);
int ingest_image_is_cmyk(VipsImage *image);

/* The integer / blob metadata item `name`; -1 when the image has none. */
int ingest_image_int(VipsImage *image, const char *name, int *value);
int ingest_image_blob(VipsImage *image, const char *name, const void **data, size_t *length);

/* The nickname of the loader libvips picks for these bytes ("jpegload_buffer"),
 * or NULL when no loader recognises them. */
const char *ingest_loader_for(const void *data, size_t length);

/* Opens an image lazily from memory, failing on any decode error rather than
 * grey-filling, for one top-to-bottom pass (sequential access: no intermediate copy).
 * shrink (1, 2, 4, 8) is applied while decoding JPEG; other formats ignore it. The bytes
 * must outlive the image until it is copied to memory. */
int ingest_load(const void *data, size_t length, int is_jpeg, int shrink, VipsImage **out);

/* The image as 8-bit sRGB (3 bands) or grey (1 band): CMYK converted, 16-bit shifted down,
 * alpha flattened on white. Lazy. */
int ingest_eight_bit(VipsImage *in, VipsImage **out);

/* An image of width × height 8-bit pixels with 1 or 3 interleaved bands copied from `data`,
 * turned upright per the EXIF `orientation` (1…8). */
int ingest_image_from_pixels(const void *data, int width, int height, int bands, int orientation,
                             VipsImage **out);

/* Computes the image top to bottom and hands each strip of rows, as it is made, to `take` (its
 * rows `stride` bytes apart, starting at row `top`, `count` of them) with `context`; nothing
 * more of the image is kept. On the calling thread. 0, or -1 when the image cannot be computed,
 * is not 8-bit, or `take` returns non-zero. */
typedef int (*IngestTakeRows)(const uint8_t *rows, size_t stride, int top, int count, void *context);
int ingest_image_rows(VipsImage *image, IngestTakeRows take, void *context);

/* Baseline JPEG in memory without metadata; free *data with g_free. */
int ingest_jpeg_save(VipsImage *in, int quality, void **data, size_t *length);

/* A thumbnail `width` pixels wide (never enlarged) straight from encoded bytes, upright per the EXIF orientation:
 * libvips shrinks while loading (JPEG) and fails on any decode error. Lazy: the bytes must
 * outlive the image until it is saved. */
int ingest_thumbnail_buffer(const void *data, size_t length, int width, VipsImage **out);
// A copy of the image whose long edge is `edge` pixels, enlarged or shrunk, upright per the EXIF
// orientation: what the text reader reads.
int ingest_fitted_copy_buffer(const void *data, size_t length, int edge, VipsImage **out);

#endif
