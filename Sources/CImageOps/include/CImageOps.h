#ifndef INGEST_CIMAGEOPS_H
#define INGEST_CIMAGEOPS_H

#include <stddef.h>
#include <stdint.h>

/* The size of the image ingest_sample_region makes of a box_width × box_height region. */
void ingest_region_size(int box_width, int box_height, double angle, double scale, int *width, int *height);

/* Samples the box (box_x, box_y, box_width, box_height) of an 8-bit grey image (rows of
 * src_width bytes) turned by `angle` degrees (clockwise, y pointing down: a gradient at angle θ
 * from +x becomes horizontal when turned by −θ) and scaled by `scale`, with bilinear
 * interpolation, into `out` (width × height from ingest_region_size). Points outside the box are
 * white. With smooth_rows > 1 every output row is then the mean of smooth_rows rows centred on it,
 * the edges repeated: along upright bars this removes noise and JPEG blocking but keeps the edges.
 * Returns 0, or -1 when the box does not lie inside the image or the output is too large. */
int ingest_sample_region(const uint8_t *src, int src_width, int src_height,
                         int box_x, int box_y, int box_width, int box_height,
                         double angle, double scale, int smooth_rows,
                         uint8_t *out, int width, int height);

/* ingest_sample_region with the loop every CPU runs, never the AVX2 one, which gives the same
 * bytes (for the tests that hold it to that). */
int ingest_sample_region_portable(const uint8_t *src, int src_width, int src_height,
                                  int box_x, int box_y, int box_width, int box_height,
                                  double angle, double scale, int smooth_rows,
                                  uint8_t *out, int width, int height);

/* Every row of an 8-bit grey image (rows of `width` bytes) replaced, in place, by the mean of
 * smooth_rows rows centred on it, the edges repeated: ingest_sample_region's smoothing, for a
 * region already sampled. Returns 0, or -1 when the working memory cannot be had. */
int ingest_smooth_rows(uint8_t *pixels, int width, int height, int smooth_rows);

/* One band of an 8-bit image with `bands` interleaved bands (rows of width * bands bytes) into `out`. */
void ingest_extract_band(const uint8_t *src, int width, int height, int bands, int band, uint8_t *out);

/* Shrinks an 8-bit image with `bands` interleaved bands to out_width × out_height (neither larger
 * than the source) by area averaging: every output pixel is the mean of the source area it covers,
 * partly covered pixels weighted by their share. Returns 0, or -1 on bad sizes or no memory. */
int ingest_area_shrink(const uint8_t *src, int width, int height, int bands,
                       uint8_t *out, int out_width, int out_height);

/* The same shrink fed rows top to bottom, a strip at a time, so an image that cannot shrink while
 * it loads need never be whole in memory. ingest_row_shrink_new starts one into `out`
 * (out_width × out_height × bands bytes); with `grey` (width × height bytes) non-NULL, band
 * `grey_band` of every row is copied there too. NULL on bad sizes or no memory. */
typedef struct IngestRowShrink IngestRowShrink;
IngestRowShrink *ingest_row_shrink_new(int width, int height, int bands, uint8_t *out, int out_width,
                                       int out_height, uint8_t *grey, int grey_band);
/* Takes `count` rows (`stride` bytes apart) starting at row `top`, which must be the row after the
 * last one taken. `context` is the IngestRowShrink. Returns 0, or -1 for rows out of order. */
int ingest_row_shrink_take(const uint8_t *rows, size_t stride, int top, int count, void *context);
/* Non-zero once every row has been taken and every output row written. */
int ingest_row_shrink_finished(const IngestRowShrink *shrink);
void ingest_row_shrink_free(IngestRowShrink *shrink);

/* Resamples an 8-bit image with `bands` interleaved bands to out_width × out_height (neither larger
 * than the source) with Lanczos' kernel (three lobes), as libvips resamples its thumbnails: sharper
 * than an area where the shrink is small. `source_shrink` (1…64) says how many pixels of the
 * original each source pixel is the mean of, each way: a JPEG decoded at 1/4 is 4, an original 1.
 * That mean's blur is made up for up to the output's Nyquist frequency, so a thumbnail resampled
 * from a JPEG's quarter-size decode is about as sharp as one resampled from its full-size decode
 * (which costs 16 times the pixels). Returns 0, or -1 on bad sizes or no memory. */
int ingest_resample(const uint8_t *src, int width, int height, int bands, uint8_t *out, int out_width,
                    int out_height, int source_shrink);

/* The same resample fed rows top to bottom, a strip at a time, like IngestRowShrink: `grey`
 * (width × height bytes), when not NULL, gets band `grey_band` of every row. NULL on bad sizes or
 * no memory. */
typedef struct IngestRowResample IngestRowResample;
IngestRowResample *ingest_row_resample_new(int width, int height, int bands, uint8_t *out, int out_width,
                                           int out_height, int source_shrink, uint8_t *grey, int grey_band);
/* Takes `count` rows (`stride` bytes apart) starting at row `top`, which must be the row after the
 * last one taken. `context` is the IngestRowResample. Returns 0, or -1 for rows out of order. */
int ingest_row_resample_take(const uint8_t *rows, size_t stride, int top, int count, void *context);
/* Non-zero once every row has been taken and every output row written. */
int ingest_row_resample_finished(const IngestRowResample *resample);
void ingest_row_resample_free(IngestRowResample *resample);

/* Fits the digit patterns of an EAN-13 / UPC-A to one grey-level line across its bars: `profile`
 * holds `count` darkness values (ink high), the code's first and last bar edges are about at
 * first_edge and last_edge. Tries placements around those edges (module width ±4 %, offset ±0.6
 * modules, blur 0.4–1.2 modules, bars printed up to 0.75 modules narrower or 0.45 wider) and for the best one writes each template's cost (0 = perfect fit,
 * 1 = none) at each digit place: left_costs 6 × 20 (sets A then B), right_costs 6 × 10 (set C).
 * With `mode` 1 each half of the code is placed alone, from either end; with 2 the code is a
 * UPC-E (51 modules, six places laid out as the left half's: left_costs only); with 3 the whole
 * code is placed as seen at an angle too, its middle up to 3 modules off even widths'. Returns
 * the best placement's summed cost, or -1 when the code does not fit in the profile. With
 * `portable` not 0 the digit patterns are scored by the loop every CPU runs, else by the fastest
 * this one has (AVX2): the costs are the same, bit for bit (the tests compare them). */
double ingest_ean_fit_line(const float *profile, int count, double first_edge, double last_edge, int mode, int portable,
                           float *left_costs, float *right_costs);

/* The gradient sums of a grid of cell × cell pixels over an 8-bit grey image (rows of `width`
 * bytes), columns × rows cells from the top left: per cell, row by row, seven sums over its pixels
 * off the image's border (and off the last row and column of cells' far edges) of the central
 * differences gx and gy: gx², gy², gx·gy, gx, gy, |gx|, |gy|. `lanes` is working memory of
 * 7 × width values. */
void ingest_cell_gradients(const uint8_t *pixels, int width, int height, int cell, int columns, int rows,
                           int32_t *lanes, int64_t *sums);

/* The sum of the 4-neighbour Laplacian of an 8-bit grey image over its pixels off the border, and
 * the sum of its squares. */
void ingest_laplacian_sums(const uint8_t *pixels, int width, int height, int64_t *sum, int64_t *squares);

/* The sum of `count` 8-bit values and the sum of their squares. */
void ingest_level_sums(const uint8_t *pixels, size_t count, int64_t *sum, int64_t *squares);

#endif
