#include "CImageOps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ingest_region_size(int box_width, int box_height, double angle, double scale, int *width, int *height) {
    double radians = angle * M_PI / 180.0;
    double c = fabs(cos(radians)), s = fabs(sin(radians));
    *width = (int)ceil(scale * (box_width * c + box_height * s) - 1e-9);
    *height = (int)ceil(scale * (box_width * s + box_height * c) - 1e-9);
}

/* Sample positions and bilinear weights in 1/64 of a pixel. */
enum { FRACTIONS = 64 };

static inline int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

int ingest_sample_region(const uint8_t *src, int src_width, int src_height,
                         int box_x, int box_y, int box_width, int box_height,
                         double angle, double scale, int smooth_rows,
                         uint8_t *out, int width, int height) {
    if (!src || !out || box_width <= 0 || box_height <= 0 || box_x < 0 || box_y < 0 ||
        box_x > src_width - box_width || box_y > src_height - box_height || width <= 0 || height <= 0 ||
        !(scale > 0) || (size_t)width * (size_t)height > ((size_t)1 << 28))
        return -1;
    if (angle == 0 && scale == 1 && width == box_width && height == box_height) {
        /* Neither turned nor scaled, every sample falls on a pixel with all its weight: the box's
         * rows as they are (zxing-cpp's first look at a read's surroundings). */
        for (int row = 0; row < height; row++)
            memcpy(out + (size_t)row * width, src + (size_t)(box_y + row) * src_width + box_x, (size_t)width);
        return smooth_rows <= 1 ? 0 : ingest_smooth_rows(out, width, height, smooth_rows);
    }
    double radians = angle * M_PI / 180.0;
    double c = cos(radians) / scale, s = sin(radians) / scale;
    double centre_x = box_x + box_width / 2.0, centre_y = box_y + box_height / 2.0;
    int x0 = box_x, y0 = box_y, x1 = box_x + box_width - 1, y1 = box_y + box_height - 1;
    const size_t stride = (size_t)src_width;
    /* Source coordinates in 1/FRACTIONS pixel, offset so they stay positive near the edges. */
    const int64_t offset = 4;

    for (int row = 0; row < height; row++) {
        /* The inverse turn: the source point (pixel-index coordinates) of each output pixel, stepped
         * along the row in fixed point. */
        double dx = 0.5 - width / 2.0, dy = row + 0.5 - height / 2.0;
        double start_x = centre_x + c * dx + s * dy - 0.5, start_y = centre_y - s * dx + c * dy - 0.5;
        int64_t fx = llround((start_x + offset) * FRACTIONS * 65536.0), fy = llround((start_y + offset) * FRACTIONS * 65536.0);
        const int64_t step_x = llround(c * FRACTIONS * 65536.0), step_y = llround(-s * FRACTIONS * 65536.0);
        const int64_t left = (int64_t)((x0 - 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t right = (int64_t)((x1 + 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t top = (int64_t)((y0 - 0.5 + offset) * FRACTIONS * 65536.0);
        const int64_t bottom = (int64_t)((y1 + 0.5 + offset) * FRACTIONS * 65536.0);
        uint8_t *line = out + (size_t)row * width;
        for (int column = 0; column < width; column++, fx += step_x, fy += step_y) {
            if (fx < left || fx > right || fy < top || fy > bottom) {
                line[column] = 255;
                continue;
            }
            /* In 1/FRACTIONS; positive (fx ≥ left > 0), so a shift and a mask divide them. */
            unsigned px = (unsigned)((fx + 32768) >> 16), py = (unsigned)((fy + 32768) >> 16);
            int ix = (int)(px / FRACTIONS) - (int)offset, iy = (int)(py / FRACTIONS) - (int)offset;
            int ax = (int)(px % FRACTIONS), ay = (int)(py % FRACTIONS);
            int sum;
            if (ix >= x0 && ix < x1 && iy >= y0 && iy < y1) {
                const uint8_t *p = src + (size_t)iy * stride + ix;
                int upper = p[0] * (FRACTIONS - ax) + p[1] * ax;
                int lower = p[stride] * (FRACTIONS - ax) + p[stride + 1] * ax;
                sum = upper * (FRACTIONS - ay) + lower * ay;
            } else {
                int xa = clamp_int(ix, x0, x1), xb = clamp_int(ix + 1, x0, x1);
                const uint8_t *ra = src + (size_t)clamp_int(iy, y0, y1) * stride;
                const uint8_t *rb = src + (size_t)clamp_int(iy + 1, y0, y1) * stride;
                int upper = ra[xa] * (FRACTIONS - ax) + ra[xb] * ax;
                int lower = rb[xa] * (FRACTIONS - ax) + rb[xb] * ax;
                sum = upper * (FRACTIONS - ay) + lower * ay;
            }
            /* The weights sum to FRACTIONS², so the mean is 0…255 and never negative. */
            line[column] = (uint8_t)((unsigned)(sum + FRACTIONS * FRACTIONS / 2) / (FRACTIONS * FRACTIONS));
        }
    }
    return smooth_rows <= 1 ? 0 : ingest_smooth_rows(out, width, height, smooth_rows);
}

int ingest_smooth_rows(uint8_t *pixels, int width, int height, int smooth_rows) {
    if (smooth_rows <= 1 || height < 2)
        return 0;

    /* A running vertical sum per column over a copy of the sampled image. */
    uint8_t *sampled = malloc((size_t)width * height);
    unsigned *sums = calloc((size_t)width, sizeof(unsigned));
    if (!sampled || !sums) {
        free(sampled);
        free(sums);
        return -1;
    }
    memcpy(sampled, pixels, (size_t)width * height);
    int before = smooth_rows / 2, after = smooth_rows - 1 - before;
    for (int k = -before; k <= after; k++) {
        const uint8_t *source = sampled + (size_t)clamp_int(k, 0, height - 1) * width;
        for (int column = 0; column < width; column++)
            sums[column] += source[column];
    }
    /* Dividing by smooth_rows as a multiply by ⌈2³²/smooth_rows⌉ and a shift, several times faster
     * than a division: exact for every sum under 2³²/smooth_rows, which a sum of 8-bit values is
     * for up to 4095 rows. */
    const unsigned divisor = (unsigned)smooth_rows;
    const uint64_t reciprocal = ((1ull << 32) + divisor - 1) / divisor;
    const int exact = divisor < 4096;
    for (int row = 0; row < height; row++) {
        uint8_t *line = pixels + (size_t)row * width;
        for (int column = 0; column < width; column++) {
            unsigned sum = sums[column] + divisor / 2;
            line[column] = (uint8_t)(exact ? (unsigned)(((uint64_t)sum * reciprocal) >> 32) : sum / divisor);
        }
        const uint8_t *leaving = sampled + (size_t)clamp_int(row - before, 0, height - 1) * width;
        const uint8_t *entering = sampled + (size_t)clamp_int(row + after + 1, 0, height - 1) * width;
        for (int column = 0; column < width; column++)
            sums[column] += entering[column] - leaving[column];
    }
    free(sampled);
    free(sums);
    return 0;
}

void ingest_extract_band(const uint8_t *src, int width, int height, int bands, int band, uint8_t *out) {
    size_t count = (size_t)width * height;
    if (bands == 1) {
        memcpy(out, src, count);
        return;
    }
    for (size_t i = 0; i < count; i++)
        out[i] = src[i * bands + band];
}
