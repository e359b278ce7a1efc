#ifndef INGEST_CVIPSSHIM_H
#define INGEST_CVIPSSHIM_H

#include <stddef.h>
#include <vips/vips.h>

/* Fixed-argument wrappers for the variadic libvips calls the pipeline uses.
 * Every function returns 0 on success and -1 on failure, with the reason in
 * vips_error_buffer(); images handed out must be released with g_object_unref. */

/* Starts libvips once per process: blocks loaders marked untrusted, turns the
 * operation cache off (each photo is seen once) and sets libvips' own threads
 * per operation. */
int ingest_vips_start(int concurrency);

/* The nickname of the loader libvips picks for these bytes ("jpegload_buffer"),
 * or NULL when no loader recognises them. */
const char *ingest_loader_for(const void *data, size_t length);

/* Opens an image lazily from memory, failing on any decode error rather than
 * grey-filling. shrink (1, 2, 4, 8) is applied while decoding JPEG; other
 * formats ignore it. The bytes must outlive the image until it is copied to memory. */
int ingest_load(const void *data, size_t length, int is_jpeg, int shrink, VipsImage **out);

/* One 8-bit band for barcode reading and quality metrics: green of RGB(A),
 * the grey band otherwise; 16-bit input is shifted down, CMYK converted first. */
int ingest_grey(VipsImage *in, VipsImage **out);

/* A thumbnail `width` pixels wide, upright per the image's EXIF orientation. */
int ingest_thumbnail(VipsImage *in, int width, VipsImage **out);

/* Scales by `scale` (< 1 shrinks) with libvips' default kernel. */
int ingest_resize(VipsImage *in, double scale, VipsImage **out);

/* Baseline JPEG in memory without metadata; free *data with g_free. */
int ingest_jpeg_save(VipsImage *in, int quality, void **data, size_t *length);

/* A region of a one-band image, turned by `angle` degrees and scaled by `scale` with bicubic
 * interpolation; uncovered corners are white so they read as quiet zone. With smooth > 1 the
 * result is averaged over `smooth` rows (a vertical box filter). */
int ingest_region(VipsImage *in, int left, int top, int width, int height,
                  double angle, double scale, int smooth, VipsImage **out);

/* A thumbnail `width` pixels wide straight from encoded bytes, upright per the EXIF orientation:
 * libvips shrinks while loading (JPEG) and fails on any decode error. Lazy: the bytes must
 * outlive the image until it is saved. */
int ingest_thumbnail_buffer(const void *data, size_t length, int width, VipsImage **out);

#endif
